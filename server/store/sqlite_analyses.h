#pragma once
// Game analyses (store.h, AnalysisRecord; issue 25) in SQLite: written by the writer thread
// (SaveAnalysis), read by the HTTP API and at start-up.
#include <optional>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_analyses {

// Inserts or replaces the analysis of its game, or claims it (store.h, SaveAnalysis); an error
// naming the game if there is none.
core::Status save_analysis(sqlite::Connection& db, const SaveAnalysis& write);
core::Expected<std::optional<AnalysisRecord>> analysis(sqlite::Connection& db,
                                                       std::string_view game_id);
// The analyses still queued, oldest first.
core::Expected<std::vector<AnalysisRecord>> queued_analyses(sqlite::Connection& db);

}  // namespace server::sqlite_analyses
