#pragma once
// The server's runs (store.h, ServerRun) in SQLite: written by the writer thread (RecordRun), read
// at start-up to know when the server was down.
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_runs {

// Inserts the run, or moves the alive time of the run with the same start.
core::Status record_run(sqlite::Connection& db, const ServerRun& run);
// Every run, oldest first; an error if the query fails.
core::Expected<std::vector<ServerRun>> server_runs(sqlite::Connection& db);

}  // namespace server::sqlite_runs
