// The libpq layer's deadlines (issue 42, findings 2 and 15): a server that does not answer — a
// listener that never speaks, a backend stopped with SIGSTOP as a paused PostgreSQL is — is an
// error within the connection's timeout, the connection is given up and connects again; a
// statement that is only slow is ended by the server's own statement_timeout; the settings the
// operator gave win over the store's.
#include "server/store/postgres_db.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>

#include "server/silent_listener.h"
#include "server/store/store_kinds.h"

namespace postgres_db_test {
namespace {

using namespace std::chrono_literals;
using server::pg::Connection;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

using test::SilentListener;

std::unique_ptr<Connection> connect_within(const std::string& uri,
                                           std::chrono::milliseconds timeout) {
    auto db = Connection::open(uri, timeout);
    EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error());
    return db.ok() ? std::move(*db) : nullptr;
}

// It used to wait for the server's answer for ever: libpq had no connect_timeout.
TEST(PostgresDb, AServerThatNeverAnswersIsAnErrorWithinTheTimeout) {
    SilentListener silent;
    ASSERT_NE(silent.port(), 0);
    const auto uri =
        "postgresql://someone:s3cret@127.0.0.1:" + std::to_string(silent.port()) + "/chessence";
    const auto start = Clock::now();
    auto refused = Connection::open(uri, 500ms);
    const auto took = seconds_since(start);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("did not answer within 500 ms"), std::string::npos)
        << refused.error();
    EXPECT_EQ(refused.error().find("s3cret"), std::string::npos) << refused.error();
    EXPECT_GE(took, 0.45);
    EXPECT_LT(took, 3.0) << "the deadline bounds connecting";
}

// A backend stopped as a paused server's is (its kernel still acknowledges what is sent): the
// call fails within the timeout and says so, the connection is given up, and it connects again.
TEST(PostgresDb, AStoppedServerIsAnErrorWithinTheTimeoutAndTheConnectionOpensAgain) {
    auto uri = test::fresh_postgres_uri();
    ASSERT_TRUE(uri.ok()) << uri.error();
    auto db = connect_within(*uri, 1000ms);
    ASSERT_TRUE(db);
    auto pid = db->query_text("SELECT pg_backend_pid()::TEXT");
    ASSERT_TRUE(pid.ok() && pid->has_value()) << (pid.ok() ? "no pid" : pid.error());
    {
        // Resumed after 6 s at the latest: code without a deadline answers late, not never.
        test::StoppedProcesses stopped({std::stoi(**pid)}, 6s);
        const auto start = Clock::now();
        auto answer = db->query_text("SELECT 1");
        const auto took = seconds_since(start);
        ASSERT_FALSE(answer.ok()) << "answered after " << took << " s";
        EXPECT_EQ(answer.error(), "PostgreSQL did not answer within 1000 ms");
        EXPECT_TRUE(db->last_failure().unanswered);
        EXPECT_GE(took, 0.95);
        EXPECT_LT(took, 3.5);
        EXPECT_FALSE(db->healthy()) << "given up";
        EXPECT_FALSE(db->exec("SELECT 1").ok()) << "until it connects again";
        // A new backend answers while the old one is still stopped.
        ASSERT_TRUE(db->reconnect()) << db->last_failure().message;
        EXPECT_EQ(db->query_text("SELECT 2").value(), "2");
        // exec, too, and a transaction on a stopped backend.
        auto again = db->query_text("SELECT pg_backend_pid()::TEXT");
        ASSERT_TRUE(again.ok()) << again.error();
        ASSERT_TRUE(db->exec("BEGIN").ok());
        test::StoppedProcesses also({std::stoi(**again)}, 6s);
        const auto commit_start = Clock::now();
        EXPECT_FALSE(db->exec("COMMIT").ok());
        EXPECT_LT(seconds_since(commit_start), 3.5);
        EXPECT_FALSE(db->in_transaction()) << "the connection, and its transaction, given up";
    }
    ASSERT_TRUE(db->reconnect()) << db->last_failure().message;
    EXPECT_EQ(db->query_text("SELECT 3").value(), "3");
}

// A statement that runs too long, on a server that answers: PostgreSQL ends it itself (its
// statement_timeout, a little shorter than the call's), and the connection stays. It used to run
// to its end.
TEST(PostgresDb, AStatementTooLongIsEndedByTheServerAndTheConnectionKept) {
    auto uri = test::fresh_postgres_uri();
    ASSERT_TRUE(uri.ok()) << uri.error();
    auto db = connect_within(*uri, 3000ms);
    ASSERT_TRUE(db);
    const auto start = Clock::now();
    auto slept = db->query_text("SELECT pg_sleep(10)::TEXT");
    const auto took = seconds_since(start);
    ASSERT_FALSE(slept.ok()) << "slept " << took << " s";
    EXPECT_EQ(db->last_failure().sqlstate, "57014") << slept.error();  // query_canceled
    EXPECT_NE(slept.error().find("statement timeout"), std::string::npos) << slept.error();
    EXPECT_GE(took, 2.6) << "statement_timeout is 2.7 s";
    EXPECT_LT(took, 3.0) << "the server's answer, before the call's own deadline";
    EXPECT_TRUE(db->healthy());
    EXPECT_EQ(db->query_text("SELECT 1").value(), "1");
}

// The server is told the store's timeouts only where its own settings are the defaults: here the
// URI's options turn statement_timeout off, so the call's own deadline ends the sleep.
TEST(PostgresDb, TheOperatorsSettingsWinAndTheDeadlineStillHolds) {
    auto uri = test::fresh_postgres_uri();
    ASSERT_TRUE(uri.ok()) << uri.error();
    auto ours = connect_within(*uri, 2000ms);
    ASSERT_TRUE(ours);
    EXPECT_EQ(ours->query_text("SHOW statement_timeout").value(), "1800ms");
    EXPECT_EQ(ours->query_text("SHOW lock_timeout").value(), "1s");
    EXPECT_EQ(ours->query_text("SHOW idle_in_transaction_session_timeout").value(), "5s");

    // fresh_postgres_uri ends with its options (the search path): one more setting joins them.
    auto theirs = connect_within(*uri + "%20-cstatement_timeout%3D0%20-clock_timeout%3D7s", 1000ms);
    ASSERT_TRUE(theirs);
    EXPECT_EQ(theirs->query_text("SHOW statement_timeout").value(), "0");
    EXPECT_EQ(theirs->query_text("SHOW lock_timeout").value(), "7s");
    const auto start = Clock::now();
    auto slept = theirs->query_text("SELECT pg_sleep(10)::TEXT");
    const auto took = seconds_since(start);
    ASSERT_FALSE(slept.ok()) << "slept " << took << " s";
    EXPECT_EQ(slept.error(), "PostgreSQL did not answer within 1000 ms");
    EXPECT_GE(took, 0.95);
    EXPECT_LT(took, 3.5);
    EXPECT_FALSE(theirs->healthy());
}

}  // namespace
}  // namespace postgres_db_test
