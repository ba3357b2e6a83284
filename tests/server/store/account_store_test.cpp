// Accounts, sessions, moderation, ratings and a player's game list (account_records.h) on every
// store: what the HTTP API and the rooms read back is what was written, refused writes are refused
// the same way everywhere.
#include <gtest/gtest.h>

#include <string>

#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace account_store_test {
namespace {

using server::Store;

class AccountStore : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        auto opened = test::fresh_store(GetParam(), dir_);
        ASSERT_TRUE(opened.ok()) << opened.error();
        store_ = std::move(*opened);
        for (const auto* id : {"p_a", "p_b", "p_c"}) {
            ASSERT_TRUE(
                store_->insert_player({id, std::string("Name ") + id, std::string("t-") + id, 10})
                    .ok());
        }
    }

    // A finished game of `white` against `black`, `winner` "white", "black" or "" (a draw).
    void finish(const std::string& id, const std::string& white, const std::string& black,
                const std::string& winner, std::int64_t at, bool rated, bool is_private = false,
                const std::string& variant = "chessence") {
        server::GameRecord game;
        game.id = id;
        game.variant = variant;
        game.rules = "house";
        game.seats = {white, black};
        game.rated = rated;
        game.is_private = is_private;
        ASSERT_TRUE(store_->create_game(game).ok());
        const auto result = winner.empty() ? std::string(R"({"winner":null,"reason":"agreed"})")
                                           : R"({"winner":")" + winner + R"(","reason":"mate"})";
        ASSERT_TRUE(store_->finish_game(id, result, at).ok());
    }

    // Rates game `id`: each seat's rating goes to 1500 + delta (or from its current one).
    core::Status rate(const std::string& id, const std::vector<std::string>& players, double delta,
                      double rd, std::int64_t at) {
        server::RateGame rating{id, "chessence", players, at, nullptr};
        rating.rate = [delta, rd](const auto& current, std::int64_t) {
            std::vector<server::RatedSeat> seats;
            double sign = 1;
            for (const auto& now : current) {
                const server::RatingValue before =
                    now ? now->value : server::RatingValue{1500.0, 350.0, 0.06};
                seats.push_back({before, {before.rating + sign * delta, rd, 0.059999}});
                sign = -sign;
            }
            return seats;
        };
        return store_->commit_sync({rating});
    }

    storage_test::TempDir dir_;
    std::unique_ptr<Store> store_;
};

TEST_P(AccountStore, AccountsAreUniqueByNameInAnyCaseAndChangeable) {
    ASSERT_TRUE(
        store_->commit_sync({server::CreateAccount{{"p_a", "Alice", "h1", false, 20}}}).ok());
    const auto taken =
        store_->commit_sync({server::CreateAccount{{"p_b", "aLICE", "h2", false, 21}}});
    ASSERT_FALSE(taken.ok());
    EXPECT_NE(taken.error().find("name taken"), std::string::npos) << taken.error();
    const auto again =
        store_->commit_sync({server::CreateAccount{{"p_a", "Other", "h3", false, 22}}});
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().find("account already"), std::string::npos) << again.error();
    EXPECT_FALSE(
        store_->commit_sync({server::CreateAccount{{"p_zz", "Zed", "h4", false, 23}}}).ok());

    ASSERT_TRUE(
        store_->commit_sync({server::SetPassword{"p_a", "h9"}, server::SetAdmin{"p_a", true}})
            .ok());
    EXPECT_FALSE(store_->commit_sync({server::SetAdmin{"p_b", true}}).ok()) << "not an account";
    const auto alice = store_->account_by_username("ALICE").value();
    ASSERT_TRUE(alice.has_value());
    EXPECT_EQ(alice->player_id, "p_a");
    EXPECT_EQ(alice->username, "Alice");
    EXPECT_EQ(alice->password_hash, "h9");
    EXPECT_TRUE(alice->admin);
    EXPECT_EQ(alice->created_at, 20);
    EXPECT_FALSE(store_->account("p_b").value().has_value());
}

TEST_P(AccountStore, SessionsAndModeration) {
    ASSERT_TRUE(store_
                    ->commit_sync({server::AddSession{"t-2", "p_a", 30},
                                   server::AddSession{"t-3", "p_a", 31}})
                    .ok());
    EXPECT_FALSE(store_->commit_sync({server::AddSession{"t-x", "p_zz", 30}}).ok());
    EXPECT_EQ(store_->player_by_token_hash("t-3").value()->id, "p_a");
    ASSERT_TRUE(store_->commit_sync({server::RevokeSession{"t-3"}}).ok());
    EXPECT_FALSE(store_->player_by_token_hash("t-3").value().has_value());
    ASSERT_TRUE(store_->commit_sync({server::RevokeSessions{"p_a", "t-2"}}).ok());
    EXPECT_FALSE(store_->player_by_token_hash("t-p_a").value().has_value());
    EXPECT_TRUE(store_->player_by_token_hash("t-2").value().has_value());

    ASSERT_TRUE(store_->commit_sync({server::SetModeration{"p_b", true, std::nullopt}}).ok());
    ASSERT_TRUE(store_->commit_sync({server::SetModeration{"p_c", std::nullopt, true}}).ok());
    EXPECT_FALSE(store_->commit_sync({server::SetModeration{"p_zz", true, true}}).ok());
    const auto b = store_->moderation("p_b").value();
    EXPECT_TRUE(b.muted);
    EXPECT_FALSE(b.closed);
    EXPECT_TRUE(store_->moderation("p_c").value().closed);
    EXPECT_EQ(store_->muted_players().value(), std::vector<std::string>{"p_b"});
}

