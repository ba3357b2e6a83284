#pragma once
// The stores the contract tests run on, each new and empty: "memory" (MemoryStore), "sqlite" (a
// file in a temporary folder) and "postgresql" (a schema of its own on the tests' PostgreSQL
// server: the one the ctest fixture started, named by $CHESSENCE_TEST_POSTGRES, else one this
// program starts with tests/support/postgres.sh on first use and stops when it ends).
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/expected.h"
#include "server/storage_test_util.h"
#include "server/store/postgres_db.h"
#include "server/store/store.h"

namespace test {

inline const std::vector<std::string> store_kinds = {"memory", "sqlite", "postgresql"};
inline const std::vector<std::string> durable_store_kinds = {"sqlite", "postgresql"};

// The URI of a new, empty schema on the tests' PostgreSQL server.
core::Expected<std::string> fresh_postgres_uri();

// A new, empty store of `kind`; an SQLite file goes into `dir`.
core::Expected<std::unique_ptr<server::Store>> fresh_store(const std::string& kind,
                                                           const storage_test::TempDir& dir);

// Processes (PostgreSQL backends) stopped with SIGSTOP, as a paused server is: each gets SIGCONT
// on resume(), when this goes, and at the latest after `at_most` whatever the test does, so that a
// test of code that would wait for them forever fails instead of hanging.
class StoppedProcesses {
public:
    StoppedProcesses(std::vector<int> pids, std::chrono::milliseconds at_most);
    StoppedProcesses(const StoppedProcesses&) = delete;
    StoppedProcesses& operator=(const StoppedProcesses&) = delete;
    ~StoppedProcesses();
    void resume();

private:
    std::vector<int> pids_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool resumed_ = false;
    std::thread watchdog_;
};

// The pids of the backends whose application_name is `application` (and, unless empty, whose last
// statement was `last_query`), as `watcher` sees them.
std::vector<int> backend_pids(server::pg::Connection& watcher, const std::string& application,
                              const std::string& last_query = "");

}  // namespace test
