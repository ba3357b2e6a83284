#include "protocol/errors.h"

#include <gtest/gtest.h>

#include <set>

#include <fstream>
#include <sstream>

#include "protocol/schema_validator.h"

namespace {

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(ErrorCodes, NamesRoundTripAndAreDistinct) {
    std::set<std::string_view> names;
    for (int i = 0; i < protocol::error_code_count; ++i) {
        const auto code = static_cast<protocol::ErrorCode>(i);
        const auto name = protocol::error_code_name(code);
        EXPECT_FALSE(name.empty());
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_EQ(protocol::parse_error_code(name), code);
    }
    EXPECT_FALSE(protocol::parse_error_code("no_such_code").has_value());
}

TEST(ErrorCodes, EveryCodeIsDocumentedAndInTheSchema) {
    const auto doc =
        read_text(std::filesystem::path(CHESSENCE_SOURCE_DIR) / "docs" / "protocol.md");
    const auto schema =
        nlohmann::json::parse(read_text(schema::protocol_schema_root() / "server" / "error.json"));
    const auto& allowed = schema["properties"]["code"]["enum"];
    EXPECT_EQ(allowed.size(), static_cast<std::size_t>(protocol::error_code_count));
    for (int i = 0; i < protocol::error_code_count; ++i) {
        const std::string name(protocol::error_code_name(static_cast<protocol::ErrorCode>(i)));
        EXPECT_NE(doc.find("`" + name + "`"), std::string::npos) << name;
        EXPECT_NE(std::find(allowed.begin(), allowed.end(), name), allowed.end()) << name;
    }
}

}  // namespace
