#pragma once
// The SQL of the account, session, moderation and rating writes (account_records.h), one function
// per write; sqlite_writer.cpp dispatches to them.
#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_account_writes {

core::Status apply(sqlite::Connection& db, const CreateAccount& write);
core::Status apply(sqlite::Connection& db, const SetPassword& write);
core::Status apply(sqlite::Connection& db, const SetAdmin& write);
core::Status apply(sqlite::Connection& db, const SetModeration& write);
core::Status apply(sqlite::Connection& db, const AddSession& write);
core::Status apply(sqlite::Connection& db, const RevokeSession& write);
core::Status apply(sqlite::Connection& db, const RevokeSessions& write);
core::Status apply(sqlite::Connection& db, const RateGame& write);

}  // namespace server::sqlite_account_writes
