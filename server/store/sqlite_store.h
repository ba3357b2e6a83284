#pragma once
// The embedded default store: one SQLite file (WAL mode), schema migrations applied on open.
#include <memory>
#include <string>

#include "core/expected.h"
#include "server/store/store.h"

namespace server {

// Opens (creating if absent) the database at `path` and migrates it to the current schema. A file
// that is not a database, is corrupt, unreadable, or from a newer schema gives an error naming the
// path and the problem.
core::Expected<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);

}  // namespace server
