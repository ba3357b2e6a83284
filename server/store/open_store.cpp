#include "server/store/open_store.h"

#include <filesystem>
#include <system_error>

#include "server/store/memory_store.h"
#include "server/store/postgres_db.h"
#include "server/store/postgres_store.h"
#include "server/store/sqlite_store.h"

namespace server {

core::Expected<std::unique_ptr<Store>> open_store(const std::string& db,
                                                  std::chrono::milliseconds store_timeout) {
    if (db == ":memory:") {
        return make_memory_store();
    }
    if (pg::is_postgres_url(db)) {
        return open_postgres_store(db, store_timeout);
    }
    const auto folder = std::filesystem::path(db).parent_path();
    std::error_code ec;
    if (!folder.empty()) {
        std::filesystem::create_directories(folder, ec);
    }
    return open_sqlite_store(db);
}

}  // namespace server
