#include "server/store/sqlite_runs.h"

#include "server/store/sql_reads.h"
#include "server/store/sql_writes.h"

namespace server::sqlite_runs {

core::Status record_run(sqlite::Connection& db, const ServerRun& run) {
    auto stmt = db.prepare(sql::writes::record_run(sql::Dialect::sqlite));
    if (!stmt) {
        return core::make_error("record_run: " + stmt.error());
    }
    (*stmt)->bind(1, run.started_at).bind(2, run.alive_at);
    if (auto status = (*stmt)->run(); !status) {
        return core::make_error("record_run: " + status.error());
    }
    return core::ok_status();
}

core::Expected<std::vector<ServerRun>> server_runs(sqlite::Connection& db) {
    auto stmt = db.prepare(sql::reads::server_runs(sql::Dialect::sqlite));
    if (!stmt) {
        return core::make_error("server_runs: " + stmt.error());
    }
    std::vector<ServerRun> runs;
    while ((*stmt)->step()) {
        runs.push_back({(*stmt)->integer(0), (*stmt)->integer(1)});
    }
    if (auto status = (*stmt)->status(); !status) {
        return core::make_error("server_runs: " + status.error());
    }
    return runs;
}

}  // namespace server::sqlite_runs
