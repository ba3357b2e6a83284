#pragma once
// The PostgreSQL schema as an ordered list of migration steps, like the SQLite one (migrations.h)
// but starting from its current shape: step 1 is the schema SQLite reached at its step 9. The
// version lives in the table `schema_version`; each step and its version bump run in one
// transaction under an advisory lock, so nodes starting together migrate once.
#include <chrono>
#include <string>

#include "core/expected.h"
#include "server/store/postgres_db.h"

namespace server {

// The version the newest step brings a database to.
int current_postgres_schema_version();

// Brings the database to the current schema by applying the missing steps in order. A database at
// a newer version than this program knows is refused with an error naming `where` and both
// versions, and left untouched. Waiting for another node's migration and running a step are
// bounded by postgres_migration_timeout, not by the connection's timeout (nor the server's
// statement_timeout and lock_timeout): a long step, or a wait, is no outage.
inline constexpr std::chrono::minutes postgres_migration_timeout{10};
core::Status migrate_postgres(pg::Connection& db, const std::string& where);

}  // namespace server
