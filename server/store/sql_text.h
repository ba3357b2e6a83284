#pragma once
// One SQL text for both stores (issue 42, "one SQL text serves both stores"). Every statement the
// SQLite and PostgreSQL stores both run is written once (sql_reads.h, sql_writes.h), with SQLite's
// numbered placeholders ?1, ?2, …, and turned into each store's dialect by in_dialect(). Where the
// two truly differ, the difference is one small function here taking the dialect, never two copies
// of a statement. The schema and its migrations stay apart (migrations.cpp, postgres_schema.cpp):
// their DDL truly differs.
#include <string>
#include <string_view>

namespace server::sql {

enum class Dialect { sqlite, postgres };

// `text` in `dialect`: unchanged for SQLite; for PostgreSQL each placeholder ?N becomes $N (the
// same number, so a parameter used twice stays one parameter). A '?' inside a quoted literal or
// identifier ('…', "…") is left alone, and so is a bare '?' (no number): write ?N.
std::string in_dialect(Dialect dialect, std::string_view text);

// The column that orders rows by insertion, to break ties: SQLite's rowid, PostgreSQL's `seq`
// (an identity column the PostgreSQL schema adds for it).
std::string_view insertion_order(Dialect dialect);

// The text field `key` of the JSON document in `column`, NULL when the document is not valid
// JSON or has no such field: json_extract behind json_valid on SQLite, the schema's json_field
// function on PostgreSQL (where a cast to jsonb would fail the statement instead).
std::string json_field(Dialect dialect, std::string_view column, std::string_view key);

// The larger of two values: SQLite's scalar MAX(a, b), PostgreSQL's GREATEST(a, b).
std::string_view greatest(Dialect dialect);

// What a SELECT of one row adds to lock it against concurrent UPDATEs until the transaction ends:
// " FOR SHARE" on PostgreSQL; nothing on SQLite, whose single writer holds the whole database.
std::string_view share_lock(Dialect dialect);

}  // namespace server::sql
