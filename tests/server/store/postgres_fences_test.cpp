// Fencing numbers (fences.h) where they matter: two nodes, each with a PostgresStore of its own, on
// one database. A node that lost a game can never commit into it again, a claim waits for a batch
// that passed its check (on a connection of its own: the claimer's writer goes on meanwhile, and
// a claim that keeps meeting a stopped owner's lock is tried again, then fails as contended), and
// a schema from before fences reads every game with fence 0. The contract every store keeps is in
// fences_test.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include <unistd.h>

#include "server/store/fences.h"
#include "server/store/postgres_db.h"
#include "server/store/postgres_store.h"
#include "server/store/store_kinds.h"

namespace postgres_fences_test {
namespace {

using server::AppendEvents;
using server::CheckFence;
using server::ClaimGame;
using server::pg::Connection;
using server::pg::Params;

std::unique_ptr<server::Store> open_node(const std::string& uri) {
    auto store = server::open_postgres_store(uri);
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error());
    return store.ok() ? std::move(*store) : nullptr;
}

std::unique_ptr<Connection> connect_to(const std::string& uri) {
    auto db = Connection::open(uri);
    EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error());
    return db.ok() ? std::move(*db) : nullptr;
}

// A database holding players p_a and p_b and the active game g_1, never claimed.
std::string database_with_a_game() {
    auto uri = test::fresh_postgres_uri();
    EXPECT_TRUE(uri.ok()) << (uri.ok() ? "" : uri.error());
    if (!uri.ok()) {
        return "";
    }
    auto store = open_node(*uri);
    if (!store) {
        return "";
    }
    EXPECT_TRUE(store->insert_player({"p_a", "Ann", "hash-a", 1}).ok());
    EXPECT_TRUE(store->insert_player({"p_b", "Bob", "hash-b", 1}).ok());
    server::GameRecord game;
    game.id = "g_1";
    game.variant = "chessence";
    game.rules = "house";
    game.seats = {"p_a", "p_b"};
    EXPECT_TRUE(store->create_game(game).ok());
    return *uri;
}

// Event `n` of g_1 as an owner holding `fence` commits it: its fence checked first.
server::WriteBatch owner_append(std::int64_t fence, std::int64_t n) {
    return {CheckFence{"g_1", fence},
            AppendEvents{"g_1", n, {"{\"n\":" + std::to_string(n) + "}"}}};
}

// Waits (polling, up to a minute) until a backend of `application` waits for a lock; its pid.
std::string pid_waiting_for_a_lock(Connection& db, const std::string& application) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < deadline) {
        auto pid = db.query_text(
            "SELECT pid::TEXT FROM pg_stat_activity "
            "WHERE application_name = $1 AND wait_event_type = 'Lock'",
            Params(application));
        EXPECT_TRUE(pid.ok()) << (pid.ok() ? "" : pid.error());
        if (!pid.ok() || pid->has_value()) {
            return pid.ok() ? **pid : "";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << "no backend of " << application << " came to wait for a lock";
    return "";
}

// Waits (polling, up to a minute) until the backend `pid` no longer waits for a lock; false when
// it still does.
bool stops_waiting_for_a_lock(Connection& db, const std::string& pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < deadline) {
        auto waiting = db.query_text(
            "SELECT count(*)::TEXT FROM pg_stat_activity "
            "WHERE pid = $1 AND wait_event_type = 'Lock'",
            Params(std::stoi(pid)));
        EXPECT_TRUE(waiting.ok()) << (waiting.ok() ? "" : waiting.error());
        if (!waiting.ok() || waiting->value_or("0") == "0") {
            return waiting.ok();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

// A second active game, g_2, between the same players.
void add_a_second_game(server::Store& store) {
    server::GameRecord game;
    game.id = "g_2";
    game.variant = "chessence";
    game.rules = "house";
    game.seats = {"p_a", "p_b"};
    EXPECT_TRUE(store.create_game(game).ok());
}

TEST(PostgresFences, ANodeThatLostAGameCanNeverCommitIntoItAgain) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    auto first = open_node(uri);
    auto second = open_node(uri);
    ASSERT_TRUE(first && second);

    ASSERT_TRUE(first->commit_sync({ClaimGame{"g_1", 1}}).ok());
    ASSERT_TRUE(first->commit_sync(owner_append(1, 1)).ok());
    // The first node's lease ran out; the second takes the game over.
    ASSERT_TRUE(second->commit_sync({ClaimGame{"g_1", 2}}).ok());

    const auto late = first->commit_sync(owner_append(1, 2));
    ASSERT_FALSE(late.ok());
    EXPECT_TRUE(server::is_fenced(late.error())) << late.error();
    EXPECT_EQ(late.error(), server::fenced_error("g_1", 2, 1));
    const auto reclaim = first->commit_sync({ClaimGame{"g_1", 1}});
    ASSERT_FALSE(reclaim.ok());
    EXPECT_TRUE(server::is_fenced(reclaim.error())) << reclaim.error();

    ASSERT_TRUE(second->commit_sync(owner_append(2, 2)).ok());
    const auto events = second->events("g_1").value();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].json, "{\"n\":2}") << "the new owner's event, not the old one's";
    EXPECT_EQ(first->game("g_1").value()->fence, 2);
}

