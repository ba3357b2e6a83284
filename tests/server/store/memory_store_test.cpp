#include "server/store/memory_store.h"

#include <gtest/gtest.h>

namespace {

server::GameRecord stored_game(const std::string& id, std::vector<std::string> seats) {
    server::GameRecord record;
    record.id = id;
    record.variant = "chesica";
    record.rules = "house";
    record.seats = std::move(seats);
    return record;
}

// A store that knows the players p_1, p_2 and p_3.
void add_players(server::MemoryStore& store) {
    for (const char* id : {"p_1", "p_2", "p_3"}) {
        ASSERT_TRUE(store.insert_player({id, id, std::string("hash_") + id, 1}).ok());
    }
}

TEST(MemoryStore, PlayersByIdAndTokenHash) {
    server::MemoryStore store;
    ASSERT_TRUE(store.insert_player({"p_1", "Ann", "hash1", 5}).ok());
    EXPECT_EQ(store.player("p_1").value()->name, "Ann");
    EXPECT_EQ(store.player_by_token_hash("hash1").value()->id, "p_1");
    EXPECT_FALSE(store.player_by_token_hash("hash2").value().has_value());
    EXPECT_FALSE(store.insert_player({"p_1", "Annie", "hash9", 5}).ok()) << "ids are unique";
    ASSERT_TRUE(store.rename_player("p_1", "Annie").ok());
    EXPECT_EQ(store.player("p_1").value()->name, "Annie");
    EXPECT_FALSE(store.rename_player("p_9", "Bob").ok());
}

TEST(MemoryStore, EventsAreGaplessAndFiltered) {
    server::MemoryStore store;
    add_players(store);
    EXPECT_FALSE(store.create_game(stored_game("g_0", {"p_1", "p_9"})).ok()) << "unknown player";
    ASSERT_TRUE(store.create_game(stored_game("g_1", {"p_1", "p_2"})).ok());
    EXPECT_FALSE(store.create_game(stored_game("g_1", {"p_1", "p_2"})).ok());
    EXPECT_FALSE(store.append_event("g_1", 2, "{}").ok());
    EXPECT_TRUE(store.append_event("g_1", 1, R"({"a":1})").ok());
    EXPECT_FALSE(store.append_event("g_1", 1, "{}").ok());
    EXPECT_TRUE(store.append_event("g_1", 2, R"({"a":2})").ok());
    EXPECT_FALSE(store.append_event("g_9", 1, "{}").ok());
    const auto after_one = store.events("g_1", 1).value();
    ASSERT_EQ(after_one.size(), 1u);
    EXPECT_EQ(after_one[0].version, 2);
    EXPECT_EQ(after_one[0].json, R"({"a":2})");
    EXPECT_EQ(store.events("g_1", 0).value().size(), 2u);
}

TEST(MemoryStore, ABatchIsAllOrNothing) {
    server::MemoryStore store;
    add_players(store);
    const server::WriteBatch failing = {
        server::CreateGame{stored_game("g_1", {"p_1", "p_2"})},
        server::AppendEvents{"g_1", 1, {R"({"a":1})", R"({"a":2})"}},
        server::FinishGame{"g_1", R"({"winner":null,"reason":"agreement"})", 5},
        server::AppendEvents{"g_1", 7, {R"({"a":7})"}},  // a gap: the whole batch fails
    };
    EXPECT_FALSE(store.commit_sync(failing).ok());
    EXPECT_FALSE(store.game("g_1").value().has_value());
    EXPECT_TRUE(store.events("g_1", 0).value().empty());
    auto fixed = failing;
    fixed.pop_back();
    ASSERT_TRUE(store.commit_sync(fixed).ok());
    EXPECT_EQ(store.game("g_1").value()->status, "finished");
    EXPECT_EQ(store.events("g_1", 0).value().size(), 2u);
}

TEST(MemoryStore, Seeks) {
    server::MemoryStore store;
    ASSERT_TRUE(store.save_seek({"s_1", "{}"}).ok());
    ASSERT_TRUE(store.save_seek({"s_2", "{}"}).ok());
    ASSERT_TRUE(store.delete_seek("s_1").ok());
    ASSERT_EQ(store.seeks().value().size(), 1u);
    EXPECT_EQ(store.seeks().value()[0].id, "s_2");
}

}  // namespace
