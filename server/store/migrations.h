#pragma once
// The SQLite schema as an ordered list of migration steps. The database's schema version is
// `PRAGMA user_version` (0 for a new file); opening applies every step above it, each step and its
// version bump in one transaction, so a crash mid-migration leaves the previous version intact.
#include <string>

#include "core/expected.h"
#include "server/store/sqlite_db.h"

namespace server {

// The version the newest step brings a database to.
int current_schema_version();

// Brings the database to `target` (default: current) by applying the missing steps in order. A
// database already at a newer version than this program knows is refused with an error naming
// `path` and both versions, and left untouched.
core::Status migrate(sqlite::Connection& db, const std::string& path, int target = -1);

}  // namespace server