// The first node's batch has passed its check and waits (for a row lock a third connection holds)
// before its group commits; the second node's claim (Store::claim_game, on a connection of its
// own, as a node claims) then waits for that batch's transaction, and the batch lands whole.
// Deterministic: each step waits for PostgreSQL to report the lock wait.
TEST(PostgresFences, AClaimWaitsForABatchThatPassedItsCheck) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    // Before the stores: a store that closes early (a failed assertion) still calls its handlers.
    std::promise<core::Status> batch_outcome;
    std::promise<core::Status> claim_outcome;
    auto batch_done = batch_outcome.get_future();
    auto claim_done = claim_outcome.get_future();
    const auto tag = std::to_string(::getpid());
    // The locks are held while the test looks: the nodes' server-side lock_timeout is the
    // operator's (a minute, in the URI's options, which database_with_a_game's URI ends with), not
    // the store's second.
    const auto patient = uri + "%20-clock_timeout%3D60s";
    auto first = open_node(patient + "&application_name=fence_first_" + tag);
    auto second = open_node(patient + "&application_name=fence_second_" + tag);
    auto other = connect_to(uri);
    // Outside every transaction: a transaction sees pg_stat_activity as it was when first read.
    auto watch = connect_to(uri);
    ASSERT_TRUE(first && second && other && watch);
    ASSERT_TRUE(first->commit_sync({ClaimGame{"g_1", 1}}).ok());

    ASSERT_TRUE(other->exec("BEGIN; UPDATE players SET name = 'Held' WHERE id = 'p_a'").ok());
    auto batch = owner_append(1, 1);
    batch.push_back(server::RenamePlayer{"p_a", "Ann again"});
    first->commit(std::move(batch),
                  [&](core::Status status) { batch_outcome.set_value(std::move(status)); });
    const auto first_pid = pid_waiting_for_a_lock(*watch, "fence_first_" + tag);
    ASSERT_FALSE(first_pid.empty()) << "the batch passed its check and waits to rename p_a";

    auto claiming = std::async(std::launch::async, [&] {
        claim_outcome.set_value(second->claim_game({"g_1", 2}));
    });
    const auto second_pid = pid_waiting_for_a_lock(*watch, "fence_second_" + tag);
    ASSERT_FALSE(second_pid.empty()) << "the claim waits";
    const auto blockers = watch->query_text("SELECT array_to_string(pg_blocking_pids($1), ',')",
                                            Params(std::stoi(second_pid)));
    ASSERT_TRUE(blockers.ok()) << blockers.error();
    EXPECT_EQ(blockers->value_or(""), first_pid) << "the claim waits for the checked batch";

    ASSERT_TRUE(other->exec("ROLLBACK").ok());
    EXPECT_TRUE(batch_done.get().ok()) << "the batch that passed its check lands whole";
    EXPECT_TRUE(claim_done.get().ok());
    claiming.get();
    EXPECT_EQ(second->events("g_1").value().size(), 1u);
    EXPECT_EQ(second->player("p_a").value()->name, "Ann again");
    EXPECT_EQ(second->game("g_1").value()->fence, 2);
    const auto late = first->commit_sync(owner_append(1, 2));
    EXPECT_TRUE(!late.ok() && server::is_fenced(late.error()));
}

