#include "server/store/store_kinds.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include <signal.h>
#include <unistd.h>

#include "server/store/memory_store.h"
#include "server/store/postgres_db.h"
#include "server/store/postgres_store.h"
#include "server/store/sqlite_store.h"

namespace test {

namespace {

// The tests' PostgreSQL server: its socket folder, or why there is none.
class TestPostgres {
public:
    static TestPostgres& shared() {
        static TestPostgres server;
        return server;
    }
    const core::Expected<std::string>& folder() const { return folder_; }

    ~TestPostgres() {
        if (owned_ && folder_) {
            const auto stop = script() + " stop " + *folder_;
            [[maybe_unused]] const int ignored = std::system(stop.c_str());
        }
    }

private:
    TestPostgres() : folder_(start()) {}

    static std::string script() {
        return std::string(CHESSENCE_SOURCE_DIR) + "/tests/support/postgres.sh";
    }

    core::Expected<std::string> start() {
        if (const char* given = std::getenv("CHESSENCE_TEST_POSTGRES"); given && *given) {
            return std::string(given);
        }
        const auto folder = "/tmp/chessence-pg-" + std::to_string(::getpid());
        const auto command = script() + " start " + folder;
        if (std::system(command.c_str()) != 0) {
            return core::make_error("cannot start a PostgreSQL server in " + folder + " (" +
                                    command + ")");
        }
        owned_ = true;
        return folder;
    }

    // Before folder_: start() sets it while folder_ is initialised, and a default initialiser
    // after it would reset it (the server was then never stopped).
    bool owned_ = false;
    core::Expected<std::string> folder_;
};

}  // namespace

core::Expected<std::string> fresh_postgres_uri() {
    const auto& folder = TestPostgres::shared().folder();
    if (!folder) {
        return core::make_error(folder.error());
    }
    const auto base = "postgresql://postgres@/chessence_tests?host=" + *folder;
    static std::atomic<int> counter{0};
    const auto schema = "t_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    auto admin = server::pg::Connection::open(base);
    if (!admin) {
        return core::make_error(admin.error());
    }
    if (auto made =
            (*admin)->exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
        !made) {
        return core::make_error("cannot create schema " + schema + ": " + made.error());
    }
    return base + "&options=-csearch_path%3D" + schema;
}

core::Expected<std::unique_ptr<server::Store>> fresh_store(const std::string& kind,
                                                           const storage_test::TempDir& dir) {
    if (kind == "memory") {
        return server::make_memory_store();
    }
    if (kind == "sqlite") {
        return server::open_sqlite_store(dir.file("store.db"));
    }
    if (kind == "postgresql") {
        auto uri = fresh_postgres_uri();
        if (!uri) {
            return core::make_error(uri.error());
        }
        return server::open_postgres_store(*uri);
    }
    return core::make_error("no store kind " + kind);
}

StoppedProcesses::StoppedProcesses(std::vector<int> pids, std::chrono::milliseconds at_most)
    : pids_(std::move(pids)) {
    for (const int pid : pids_) {
        ::kill(pid, SIGSTOP);
    }
    watchdog_ = std::thread([this, at_most] {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, at_most, [this] { return resumed_; });
        for (const int pid : pids_) {
            ::kill(pid, SIGCONT);
        }
    });
}

StoppedProcesses::~StoppedProcesses() {
    resume();
    watchdog_.join();
}

void StoppedProcesses::resume() {
    {
        std::lock_guard lock(mutex_);
        resumed_ = true;
    }
    changed_.notify_all();
    for (const int pid : pids_) {
        ::kill(pid, SIGCONT);
    }
}

std::vector<int> backend_pids(server::pg::Connection& watcher, const std::string& application,
                              const std::string& last_query) {
    auto found = watcher.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND ($2 = '' OR query = $2) "
        "ORDER BY pid",
        server::pg::Params(application, last_query));
    std::vector<int> pids;
    if (!found) {
        return pids;
    }
    for (int row = 0; row < found->rows(); ++row) {
        pids.push_back(static_cast<int>(found->integer(row, 0)));
    }
    return pids;
}

}  // namespace test