TEST_P(AccountStore, RatingsHistoryAndLeaderboard) {
    finish("g_1", "p_a", "p_b", "white", 100, true);
    finish("g_2", "p_b", "p_a", "black", 200, true);
    finish("g_3", "p_c", "p_a", "", 300, true);
    ASSERT_TRUE(rate("g_1", {"p_a", "p_b"}, 100, 200.5, 100).ok());
    ASSERT_TRUE(rate("g_2", {"p_b", "p_a"}, -50, 90.25, 200).ok());
    const auto twice = rate("g_2", {"p_b", "p_a"}, -50, 90.25, 200);
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().find("rated already"), std::string::npos) << twice.error();
    ASSERT_TRUE(rate("g_3", {"p_c", "p_a"}, 10, 80.0, 300).ok());

    const auto a = store_->ratings_of("p_a").value();
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].games, 3);
    EXPECT_EQ(a[0].last_played, 300);
    EXPECT_DOUBLE_EQ(a[0].value.rating, 1500.0 + 100 + 50 - 10);
    EXPECT_DOUBLE_EQ(a[0].value.rd, 80.0);
    EXPECT_DOUBLE_EQ(a[0].value.volatility, 0.059999);

    const auto changes = store_->game_ratings("g_2").value();
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].player_id, "p_b");
    EXPECT_DOUBLE_EQ(changes[0].before.rating, 1400.0);
    EXPECT_DOUBLE_EQ(changes[0].after.rating, 1350.0);
    const auto history = store_->rating_history("p_a").value();
    ASSERT_EQ(history.size(), 3u);
    EXPECT_EQ(history[0].game_id, "g_1");
    EXPECT_EQ(history[2].game_id, "g_3");

    // RD 80 (p_a, p_c) and 90.25 (p_b): all under 100, p_b not under 85; p_c's account closed.
    const auto board = store_->leaderboard("chessence", 100.0, 0, 10).value();
    ASSERT_EQ(board.size(), 3u);
    EXPECT_EQ(board[0].player_id, "p_a");
    EXPECT_EQ(board[0].name, "Name p_a");
    EXPECT_EQ(board[0].rating.games, 3);
    EXPECT_EQ(store_->leaderboard("chessence", 85.0, 0, 10).value().size(), 2u);
    EXPECT_EQ(store_->leaderboard("chessence", 100.0, 250, 10).value().size(), 2u);
    EXPECT_EQ(store_->leaderboard("chessence", 100.0, 0, 1).value().size(), 1u);
    EXPECT_TRUE(store_->leaderboard("chesica", 100.0, 0, 10).value().empty());
    ASSERT_TRUE(store_->commit_sync({server::SetModeration{"p_c", std::nullopt, true}}).ok());
    EXPECT_EQ(store_->leaderboard("chessence", 100.0, 0, 10).value().size(), 2u);
}

TEST_P(AccountStore, GamesFilteredAndTalliedAsTheViewerMaySee) {
    finish("g_1", "p_a", "p_b", "white", 100, true);
    finish("g_2", "p_b", "p_a", "white", 200, false);
    finish("g_3", "p_a", "p_b", "", 300, false, false, "chesica");
    finish("g_4", "p_a", "p_c", "black", 400, false, true);  // private
    server::GameRecord aborted;
    aborted.id = "g_5";
    aborted.variant = "chessence";
    aborted.rules = "house";
    aborted.seats = {"p_a", "p_b"};
    ASSERT_TRUE(store_->create_game(aborted).ok());
    ASSERT_TRUE(store_->finish_game("g_5", R"({"winner":null,"reason":"aborted"})", 500).ok());

    const auto ids = [&](server::GameQuery query) {
        query.player_id = "p_a";
        std::vector<std::string> out;
        for (const auto& game : store_->find_games(query).value()) {
            out.push_back(game.id);
        }
        return out;
    };
    using Ids = std::vector<std::string>;
    EXPECT_EQ(ids({}), (Ids{"g_5", "g_3", "g_2", "g_1"})) << "a stranger sees no private game";
    server::GameQuery seated;
    seated.viewer_id = "p_c";
    EXPECT_EQ(ids(seated), (Ids{"g_5", "g_4", "g_3", "g_2", "g_1"}));
    server::GameQuery wins;
    wins.result = "win";
    EXPECT_EQ(ids(wins), (Ids{"g_1"}));
    server::GameQuery losses;
    losses.result = "loss";
    losses.viewer_id = "p_a";
    EXPECT_EQ(ids(losses), (Ids{"g_4", "g_2"}));
    server::GameQuery draws;
    draws.result = "draw";
    EXPECT_EQ(ids(draws), (Ids{"g_3"})) << "an aborted game is no draw";
    server::GameQuery rated;
    rated.rated = true;
    EXPECT_EQ(ids(rated), (Ids{"g_1"}));
    server::GameQuery chesica;
    chesica.variant = "chesica";
    EXPECT_EQ(ids(chesica), (Ids{"g_3"}));
    server::GameQuery page;
    page.offset = 1;
    page.limit = 2;
    EXPECT_EQ(ids(page), (Ids{"g_3", "g_2"}));

    const auto tally = store_->tally("p_a", "p_a").value();
    EXPECT_EQ(tally.games, 5);
    EXPECT_EQ(tally.wins, 1);
    EXPECT_EQ(tally.draws, 1);
    EXPECT_EQ(tally.losses, 2);
    EXPECT_EQ(store_->tally("p_a", "").value().games, 4);
}

INSTANTIATE_TEST_SUITE_P(AllStores, AccountStore, ::testing::ValuesIn(test::store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace account_store_test
