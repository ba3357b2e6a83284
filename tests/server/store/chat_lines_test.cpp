// Issue 23: a game's chat beside its event log, on every store: lines come back oldest first in
// their channels, each channel keeps its newest chat_lines_kept, a line for an unknown game fails
// (and with it its batch), and the lines outlive the store's connection.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"
#include "server/store/store_kinds.h"

namespace {

using server::ChatLine;
using server::Store;

server::ChatLine line(const std::string& game, const std::string& channel, int n) {
    return ChatLine{game,
                    channel,
                    "p_a",
                    "Ann",
                    channel == "players" ? "white" : "",
                    channel + " " + std::to_string(n),
                    "2026-11-27T10:00:00Z"};
}

void prepare(Store& store) {
    ASSERT_TRUE(store.insert_player({"p_a", "Ann", "hash-a", 1}).ok());
    ASSERT_TRUE(store.insert_player({"p_b", "Bob", "hash-b", 1}).ok());
    for (const auto* id : {"g_1", "g_2"}) {
        server::GameRecord game;
        game.id = id;
        game.variant = "chessence";
        game.rules = "house";
        game.seats = {"p_a", "p_b"};
        ASSERT_TRUE(store.create_game(game).ok());
    }
}

class ChatLines : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        auto opened = test::fresh_store(GetParam(), dir_);
        ASSERT_TRUE(opened.ok()) << opened.error();
        store_ = std::move(*opened);
        prepare(*store_);
    }
    storage_test::TempDir dir_;
    std::unique_ptr<Store> store_;
};

TEST_P(ChatLines, KeptInOrderPerChannelAndTrimmed) {
    const int said = static_cast<int>(server::chat_lines_kept) + 7;
    for (int n = 1; n <= said; ++n) {
        ASSERT_TRUE(store_->commit_sync({server::AddChatLine{line("g_1", "players", n)}}).ok());
        if (n % 10 == 0) {
            ASSERT_TRUE(
                store_->commit_sync({server::AddChatLine{line("g_1", "spectators", n)}}).ok());
        }
    }
    ASSERT_TRUE(store_->commit_sync({server::AddChatLine{line("g_2", "players", 1)}}).ok());
    const auto lines = store_->chat_lines("g_1");
    ASSERT_TRUE(lines.ok()) << lines.error();
    std::vector<std::string> players;
    std::vector<std::string> spectators;
    for (const auto& l : *lines) {
        EXPECT_EQ(l.game_id, "g_1");
        (l.channel == "players" ? players : spectators).push_back(l.text);
    }
    ASSERT_EQ(players.size(), server::chat_lines_kept) << "the oldest lines are forgotten";
    EXPECT_EQ(players.front(), "players 8");
    EXPECT_EQ(players.back(), "players " + std::to_string(said));
    EXPECT_EQ(spectators.size(), static_cast<std::size_t>(said / 10)) << "each channel on its own";
    EXPECT_EQ((*lines)[0].seat, "white");
    EXPECT_EQ((*lines)[0].from, "Ann");
    for (const auto& l : *lines) {
        EXPECT_EQ(l.seat, l.channel == "players" ? "white" : "") << "a spectator has no seat";
    }
    EXPECT_EQ(store_->chat_lines("g_2").value().size(), 1u);
    EXPECT_TRUE(store_->chat_lines("g_none").value().empty());
}

TEST_P(ChatLines, ALineForAnUnknownGameFailsItsBatch) {
    const auto failed = store_->commit_sync({server::AddChatLine{line("g_1", "players", 1)},
                                             server::AddChatLine{line("g_none", "players", 2)}});
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().find("no such game"), std::string::npos) << failed.error();
    EXPECT_TRUE(store_->chat_lines("g_1").value().empty()) << "all or nothing";
}

INSTANTIATE_TEST_SUITE_P(AllStores, ChatLines, ::testing::ValuesIn(test::store_kinds),
                         [](const auto& info) { return info.param; });

TEST(ChatLinesSqlite, SurviveReopening) {
    storage_test::TempDir dir;
    const auto path = dir.file("chat.db");
    {
        auto store = server::open_sqlite_store(path);
        ASSERT_TRUE(store.ok()) << store.error();
        prepare(**store);
        ASSERT_TRUE(
            (*store)->commit_sync({server::AddChatLine{line("g_1", "spectators", 1)}}).ok());
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    const auto lines = (*store)->chat_lines("g_1").value();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].channel, "spectators");
    EXPECT_EQ(lines[0].text, "spectators 1");
}

}  // namespace
