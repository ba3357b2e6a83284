#pragma once
// The stores the contract tests run on, each new and empty: "memory" (MemoryStore), "sqlite" (a
// file in a temporary folder) and "postgresql" (a schema of its own on the tests' PostgreSQL
// server: the one the ctest fixture started, named by $CHESSENCE_TEST_POSTGRES, else one this
// program starts with tests/support/postgres.sh on first use and stops when it ends).
#include <memory>
#include <string>
#include <vector>

#include "core/expected.h"
#include "server/storage_test_util.h"
#include "server/store/store.h"

namespace test {

inline const std::vector<std::string> store_kinds = {"memory", "sqlite", "postgresql"};
inline const std::vector<std::string> durable_store_kinds = {"sqlite", "postgresql"};

// The URI of a new, empty schema on the tests' PostgreSQL server.
core::Expected<std::string> fresh_postgres_uri();

// A new, empty store of `kind`; an SQLite file goes into `dir`.
core::Expected<std::unique_ptr<server::Store>> fresh_store(const std::string& kind,
                                                           const storage_test::TempDir& dir);

}  // namespace test