// Issue 42, finding 15: the old owner's batch passed its check (its row lock FOR SHARE held) and
// the owner stopped before its group committed. The new owner's claim fails within the server's
// lock_timeout instead of waiting as long as the old owner is stopped, on the claimer's one writer
// thread, and that writer's other writes go on; once the old owner's transaction ends, the claim
// goes through.
TEST(PostgresFences, AClaimFailsWithinTheLockTimeoutWhileAStoppedOwnerHoldsItsCheck) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    std::promise<core::Status> claim_outcome;  // before the stores, which may call it as they close
    auto claim_done = claim_outcome.get_future();
    auto claimer = open_node(uri);
    auto stale_owner = connect_to(uri);  // the old owner's writer, its group open
    ASSERT_TRUE(claimer && stale_owner);
    ASSERT_TRUE(claimer->commit_sync({ClaimGame{"g_1", 1}}).ok());
    ASSERT_TRUE(
        stale_owner->exec("BEGIN; SELECT fence FROM games WHERE id = 'g_1' FOR SHARE").ok());

    const auto start = std::chrono::steady_clock::now();
    claimer->commit({ClaimGame{"g_1", 2}},
                    [&](core::Status status) { claim_outcome.set_value(std::move(status)); });
    ASSERT_EQ(claim_done.wait_for(std::chrono::seconds(4)), std::future_status::ready)
        << "the claim still waits for the old owner's row lock after 4 s";
    const auto took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto claimed = claim_done.get();
    ASSERT_FALSE(claimed.ok());
    EXPECT_NE(claimed.error().find("lock timeout"), std::string::npos) << claimed.error();
    EXPECT_FALSE(server::is_fenced(claimed.error())) << "not a fence: it may be tried again";
    EXPECT_GE(took, 0.9);
    EXPECT_LT(took, 3.0);
    EXPECT_TRUE(claimer->rename_player("p_b", "Bo").ok()) << "the claimer's writer goes on";

    ASSERT_TRUE(stale_owner->exec("ROLLBACK").ok());
    ASSERT_TRUE(claimer->commit_sync({ClaimGame{"g_1", 2}}).ok());
    EXPECT_EQ(claimer->game("g_1").value()->fence, 2);
}

// Issue 42, finding 15, the claimer's side: its claim of g_1 waits for the stopped owner's check
// (the claimer's lock_timeout lifted to 10 s, so that the claim waits until the stale transaction
// ends or the statement_timeout of 4.5 s), while its writer stores an event of its other game g_2:
// the append's commit returns while the claim still waits, because the claim is on a connection
// of its own, not in the writer's group (in it, the append would wait until the claim failed).
// Once the stale transaction ends, the claim goes through.
TEST(PostgresFences, AClaimWaitingForAStoppedOwnersCheckHoldsUpNoneOfTheClaimersWrites) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    const auto tag = std::to_string(::getpid());
    auto claimer = open_node(uri + "%20-clock_timeout%3D10s&application_name=claimer_" + tag);
    auto stale_owner = connect_to(uri);  // the old owner's writer, its group open
    auto watch = connect_to(uri);
    ASSERT_TRUE(claimer && stale_owner && watch);
    add_a_second_game(*claimer);
    ASSERT_TRUE(claimer->commit_sync({ClaimGame{"g_1", 1}, ClaimGame{"g_2", 1}}).ok());
    ASSERT_TRUE(
        stale_owner->exec("BEGIN; SELECT fence FROM games WHERE id = 'g_1' FOR SHARE").ok());

    auto claim = std::async(std::launch::async, [&] { return claimer->claim_game({"g_1", 2}); });
    ASSERT_FALSE(pid_waiting_for_a_lock(*watch, "claimer_" + tag).empty())
        << "the claim waits for the old owner's row lock";
    const auto appended =
        claimer->commit_sync({CheckFence{"g_2", 1}, AppendEvents{"g_2", 1, {"{\"n\":1}"}}});
    EXPECT_NE(claim.wait_for(std::chrono::seconds(0)), std::future_status::ready)
        << "the append was stored only once the claim had given up: the claim held the writer";
    EXPECT_TRUE(appended.ok()) << appended.error();

    ASSERT_TRUE(stale_owner->exec("ROLLBACK").ok());
    const auto claimed = claim.get();
    EXPECT_TRUE(claimed.ok()) << claimed.error();
    EXPECT_EQ(claimer->game("g_1").value()->fence, 2);
    EXPECT_EQ(claimer->events("g_2").value().size(), 1u);
}

