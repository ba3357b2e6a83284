#include "server/sqlite_store.h"

namespace server {

// Placeholder until the SQLite store lands.
core::Expected<std::unique_ptr<Store>> open_sqlite_store(const std::string& path) {
    return core::make_error("SQLite store not implemented yet (" + path + ")");
}

}  // namespace server
