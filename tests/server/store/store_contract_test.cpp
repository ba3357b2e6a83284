// The store's contract (store.h), on both durable stores: SQLite and PostgreSQL. What only one of
// them can show (a file gone bad, a lock another connection holds) is in sqlite_store_test.cpp and
// postgres_store_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <limits>
#include <thread>

#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace store_contract_test {
namespace {

using server::GameRecord;
using server::PlayerRecord;
using server::Store;

PlayerRecord make_player(const std::string& id) {
    return PlayerRecord{id, "Name " + id, "hash-" + id, 1700000000};
}

GameRecord make_game(const std::string& id, std::vector<std::string> seats) {
    GameRecord g;
    g.id = id;
    g.variant = "chessence";
    g.rules = "house";
    g.seats = std::move(seats);
    g.created_at = 1700000100;
    return g;
}

class StoreContract : public ::testing::TestWithParam<std::string> {
protected:
    std::unique_ptr<Store> open_store() {
        auto store = test::fresh_store(GetParam(), dir_);
        EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error());
        return store.ok() ? std::move(*store) : nullptr;
    }
    // A store with players p_a, p_b and p_c already saved.
    std::unique_ptr<Store> store_with_players() {
        auto store = open_store();
        for (const auto* id : {"p_a", "p_b", "p_c"}) {
            EXPECT_TRUE(store && store->insert_player(make_player(id)).ok());
        }
        return store;
    }

    storage_test::TempDir dir_;
};

TEST_P(StoreContract, PlayersSaveLookUpAndUpdate) {
    auto store = open_store();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->insert_player(make_player("p_1")).ok());
    EXPECT_FALSE(store->player("p_2").value().has_value());
    auto found = store->player("p_1").value();
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->name, "Name p_1");
    EXPECT_EQ(found->created_at, 1700000000);

    auto again = make_player("p_1");
    again.token_hash = "other";
    EXPECT_FALSE(store->insert_player(again).ok()) << "a new player never overwrites another";
    ASSERT_TRUE(store->rename_player("p_1", "Ann").ok());
    EXPECT_FALSE(store->rename_player("p_2", "Bob").ok());
    found = store->player_by_token_hash("hash-p_1").value();
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->id, "p_1");
    EXPECT_EQ(found->name, "Ann");
    EXPECT_EQ(found->created_at, 1700000000);
    EXPECT_FALSE(store->player_by_token_hash("nobody").value().has_value());
}

TEST_P(StoreContract, GamesCreateAndReadBackEveryField) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    GameRecord g = make_game("g_1", {"p_b", "p_a"});
    g.variant = "sniderman";
    g.rules = "strict";
    g.seed = std::numeric_limits<std::uint64_t>::max() - 12345;  // above INT64_MAX on purpose
    g.rounds = 5;
    g.is_private = true;
    ASSERT_TRUE(store->create_game(g).ok());
    auto read = store->game("g_1").value();
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->variant, "sniderman");
    EXPECT_EQ(read->rules, "strict");
    EXPECT_EQ(read->seats, (std::vector<std::string>{"p_b", "p_a"}));
    EXPECT_EQ(read->seed, g.seed);
    EXPECT_EQ(read->rounds, 5);
    EXPECT_TRUE(read->is_private);
    EXPECT_EQ(read->status, "active");
    EXPECT_EQ(read->created_at, 1700000100);
    EXPECT_FALSE(store->game("g_2").value().has_value());
}

TEST_P(StoreContract, GamesDuplicateIdAndUnknownPlayerAreRefused) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    auto again = store->create_game(make_game("g_1", {"p_a", "p_c"}));
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().find("already exists"), std::string::npos) << again.error();
    EXPECT_EQ(store->game("g_1").value()->seats, (std::vector<std::string>{"p_a", "p_b"}));

    auto stranger = store->create_game(make_game("g_2", {"p_a", "p_zz"}));
    ASSERT_FALSE(stranger.ok());
    EXPECT_NE(stranger.error().find("p_zz"), std::string::npos) << stranger.error();
    EXPECT_FALSE(store->game("g_2").value().has_value()) << "a failed create leaves nothing behind";
}

