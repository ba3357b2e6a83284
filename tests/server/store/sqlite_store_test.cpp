#include "server/store/sqlite_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <thread>

#include "server/storage_test_util.h"
#include "server/store/sqlite_db.h"

namespace {

using server::GameRecord;
using server::PlayerRecord;
using server::Store;

std::unique_ptr<Store> open_or_fail(const std::string& path) {
    auto store = server::open_sqlite_store(path);
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error());
    return store.ok() ? std::move(*store) : nullptr;
}

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

// A store with players p_a, p_b and p_c already saved.
std::unique_ptr<Store> store_with_players(const std::string& path) {
    auto store = open_or_fail(path);
    for (const auto* id : {"p_a", "p_b", "p_c"}) {
        EXPECT_TRUE(store->insert_player(make_player(id)).ok());
    }
    return store;
}

TEST(SqliteStorePlayers, SaveLookUpAndUpdate) {
    auto store = open_or_fail(":memory:");
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

TEST(SqliteStoreGames, CreateAndReadBackEveryField) {
    auto store = store_with_players(":memory:");
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

TEST(SqliteStoreGames, DuplicateIdAndUnknownPlayerAreRefused) {
    auto store = store_with_players(":memory:");
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

TEST(SqliteStoreEvents, AppendedInOrderAndReadAfterAVersion) {
    auto store = store_with_players(":memory:");
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

TEST(SqliteStoreEvents, GapsDuplicatesAndUnknownGamesAreRefused) {
    auto store = store_with_players(":memory:");
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

TEST(SqliteStoreGames, FinishMovesAGameOutOfTheUnfinishedList) {
    auto store = store_with_players(":memory:");
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

TEST(SqliteStoreGames, FinishedGamesArePagedNewestFirst) {
    auto store = store_with_players(":memory:");
    for (int i = 1; i <= 5; ++i) {
        const auto id = "g_" + std::to_string(i);
        ASSERT_TRUE(
            store->create_game(make_game(id, {i % 2 ? "p_a" : "p_b", i % 2 ? "p_b" : "p_a"})).ok());
        ASSERT_TRUE(store->finish_game(id, "{}", 1000 + i).ok());
    }
    ASSERT_TRUE(store->create_game(make_game("g_active", {"p_a", "p_b"})).ok());
    ASSERT_TRUE(store->create_game(make_game("g_other", {"p_b", "p_c"})).ok());
    ASSERT_TRUE(store->finish_game("g_other", "{}", 5000).ok());
    ASSERT_TRUE(store->create_game(make_game("g_self", {"p_a", "p_a"})).ok());
    ASSERT_TRUE(store->finish_game("g_self", "{}", 900).ok());

    auto ids = [&](int offset, int limit) {
        std::vector<std::string> out;
        for (const auto& g : store->finished_games_of("p_a", offset, limit).value()) {
            out.push_back(g.id);
        }
        return out;
    };
    EXPECT_EQ(ids(0, 2), (std::vector<std::string>{"g_5", "g_4"}));
    EXPECT_EQ(ids(2, 2), (std::vector<std::string>{"g_3", "g_2"}));
    EXPECT_EQ(ids(4, 2), (std::vector<std::string>{"g_1", "g_self"}));
    EXPECT_TRUE(ids(6, 2).empty());
    EXPECT_TRUE(ids(0, 0).empty());
    EXPECT_EQ(store->finished_games_of("p_c", 0, 10).value().size(), 1u);
}

TEST(SqliteStoreSeeks, SavedUpdatedListedInCreationOrderAndDeleted) {
    auto store = open_or_fail(":memory:");
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

// A reader has a connection of its own: it answers while the writer waits for the write lock,
// which another connection holds. (Were reads queued behind the writer, this read would wait until
// the writer gave up, and the write would fail.)
TEST(SqliteStoreReads, AReadDoesNotWaitForTheWriter) {
    storage_test::TempDir dir;
    const auto path = dir.file("reads.db");
    auto store = store_with_players(path);
    auto other = server::sqlite::Connection::open(path);
    ASSERT_TRUE(other.ok());
    ASSERT_TRUE((*other)->exec("BEGIN IMMEDIATE").ok());
    std::promise<core::Status> outcome;
    auto written = outcome.get_future();
    store->commit({server::RenamePlayer{"p_a", "Ann"}},
                  [&](core::Status status) { outcome.set_value(std::move(status)); });
    const auto found = store->player("p_a").value();
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->name, "Name p_a");
    EXPECT_EQ(written.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
        << "the write cannot be done while the other connection holds the lock";
    ASSERT_TRUE((*other)->exec("ROLLBACK").ok());
    EXPECT_TRUE(written.get().ok());
    EXPECT_EQ(store->player("p_a").value()->name, "Ann");
}

// A database file that went bad under a running store: every read says so (with SQLite's reason)
// instead of answering "no such player" or an empty list.
TEST(SqliteStoreReads, AReadOfAFileThatWentBadIsAnErrorNotNotFound) {
    storage_test::TempDir dir;
    const auto path = dir.file("bad.db");
    auto store = store_with_players(path);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    ASSERT_TRUE(store->append_event("g_1", 1, "{}").ok());
    {
        // Everything into the main file (the WAL emptied), then garbage over all of it.
        auto other = server::sqlite::Connection::open(path);
        ASSERT_TRUE(other.ok());
        ASSERT_TRUE((*other)->exec("PRAGMA wal_checkpoint(TRUNCATE)").ok());
    }
    const auto size = std::filesystem::file_size(path);
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        const std::string garbage(static_cast<std::size_t>(size), '\x5a');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    const auto player = store->player("p_a");
    ASSERT_FALSE(player.ok()) << "p_a read as " << (player.value() ? "found" : "not found");
    EXPECT_NE(player.error().find("reading player p_a"), std::string::npos) << player.error();
    EXPECT_FALSE(store->player_by_token_hash("hash-p_a").ok());
    EXPECT_FALSE(store->game("g_1").ok());
    EXPECT_FALSE(store->events("g_1").ok());
    EXPECT_FALSE(store->unfinished_games().ok());
    EXPECT_FALSE(store->account("p_a").ok());
    EXPECT_FALSE(store->ratings_of("p_a").ok());
    EXPECT_FALSE(store->seeks().ok());
}

TEST(SqliteStoreThreads, ConcurrentAppendsToDifferentGamesAllLand) {
    storage_test::TempDir dir;
    auto store = store_with_players(dir.file("threads.db"));
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
TEST(SqliteStore, ManyDurableAppendsAllLandInOrder) {
    storage_test::TempDir dir;
    auto store = store_with_players(dir.file("many.db"));
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

}  // namespace
