#pragma once
// The embedded default store: one SQLite file (WAL mode, synchronous=FULL), schema migrations
// applied on open. One writer thread makes batches durable in groups (sqlite_writer.h); reads use
// connections of their own (sqlite_read_pool.h) and never wait for a write.
#include <memory>
#include <string>

#include "core/expected.h"
#include "server/store/store.h"

namespace server {

// Opens (creating if absent) the database at `path` and migrates it to the current schema. A file
// that is not a database, is corrupt, unreadable, or from a newer schema gives an error naming the
// path and the problem. ":memory:" gives a database in memory that only the writer's connection
// sees: reads then take turns with the writer's groups (tests use it; the server uses MemoryStore).
core::Expected<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);

}  // namespace server
