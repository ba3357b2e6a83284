// Issue 23: which pages may open a WebSocket (the Origin of the upgrade).
#include "server/net/origin.h"

#include <gtest/gtest.h>

namespace {

using server::origin_allowed;
using server::parse_origin_list;

TEST(Origin, TheServersOwnOriginAndNoOriginMayConnect) {
    EXPECT_TRUE(origin_allowed("http://localhost:8080", "localhost:8080", {}));
    EXPECT_TRUE(origin_allowed("https://chess.example", "chess.example", {}))
        << "behind a TLS proxy only the scheme differs";
    EXPECT_TRUE(origin_allowed("https://Chess.Example:443", "chess.example", {}));
    EXPECT_TRUE(origin_allowed("http://chess.example", "chess.example:80", {}));
    EXPECT_TRUE(origin_allowed("", "chess.example", {})) << "not a browser";
}

TEST(Origin, AForeignOriginIsRefused) {
    EXPECT_FALSE(origin_allowed("https://evil.example", "chess.example", {}));
    EXPECT_FALSE(origin_allowed("http://localhost:8081", "localhost:8080", {}));
    EXPECT_FALSE(origin_allowed("https://chess.example.evil.example", "chess.example", {}));
    EXPECT_FALSE(origin_allowed("null", "chess.example", {}));
    EXPECT_FALSE(origin_allowed("chess.example", "chess.example", {}));
    EXPECT_FALSE(origin_allowed("file://", "chess.example", {}));
    EXPECT_FALSE(origin_allowed("https://evil.example", "", {}));
}

TEST(Origin, TheAllowedListAddsOrigins) {
    auto allowed = parse_origin_list("https://play.example, HTTP://localhost:3000");
    ASSERT_TRUE(allowed) << allowed.error();
    EXPECT_EQ(*allowed,
              (std::vector<std::string>{"https://play.example", "http://localhost:3000"}));
    EXPECT_TRUE(origin_allowed("https://play.example", "chess.example", *allowed));
    EXPECT_TRUE(origin_allowed("https://play.example:443", "chess.example", *allowed));
    EXPECT_TRUE(origin_allowed("http://localhost:3000", "chess.example", *allowed));
    EXPECT_FALSE(origin_allowed("http://play.example", "chess.example", *allowed))
        << "the scheme counts in the list";
    EXPECT_FALSE(origin_allowed("http://localhost:3001", "chess.example", *allowed));
}

TEST(Origin, ABadListSaysWhichEntry) {
    auto bad = parse_origin_list("https://ok.example, ftp://files.example");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("ftp://files.example"), std::string::npos) << bad.error();
    EXPECT_FALSE(parse_origin_list("https://x.example/path"));
    EXPECT_FALSE(parse_origin_list("https://x.example:port"));
    EXPECT_TRUE(parse_origin_list("")->empty());
}

}  // namespace
