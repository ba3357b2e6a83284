#pragma once
// The SQL of each write a batch may hold (store.h), run on the writer's connection inside the
// batch's savepoint. The group commit around it lives in sqlite_writer.h.
#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server {

// Runs one write; on failure says why in the words of store.h ("append_event: version 4 of game
// g_1 is not the last stored version (2) + 1"). The caller rolls back what the batch did so far.
core::Status apply_write(sqlite::Connection& db, const WriteOp& op);

}  // namespace server