TEST_P(StoreContract, EventsAppendedInOrderAndReadAfterAVersion) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    ASSERT_TRUE(store->create_game(make_game("g_2", {"p_a", "p_b"})).ok());
    for (int v = 1; v <= 5; ++v) {
        ASSERT_TRUE(store->append_event("g_1", v, "{\"n\":" + std::to_string(v) + "}").ok());
    }
    ASSERT_TRUE(store->append_event("g_2", 1, "{\"other\":1}").ok());
    auto all = store->events("g_1").value();
    ASSERT_EQ(all.size(), 5u);
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].version, static_cast<std::int64_t>(i + 1));
        EXPECT_EQ(all[i].json, "{\"n\":" + std::to_string(i + 1) + "}");
    }
    auto tail = store->events("g_1", 3).value();
    ASSERT_EQ(tail.size(), 2u);
    EXPECT_EQ(tail[0].version, 4);
    EXPECT_TRUE(store->events("g_1", 5).value().empty());
    EXPECT_EQ(store->events("g_2").value().size(), 1u);
}

TEST_P(StoreContract, EventsGapsDuplicatesAndUnknownGamesAreRefused) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    auto first_two = store->append_event("g_1", 2, "{}");
    ASSERT_FALSE(first_two.ok());
    EXPECT_NE(first_two.error().find("not the last"), std::string::npos) << first_two.error();
    ASSERT_TRUE(store->append_event("g_1", 1, "{\"a\":1}").ok());
    ASSERT_TRUE(store->append_event("g_1", 2, "{\"a\":2}").ok());
    EXPECT_FALSE(store->append_event("g_1", 2, "{\"dup\":1}").ok());
    EXPECT_FALSE(store->append_event("g_1", 4, "{\"gap\":1}").ok());
    EXPECT_FALSE(store->append_event("g_1", 0, "{\"zero\":1}").ok());
    auto unknown = store->append_event("g_9", 1, "{}");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("no such game"), std::string::npos) << unknown.error();

    auto events = store->events("g_1").value();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].json, "{\"a\":2}") << "a refused append changes nothing";
    EXPECT_TRUE(store->append_event("g_1", 3, "{\"a\":3}").ok());
}

TEST_P(StoreContract, GamesFinishMovesAGameOutOfTheUnfinishedList) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    ASSERT_TRUE(store->create_game(make_game("g_2", {"p_b", "p_c"})).ok());
    ASSERT_EQ(store->unfinished_games().value().size(), 2u);
    const std::string result = R"({"winner":"white","reason":"checkmate"})";
    ASSERT_TRUE(store->finish_game("g_1", result, 1700000200).ok());
    auto unfinished = store->unfinished_games().value();
    ASSERT_EQ(unfinished.size(), 1u);
    EXPECT_EQ(unfinished[0].id, "g_2");
    EXPECT_EQ(unfinished[0].seats, (std::vector<std::string>{"p_b", "p_c"}));
    auto finished = store->game("g_1").value();
    EXPECT_EQ(finished->status, "finished");
    EXPECT_EQ(finished->result_json, result);
    EXPECT_EQ(finished->finished_at, 1700000200);
    EXPECT_FALSE(store->finish_game("g_9", result, 1).ok());
}

TEST_P(StoreContract, APlayersUnfinishedGamesAreListedOldestFirst) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    for (int i = 1; i <= 4; ++i) {
        auto game =
            make_game("g_" + std::to_string(i), i == 3 ? std::vector<std::string>{"p_b", "p_c"}
                                                       : std::vector<std::string>{"p_c", "p_a"});
        game.created_at = 1700000500 - i;  // the later made, the older
        ASSERT_TRUE(store->create_game(game).ok());
    }
    ASSERT_TRUE(store->finish_game("g_2", "{}", 1700000600).ok());
    EXPECT_EQ(store->unfinished_game_ids_of("p_a").value(),
              (std::vector<std::string>{"g_4", "g_1"}));
    EXPECT_EQ(store->unfinished_game_ids_of("p_c").value(),
              (std::vector<std::string>{"g_4", "g_3", "g_1"}));
    EXPECT_EQ(store->unfinished_game_ids_of("p_b").value(), (std::vector<std::string>{"g_3"}));
    EXPECT_TRUE(store->unfinished_game_ids_of("p_nobody").value().empty());
}

