#pragma once
// Which store `--db` names: ":memory:" keeps nothing (MemoryStore), a "postgresql://…" URI is a
// PostgreSQL database (postgres_store.h), anything else a SQLite file, whose folder is created if
// needed (sqlite_store.h). `store_timeout` bounds every call to PostgreSQL (postgres_db.h).
#include <chrono>
#include <memory>
#include <string>

#include "core/expected.h"
#include "server/store/postgres_db.h"
#include "server/store/store.h"

namespace server {

core::Expected<std::unique_ptr<Store>> open_store(
    const std::string& db, std::chrono::milliseconds store_timeout = pg::default_timeout);

}  // namespace server
