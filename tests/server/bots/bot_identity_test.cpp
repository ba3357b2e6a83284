#include "server/bots/bot_identity.h"

#include <gtest/gtest.h>

namespace {

TEST(BotIdentity, EachLevelHasItsOwnIdAndName) {
    EXPECT_EQ(server::bot_player_id(3), "computer:3");
    EXPECT_EQ(server::bot_name(3), "Computer level 3");
    for (int level = 1; level <= 8; ++level) {
        EXPECT_EQ(server::bot_level(server::bot_player_id(level)), level);
    }
}

// A guest's or an account's id ("p_" and random letters) is never taken for the computer, nor is
// anything near its form.
TEST(BotIdentity, OnlyTheReservedFormIsTheComputer) {
    for (const auto* id : {"p_0123456789ab", "computer:0", "computer:9", "computer:33",
                           "computer:", "computer3", "Computer:3", ""}) {
        EXPECT_FALSE(server::bot_level(id).has_value()) << id;
    }
    // The stored stand-in for a token hash is no SHA-256 (64 hex digits).
    EXPECT_NE(server::bot_token_hash(3).size(), 64u);
}

}  // namespace
