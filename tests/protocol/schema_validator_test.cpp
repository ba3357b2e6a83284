#include "protocol/schema_validator.h"

#include <gtest/gtest.h>

#include <fstream>

namespace {

using nlohmann::json;

class SchemaValidator : public ::testing::Test {
protected:
    void SetUp() override {
        root_ =
            std::filesystem::temp_directory_path() /
            ("schema_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(root_ / "sub");
        write("sub/name.json", R"({"type":"string","minLength":1,"maxLength":3})");
        write("thing.json", R"({
            "type": "object",
            "properties": {
                "kind": {"const": "thing"},
                "name": {"$ref": "sub/name.json"},
                "size": {"type": "integer", "minimum": 1, "maximum": 9},
                "color": {"enum": ["red", "blue"]},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "either": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                "maybe": {"anyOf": [{"type": "null"}, {"type": "boolean"}]}
            },
            "required": ["kind", "name"],
            "additionalProperties": false
        })");
    }
    void TearDown() override { std::filesystem::remove_all(root_); }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(root_ / name) << text;
    }
    bool valid(const json& value) {
        schema::Validator validator(root_);
        return validator.validate(value, "thing.json").empty();
    }

    std::filesystem::path root_;
};

TEST_F(SchemaValidator, AcceptsAConformingValue) {
    EXPECT_TRUE(valid({{"kind", "thing"},
                       {"name", "ab"},
                       {"size", 3},
                       {"color", "red"},
                       {"tags", {"x", "y"}},
                       {"either", "s"},
                       {"maybe", nullptr}}));
}

TEST_F(SchemaValidator, RejectsEachViolation) {
    const json base = {{"kind", "thing"}, {"name", "ab"}};
    EXPECT_FALSE(valid(json::array()));
    EXPECT_FALSE(valid({{"kind", "thing"}}));                  // required
    EXPECT_FALSE(valid({{"kind", "other"}, {"name", "ab"}}));  // const
    auto with = [&](const char* key, json value) {
        json v = base;
        v[key] = std::move(value);
        return valid(v);
    };
    EXPECT_FALSE(with("name", ""));               // minLength through $ref
    EXPECT_FALSE(with("name", "abcd"));           // maxLength
    EXPECT_FALSE(with("name", 5));                // type through $ref
    EXPECT_FALSE(with("size", 0));                // minimum
    EXPECT_FALSE(with("size", 10));               // maximum
    EXPECT_FALSE(with("size", 2.5));              // integer
    EXPECT_FALSE(with("color", "green"));         // enum
    EXPECT_FALSE(with("tags", {"a", 1}));         // items
    EXPECT_FALSE(with("tags", {"a", "b", "c"}));  // maxItems
    EXPECT_FALSE(with("either", true));           // oneOf: none
    EXPECT_FALSE(with("maybe", 3));               // anyOf
    EXPECT_FALSE(with("extra", 1));               // additionalProperties
    EXPECT_TRUE(with("size", 9));
}

TEST_F(SchemaValidator, OneOfRejectsTwoMatches) {
    write("two.json", R"({"oneOf": [{"type": "integer"}, {"type": "number"}]})");
    schema::Validator validator(root_);
    EXPECT_FALSE(validator.validate(json(3), "two.json").empty());
    EXPECT_TRUE(validator.validate(json(3.5), "two.json").empty());
}

TEST_F(SchemaValidator, MissingSchemaIsAnError) {
    schema::Validator validator(root_);
    EXPECT_FALSE(validator.validate(json(1), "nothing.json").empty());
    EXPECT_FALSE(validator.validate_message({{"type", "nothing"}}, "client").empty());
}

TEST(ProtocolSchemas, AreAllReadableAndSelfConsistent) {
    namespace fs = std::filesystem;
    schema::Validator validator(schema::protocol_schema_root());
    int count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(schema::protocol_schema_root())) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        ++count;
        std::ifstream in(entry.path());
        const auto schema = json::parse(in, nullptr, false);
        ASSERT_FALSE(schema.is_discarded()) << entry.path();
        EXPECT_EQ(schema.value("$schema", ""), "https://json-schema.org/draft/2020-12/schema")
            << entry.path();
    }
    EXPECT_GT(count, 40);
    // A value of the wrong shape is refused by every message schema (so none is accidentally open).
    for (const auto* direction : {"client", "server"}) {
        for (const auto& entry :
             fs::directory_iterator(schema::protocol_schema_root() / direction)) {
            const auto relative = std::string(direction) + "/" + entry.path().filename().string();
            EXPECT_FALSE(validator.validate(json{{"type", "zzz"}}, relative).empty()) << relative;
        }
    }
}

}  // namespace
