// What only the PostgreSQL store can show (the contract both durable stores share is in
// store_contract_test.cpp): reads on connections of their own, a read that fails said as a failure,
// a connection the server dropped, a server that does not answer (a paused one) and a row lock held
// elsewhere, each an error within its timeout, migrations at start-up by several nodes at once, and
// a password kept out of messages.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include <unistd.h>

#include "server/store/postgres_db.h"
#include "server/store/postgres_schema.h"
#include "server/store/postgres_store.h"
#include "server/store/store_kinds.h"

namespace postgres_store_test {
namespace {

using server::pg::Connection;

struct Opened {
    std::string uri;
    std::unique_ptr<server::Store> store;
};

// A store on a new schema, with players p_a and p_b; `extra` is added to its URI, and each call
// waits at most `timeout` for the server.
Opened open_with_players(const std::string& extra = "",
                         std::chrono::milliseconds timeout = server::pg::default_timeout) {
    auto uri = test::fresh_postgres_uri();
    EXPECT_TRUE(uri.ok()) << (uri.ok() ? "" : uri.error());
    if (!uri.ok()) {
        return {};
    }
    auto store = server::open_postgres_store(*uri + extra, timeout);
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error());
    if (!store.ok()) {
        return {};
    }
    for (const auto* id : {"p_a", "p_b"}) {
        EXPECT_TRUE(
            (*store)
                ->insert_player({id, std::string("Name ") + id, std::string("hash-") + id, 1})
                .ok());
    }
    return {*uri, std::move(*store)};
}

std::unique_ptr<Connection> connect(const std::string& uri) {
    auto db = Connection::open(uri);
    EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error());
    return db.ok() ? std::move(*db) : nullptr;
}

// A reader has a connection of its own: it answers while the writer waits for a row lock another
// connection holds.
TEST(PostgresStore, AReadDoesNotWaitForTheWriter) {
    auto opened = open_with_players();
    ASSERT_TRUE(opened.store);
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    ASSERT_TRUE(other->exec("BEGIN; UPDATE players SET name = 'Locked' WHERE id = 'p_a'").ok());
    std::promise<core::Status> outcome;
    auto written = outcome.get_future();
    opened.store->commit({server::RenamePlayer{"p_a", "Ann"}},
                         [&](core::Status status) { outcome.set_value(std::move(status)); });
    const auto found = opened.store->player("p_a").value();
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->name, "Name p_a");
    EXPECT_EQ(written.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
        << "the write waits for the other connection's lock";
    ASSERT_TRUE(other->exec("ROLLBACK").ok());
    EXPECT_TRUE(written.get().ok());
    EXPECT_EQ(opened.store->player("p_a").value()->name, "Ann");
}

// Tables gone under a running store: every read says so, with the server's reason, instead of
// answering "no such player" or an empty list.
TEST(PostgresStore, AReadThatFailsIsAnErrorNotNotFound) {
    auto opened = open_with_players();
    ASSERT_TRUE(opened.store);
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    for (const auto* table : {"players", "games", "events", "accounts", "ratings", "seeks"}) {
        ASSERT_TRUE(
            other->exec(std::string("ALTER TABLE ") + table + " RENAME TO " + table + "_gone")
                .ok());
    }
    const auto player = opened.store->player("p_a");
    ASSERT_FALSE(player.ok()) << "p_a read as " << (player.value() ? "found" : "not found");
    EXPECT_NE(player.error().find("reading player p_a"), std::string::npos) << player.error();
    EXPECT_NE(player.error().find("does not exist"), std::string::npos) << player.error();
    EXPECT_FALSE(opened.store->player_by_token_hash("hash-p_a").ok());
    EXPECT_FALSE(opened.store->game("g_1").ok());
    EXPECT_FALSE(opened.store->events("g_1").ok());
    EXPECT_FALSE(opened.store->unfinished_games().ok());
    EXPECT_FALSE(opened.store->account("p_a").ok());
    EXPECT_FALSE(opened.store->ratings_of("p_a").ok());
    EXPECT_FALSE(opened.store->seeks().ok());
    EXPECT_FALSE(opened.store->insert_player({"p_c", "C", "hash-c", 1}).ok());
}

