#pragma once
// The SQL of each write a batch may hold (store.h, account_records.h) on PostgreSQL, one function
// per write, run inside the batch's savepoint by the store's writer (postgres_store.cpp). On
// failure each says why in the words of store.h, as the SQLite store does ("append_event: version
// 4 of game g_1 is not the last stored version (2) + 1"); the caller rolls the batch back.
#include "core/expected.h"
#include "server/store/postgres_db.h"
#include "server/store/sql_text.h"
#include "server/store/store.h"

namespace server::pg_writes {

// The dialect of the shared SQL texts (sql_reads.h, sql_writes.h) these run.
inline constexpr auto dialect = sql::Dialect::postgres;

// postgres_writes.cpp: players, games, events, seeks, chat, runs, analyses.
core::Status apply(pg::Connection& db, const InsertPlayer& write);
core::Status apply(pg::Connection& db, const RenamePlayer& write);
core::Status apply(pg::Connection& db, const CreateGame& write);
core::Status apply(pg::Connection& db, const AppendEvents& write);
core::Status apply(pg::Connection& db, const FinishGame& write);
core::Status apply(pg::Connection& db, const SaveSeek& write);
core::Status apply(pg::Connection& db, const DeleteSeek& write);
core::Status apply(pg::Connection& db, const AddChatLine& write);
core::Status apply(pg::Connection& db, const RecordRun& write);
core::Status apply(pg::Connection& db, const SaveAnalysis& write);

// postgres_account_writes.cpp: accounts, sessions, moderation, ratings.
core::Status apply(pg::Connection& db, const CreateAccount& write);
core::Status apply(pg::Connection& db, const SetPassword& write);
core::Status apply(pg::Connection& db, const SetAdmin& write);
core::Status apply(pg::Connection& db, const SetModeration& write);
core::Status apply(pg::Connection& db, const AddSession& write);
core::Status apply(pg::Connection& db, const RevokeSession& write);
core::Status apply(pg::Connection& db, const RevokeSessions& write);
core::Status apply(pg::Connection& db, const RateGame& write);

// postgres_tournaments.cpp: tournaments and their events (tournament_records.h).
core::Status apply(pg::Connection& db, const CreateTournament& write);
core::Status apply(pg::Connection& db, const AppendTournamentEvents& write);
core::Status apply(pg::Connection& db, const SetTournamentStatus& write);

// postgres_fences.cpp: claiming a game and checking a batch's fence (fences.h).
core::Status apply(pg::Connection& db, const ClaimGame& write);
core::Status apply(pg::Connection& db, const CheckFence& write);

// Runs one write of a batch.
inline core::Status apply_write(pg::Connection& db, const WriteOp& op) {
    return std::visit([&](const auto& w) { return apply(db, w); }, op);
}

}  // namespace server::pg_writes