// A claim that meets the stopped owner's lock (the server's lock_timeout of 1 s) is tried again,
// PostgresStore::claim_attempts times with a short backoff, and then fails with an error that says
// to try again (claim_contended_prefix), not fenced; tried again after the stale transaction
// ended, it goes through.
TEST(PostgresFences, AClaimThatKeepsMeetingAStoppedOwnersLockFailsAsContended) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    auto claimer = open_node(uri);
    auto stale_owner = connect_to(uri);
    ASSERT_TRUE(claimer && stale_owner);
    ASSERT_TRUE(claimer->commit_sync({ClaimGame{"g_1", 1}}).ok());
    ASSERT_TRUE(
        stale_owner->exec("BEGIN; SELECT fence FROM games WHERE id = 'g_1' FOR SHARE").ok());

    const auto start = std::chrono::steady_clock::now();
    const auto claimed = claimer->claim_game({"g_1", 2});
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_FALSE(claimed.ok());
    EXPECT_TRUE(claimed.error().starts_with(server::claim_contended_prefix)) << claimed.error();
    EXPECT_NE(claimed.error().find("lock timeout"), std::string::npos) << claimed.error();
    EXPECT_FALSE(server::is_fenced(claimed.error()));
    // Each try waited the whole lock_timeout: so many tries were made.
    EXPECT_GE(took, server::PostgresStore::claim_attempts * server::pg::lock_timeout * 9 / 10);
    EXPECT_EQ(claimer->game("g_1").value()->fence, 1) << "nothing was written";

    ASSERT_TRUE(stale_owner->exec("ROLLBACK").ok());
    EXPECT_TRUE(claimer->claim_game({"g_1", 2}).ok());
    EXPECT_EQ(claimer->game("g_1").value()->fence, 2);
}

// The stale transaction ends while the claim is between tries: the claim's first try met the lock
// and failed (its backend stopped waiting), the next one goes through.
TEST(PostgresFences, AClaimTriedAgainAfterTheStaleTransactionEndedSucceeds) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    const auto tag = std::to_string(::getpid());
    auto claimer = open_node(uri + "&application_name=retrying_claimer_" + tag);
    auto stale_owner = connect_to(uri);
    auto watch = connect_to(uri);
    ASSERT_TRUE(claimer && stale_owner && watch);
    ASSERT_TRUE(claimer->commit_sync({ClaimGame{"g_1", 1}}).ok());
    ASSERT_TRUE(
        stale_owner->exec("BEGIN; SELECT fence FROM games WHERE id = 'g_1' FOR SHARE").ok());

    const auto start = std::chrono::steady_clock::now();
    auto claim = std::async(std::launch::async, [&] { return claimer->claim_game({"g_1", 2}); });
    const auto pid = pid_waiting_for_a_lock(*watch, "retrying_claimer_" + tag);
    ASSERT_FALSE(pid.empty()) << "the first try waits for the lock";
    ASSERT_TRUE(stops_waiting_for_a_lock(*watch, pid)) << "the first try met lock_timeout";
    ASSERT_TRUE(stale_owner->exec("ROLLBACK").ok());
    const auto claimed = claim.get();
    EXPECT_TRUE(claimed.ok()) << claimed.error();
    EXPECT_GE(std::chrono::steady_clock::now() - start, server::pg::lock_timeout * 9 / 10)
        << "a first try waited for the lock and failed";
    EXPECT_EQ(claimer->game("g_1").value()->fence, 2);
}

// Schema steps 2 to 4 on a database at step 1: the games stored before read with fence 0.
TEST(PostgresFences, GamesStoredBeforeFencesReadWithFenceZero) {
    const auto uri = database_with_a_game();
    ASSERT_FALSE(uri.empty());
    {
        auto other = connect_to(uri);
        ASSERT_TRUE(other);
        // Back to schema version 1, the game with it.
        ASSERT_TRUE(other
                        ->exec("DROP TABLE tournament_events; DROP TABLE tournaments; "
                               "DROP FUNCTION tournament_events_gapless(); "
                               "ALTER TABLE games DROP COLUMN tournament_id, "
                               "DROP COLUMN berserkable; "
                               "ALTER TABLE games DROP COLUMN fence; "
                               "ALTER TABLE analyses DROP COLUMN node, DROP COLUMN run, "
                               "DROP COLUMN positions_done, DROP COLUMN positions_total; "
                               "ALTER TABLE seeks DROP COLUMN node, DROP COLUMN run; "
                               "UPDATE schema_version SET version = 1")
                        .ok());
    }
    auto store = open_node(uri);
    ASSERT_TRUE(store);
    const auto game = store->game("g_1");
    ASSERT_TRUE(game.ok() && game->has_value()) << (game.ok() ? "no game" : game.error());
    EXPECT_EQ((*game)->fence, 0);
    EXPECT_TRUE(store->commit_sync({ClaimGame{"g_1", 1}}).ok());
    EXPECT_EQ(store->game("g_1").value()->fence, 1);
}

}  // namespace
}  // namespace postgres_fences_test