// The server drops the store's connections (a restart, a failover): the next write finds its
// connection gone at BEGIN, before anything is written, and goes through on a fresh one (it used
// to fail: after a PostgreSQL restart each node's first group did); a read on a dropped
// connection is a failure, and the next read connects again.
TEST(PostgresStore, ADroppedConnectionIsFoundAtBeginAndTheWriteGoesThroughOnAFreshOne) {
    const auto name = "dropme" + std::to_string(::getpid());
    auto opened = open_with_players("&application_name=" + name);
    ASSERT_TRUE(opened.store);
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    auto killed = other->query_text(
        "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
        "WHERE application_name = $1",
        server::pg::Params(name));
    ASSERT_TRUE(killed.ok()) << killed.error();
    ASSERT_GE(std::stoi(killed->value_or("0")), 2) << "the writer and a reader";

    const auto renamed = opened.store->rename_player("p_a", "Kept");
    ASSERT_TRUE(renamed.ok()) << renamed.error();
    const auto read = opened.store->player("p_a");
    EXPECT_FALSE(read.ok()) << "a read on a dropped connection is a failure, not an answer";

    ASSERT_TRUE(opened.store->rename_player("p_b", "Bea").ok());
    const auto again = opened.store->player("p_a");
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ((*again)->name, "Kept") << "written once, on the fresh connection";
    EXPECT_EQ(opened.store->player("p_b").value()->name, "Bea");
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Every backend of the store stopped, as a paused PostgreSQL's are: a write and a read each fail
// within the store's timeout, saying so; the next ones, on new connections, go through (they used
// to wait for as long as the server was stopped, on the writer's thread and the reader's).
TEST(PostgresStore, AServerThatDoesNotAnswerFailsEachCallWithinTheTimeoutThenTheStoreGoesOn) {
    using namespace std::chrono_literals;
    const auto name = "stopme" + std::to_string(::getpid());
    auto opened = open_with_players("&application_name=" + name, 1000ms);
    ASSERT_TRUE(opened.store);
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    const auto pids = test::backend_pids(*other, name);
    ASSERT_GE(pids.size(), 2u) << "the writer and a reader";
    // Resumed after 8 s at the latest: a store without deadlines answers late, not never.
    test::StoppedProcesses stopped(pids, 8s);

    auto start = std::chrono::steady_clock::now();
    const auto lost = opened.store->rename_player("p_a", "Lost");
    auto took = seconds_since(start);
    // Failed, not tried again on a new connection: a paused server would cost that a second
    // timeout (to connect), while only one is waited for.
    ASSERT_FALSE(lost.ok()) << "written after " << took << " s";
    EXPECT_NE(lost.error().find("PostgreSQL did not answer within 1000 ms"), std::string::npos)
        << lost.error();
    EXPECT_GE(took, 0.95);
    EXPECT_LT(took, 3.5);

    start = std::chrono::steady_clock::now();
    const auto unread = opened.store->player("p_a");
    took = seconds_since(start);
    ASSERT_FALSE(unread.ok()) << "read after " << took << " s";
    EXPECT_NE(unread.error().find("did not answer within 1000 ms"), std::string::npos)
        << unread.error();
    EXPECT_LT(took, 3.5);

    // The old backends still stopped: the next group and the next read connect anew.
    const auto written = opened.store->rename_player("p_b", "Bea");
    ASSERT_TRUE(written.ok()) << written.error();
    const auto read = opened.store->player("p_a");
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ((*read)->name, "Name p_a") << "the write that failed left nothing";
    EXPECT_EQ(opened.store->player("p_b").value()->name, "Bea");
    EXPECT_TRUE(opened.store->check().ok());
}

// Another connection holds a row lock: a write that needs it fails within the server's
// lock_timeout (1 s) instead of waiting for as long as it is held, the writer's next group goes
// through, and once the lock is gone so does the write.
TEST(PostgresStore, AWriteWaitingForARowLockFailsWithinTheLockTimeout) {
    std::promise<core::Status> outcome;  // before the store: it may call the handler as it closes
    auto written = outcome.get_future();
    auto opened = open_with_players();
    ASSERT_TRUE(opened.store);
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    ASSERT_TRUE(other->exec("BEGIN; UPDATE players SET name = 'Held' WHERE id = 'p_a'").ok());
    const auto start = std::chrono::steady_clock::now();
    opened.store->commit({server::RenamePlayer{"p_a", "Ann"}},
                         [&](core::Status status) { outcome.set_value(std::move(status)); });
    ASSERT_EQ(written.wait_for(std::chrono::seconds(4)), std::future_status::ready)
        << "the write still waits for the lock after 4 s";
    const auto took = seconds_since(start);
    const auto status = written.get();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().find("lock timeout"), std::string::npos) << status.error();
    EXPECT_GE(took, 0.9);
    EXPECT_LT(took, 3.0);
    EXPECT_TRUE(opened.store->rename_player("p_b", "Bea").ok()) << "the writer goes on";
    ASSERT_TRUE(other->exec("ROLLBACK").ok());
    ASSERT_TRUE(opened.store->rename_player("p_a", "Ann").ok());
    EXPECT_EQ(opened.store->player("p_a").value()->name, "Ann");
}

