#include "server/store/sqlite_analyses.h"

#include <string>

#include "server/store/sql_reads.h"
#include "server/store/sql_rows.h"
#include "server/store/sql_writes.h"
#include "server/store/sqlite_reads.h"

namespace server::sqlite_analyses {

namespace {

using sqlite::Statement;

constexpr auto dialect = sql::Dialect::sqlite;

}  // namespace

core::Status save_analysis(sqlite::Connection& db, const SaveAnalysis& w) {
    const auto& a = w.analysis;
    const bool claim = a.status == "queued";
    auto saved = sqlite::run(
        db, claim ? sql::writes::claim_analysis(dialect) : sql::writes::save_analysis(dialect),
        [&](Statement& s) {
            s.bind(1, a.game_id).bind(2, a.status).bind(3, a.json);
            s.bind(4, a.updated_at).bind(5, a.node).bind(6, a.run);
            s.bind(7, a.positions_done).bind(8, a.positions_total);
            if (claim) {
                s.bind(9, w.taken_from);
            }
        });
    if (!saved && db.last_error_code() == SQLITE_CONSTRAINT_FOREIGNKEY) {
        return core::make_error("save_analysis: no such game " + a.game_id);
    }
    return sqlite::annotate(std::move(saved), "save_analysis");
}

core::Expected<std::optional<AnalysisRecord>> analysis(sqlite::Connection& db,
                                                       std::string_view game_id) {
    std::optional<AnalysisRecord> found;
    auto status = sqlite_reads::query(
        db, "the analysis of game " + std::string(game_id), sql::reads::analysis(dialect),
        [&](Statement& s) { s.bind(1, game_id); },
        [&](const Statement& s) { found = sql::analysis_from_row(s); });
    return sqlite_reads::or_error(status, std::move(found));
}

core::Expected<std::vector<AnalysisRecord>> queued_analyses(sqlite::Connection& db) {
    std::vector<AnalysisRecord> found;
    auto status = sqlite_reads::query(
        db, "the queued analyses", sql::reads::queued_analyses(dialect), [](Statement&) {},
        [&](const Statement& s) { found.push_back(sql::analysis_from_row(s)); });
    return sqlite_reads::or_error(status, std::move(found));
}

}  // namespace server::sqlite_analyses