TEST_P(StoreContract, SeeksSavedUpdatedListedInCreationOrderAndDeleted) {
    auto store = open_store();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->save_seek({"s_1", "{\"v\":1}"}).ok());
    ASSERT_TRUE(store->save_seek({"s_2", "{\"v\":2}"}).ok());
    ASSERT_TRUE(store->save_seek({"s_1", "{\"v\":11}"}).ok());
    auto seeks = store->seeks().value();
    ASSERT_EQ(seeks.size(), 2u);
    EXPECT_EQ(seeks[0].id, "s_1");
    EXPECT_EQ(seeks[0].json, "{\"v\":11}");
    EXPECT_EQ(seeks[1].id, "s_2");
    ASSERT_TRUE(store->delete_seek("s_1").ok());
    ASSERT_EQ(store->seeks().value().size(), 1u);
    EXPECT_EQ(store->seeks().value()[0].id, "s_2");
}

TEST_P(StoreContract, ThreadsConcurrentAppendsToDifferentGamesAllLand) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    constexpr int games = 4;
    constexpr int per_game = 40;
    for (int g = 0; g < games; ++g) {
        ASSERT_TRUE(store->create_game(make_game("g_" + std::to_string(g), {"p_a", "p_b"})).ok());
    }
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int g = 0; g < games; ++g) {
        threads.emplace_back([&, g] {
            for (int v = 1; v <= per_game; ++v) {
                if (!store->append_event("g_" + std::to_string(g), v, "{}").ok()) {
                    ++failures;
                }
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    EXPECT_EQ(failures.load(), 0);
    for (int g = 0; g < games; ++g) {
        EXPECT_EQ(store->events("g_" + std::to_string(g)).value().size(), std::size_t{per_game});
    }
}

// Many durable appends in a row all land, in order (their speed is measured by
// chessence-store-bench, not here).
TEST_P(StoreContract, ManyDurableAppendsAllLandInOrder) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    constexpr int count = 300;
    for (int v = 1; v <= count; ++v) {
        const std::string event = R"({"kind":"chat","text":")" + std::to_string(v) + R"("})";
        ASSERT_TRUE(store->append_event("g_1", v, event).ok());
    }
    const auto events = store->events("g_1").value();
    ASSERT_EQ(events.size(), std::size_t{count});
    for (int v = 1; v <= count; ++v) {
        EXPECT_EQ(events[static_cast<std::size_t>(v - 1)].version, v);
        EXPECT_NE(events[static_cast<std::size_t>(v - 1)].json.find('"' + std::to_string(v) + '"'),
                  std::string::npos);
    }
}
// A batch that fails part-way leaves nothing of itself behind, on a store that keeps going.
TEST_P(StoreContract, ABatchIsAllOrNothing) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->check().ok());
    auto failed = store->commit_sync({server::InsertPlayer{make_player("p_new")},
                                      server::CreateGame{make_game("g_1", {"p_a", "p_zz"})}});
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().find("p_zz"), std::string::npos) << failed.error();
    EXPECT_FALSE(store->player("p_new").value().has_value());
    EXPECT_FALSE(store->game("g_1").value().has_value());
    ASSERT_TRUE(store
                    ->commit_sync({server::InsertPlayer{make_player("p_new")},
                                   server::CreateGame{make_game("g_1", {"p_a", "p_new"})}})
                    .ok());
    EXPECT_EQ(store->game("g_1").value()->seats, (std::vector<std::string>{"p_a", "p_new"}));
    EXPECT_EQ(store->player_by_token_hash("hash-p_new").value()->id, "p_new");
}

// Batches queued at once, some failing: each gets its own outcome and only the good ones land.
TEST_P(StoreContract, BatchesQueuedTogetherFailAlone) {
    auto store = store_with_players();
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    std::vector<std::promise<core::Status>> outcomes(20);
    for (int i = 0; i < 20; ++i) {
        // Odd batches repeat the version before them: refused.
        const auto version = i / 2 + 1;
        store->commit({server::AppendEvents{"g_1", version, {"{\"n\":" + std::to_string(i) + "}"}}},
                      [&outcomes, i](core::Status status) { outcomes[i].set_value(status); });
    }
    for (int i = 0; i < 20; ++i) {
        EXPECT_EQ(outcomes[i].get_future().get().ok(), i % 2 == 0) << "batch " << i;
    }
    const auto events = store->events("g_1").value();
    ASSERT_EQ(events.size(), 10u);
    for (std::size_t v = 0; v < events.size(); ++v) {
        EXPECT_EQ(events[v].json, "{\"n\":" + std::to_string(v * 2) + "}");
    }
}

INSTANTIATE_TEST_SUITE_P(DurableStores, StoreContract,
                         ::testing::ValuesIn(test::durable_store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace store_contract_test