TEST(PostgresStore, ASchemaNewerThanTheProgramIsRefusedAndLeftAlone) {
    auto opened = open_with_players();
    ASSERT_TRUE(opened.store);
    opened.store.reset();
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    ASSERT_TRUE(other->exec("UPDATE schema_version SET version = 99").ok());
    auto refused = server::open_postgres_store(opened.uri);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("schema version 99 is newer"), std::string::npos)
        << refused.error();
    EXPECT_EQ(other->query_text("SELECT version FROM schema_version").value(), "99");
    EXPECT_EQ(other->query_text("SELECT name FROM players WHERE id = 'p_a'").value(), "Name p_a");
}

// Nodes starting at once on a new database: one migrates, the others wait and find it done.
TEST(PostgresStore, StoresOpeningTogetherMigrateOnce) {
    auto uri = test::fresh_postgres_uri();
    ASSERT_TRUE(uri.ok()) << uri.error();
    // Plain threads, each filling its own slot (std::async's shared state makes GCC 12 warn
    // falsely, -Wfree-nonheap-object, about the store's destructor).
    std::vector<std::unique_ptr<server::Store>> stores(4);
    std::vector<std::string> errors(4);
    std::vector<std::thread> opening;
    for (std::size_t i = 0; i < stores.size(); ++i) {
        opening.emplace_back([&, i] {
            auto store = server::open_postgres_store(*uri);
            if (store) {
                stores[i] = std::move(*store);
            } else {
                errors[i] = store.error();
            }
        });
    }
    for (auto& thread : opening) {
        thread.join();
    }
    for (std::size_t i = 0; i < stores.size(); ++i) {
        ASSERT_NE(stores[i], nullptr) << errors[i];
    }
    ASSERT_TRUE(stores[0]->insert_player({"p_a", "Ann", "hash-a", 1}).ok());
    EXPECT_EQ(stores[3]->player("p_a").value()->name, "Ann") << "one database for all";
    auto other = connect(*uri);
    ASSERT_TRUE(other);
    EXPECT_EQ(
        other->query_text("SELECT count(*) || ':' || max(version) FROM schema_version").value(),
        "1:" + std::to_string(server::current_postgres_schema_version()));
}

TEST(PostgresStore, AnUnreachableServerIsAnErrorWithoutThePassword) {
    auto refused = server::open_postgres_store(
        "postgresql://someone:s3cret-word@/chessence?host=/nonexistent-folder&connect_timeout=2");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().find("s3cret-word"), std::string::npos) << refused.error();
    EXPECT_NE(refused.error().find("someone:***@"), std::string::npos) << refused.error();
    EXPECT_EQ(server::pg::redacted("postgresql://u:pw@h:5432/db"), "postgresql://u:***@h:5432/db");
    EXPECT_EQ(server::pg::redacted("postgresql://u@h/db"), "postgresql://u@h/db");
    EXPECT_TRUE(server::pg::is_postgres_url("postgres://h/db"));
    EXPECT_FALSE(server::pg::is_postgres_url("data/chessence.db"));
}

// Every double the ratings hold comes back bit for bit.
TEST(PostgresStore, DoublesRoundTripExactly) {
    auto opened = open_with_players();
    ASSERT_TRUE(opened.store);
    auto other = connect(opened.uri);
    ASSERT_TRUE(other);
    for (const double value : {1500.0, 0.1 + 0.2, 1.0 / 3.0, 349.99999999999994, 6e-8}) {
        auto back = other->query_text("SELECT $1::DOUBLE PRECISION", server::pg::Params(value));
        ASSERT_TRUE(back.ok()) << back.error();
        EXPECT_EQ(std::stod(back->value()), value) << back->value();
    }
}

}  // namespace
}  // namespace postgres_store_test
