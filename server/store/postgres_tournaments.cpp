// Tournaments (tournament_records.h; issue 43) on PostgreSQL: the writes a batch may hold, run
// inside its savepoint by the writer (postgres_writes.h), and the reads (postgres_reads.h). The
// SQL is the SQLite store's too (sql_tournaments.h).
#include <algorithm>
#include <string>

#include "server/store/postgres_reads.h"
#include "server/store/postgres_writes.h"
#include "server/store/sql_rows.h"
#include "server/store/sql_tournaments.h"

namespace server {

namespace pg_writes {

core::Status apply(pg::Connection& db, const CreateTournament& w) {
    const auto& t = w.tournament;
    auto inserted = db.query(sql::writes::create_tournament(dialect),
                             pg::Params(t.id, t.kind, t.name, t.variant, t.created_by,
                                        t.config_json, t.status, t.starts_at, t.ends_at,
                                        t.created_at, t.password_hash, t.players, t.winner_json));
    if (!inserted) {
        return db.last_failure().sqlstate == pg::unique_violation
                   ? core::make_error("create_tournament: tournament " + t.id + " already exists")
                   : core::make_error("create_tournament: " + inserted.error());
    }
    return core::ok_status();
}

core::Status apply(pg::Connection& db, const AppendTournamentEvents& w) {
    if (w.events.empty()) {
        return core::ok_status();
    }
    // Checked before writing: a failed statement would leave nothing to ask with.
    auto last = db.query(sql::writes::tournament_log_state(dialect), pg::Params(w.tournament_id));
    if (!last) {
        return core::make_error("append_tournament_events: " + last.error());
    }
    if (last->integer(0, 0) != 1) {
        return core::make_error("append_tournament_events: no such tournament " + w.tournament_id);
    }
    const auto stored = last->integer(0, 1);
    if (w.first_version != stored + 1) {
        return core::make_error("append_tournament_events: version " +
                                std::to_string(w.first_version) + " of tournament " +
                                w.tournament_id + " is not the last stored version (" +
                                std::to_string(stored) + ") + 1");
    }
    for (std::size_t i = 0; i < w.events.size(); ++i) {
        const auto version = w.first_version + static_cast<std::int64_t>(i);
        if (auto appended = pg::run(db, sql::writes::append_tournament_event(dialect),
                                    pg::Params(w.tournament_id, version, w.events[i]),
                                    "append_tournament_events");
            !appended) {
            return appended;
        }
    }
    return core::ok_status();
}

core::Status apply(pg::Connection& db, const SetTournamentStatus& w) {
    auto changed = db.query(sql::writes::set_tournament_status(dialect),
                            pg::Params(w.tournament_id, w.status, w.players, w.winner_json));
    if (!changed) {
        return core::make_error("set_tournament_status: " + changed.error());
    }
    if (changed->affected() == 0) {
        return core::make_error("set_tournament_status: no such tournament " + w.tournament_id);
    }
    return core::ok_status();
}

}  // namespace pg_writes

namespace pg_reads {

namespace {

// The tournaments `sql` selects with `params`.
core::Expected<std::vector<TournamentRecord>> query_tournaments(pg::Connection& db,
                                                                std::string_view what,
                                                                const std::string& sql,
                                                                const pg::Params& params) {
    std::vector<TournamentRecord> found;
    auto status = query(db, what, sql, params,
                        [&](const pg::Row& r) { found.push_back(sql::tournament_from_row(r)); });
    return or_error(status, std::move(found));
}

}  // namespace

core::Expected<std::optional<TournamentRecord>> tournament(pg::Connection& db,
                                                           std::string_view id) {
    auto found = query_tournaments(db, "tournament " + std::string(id),
                                   sql::reads::tournament(dialect), pg::Params(id));
    if (!found) {
        return core::make_error(found.error());
    }
    if (found->empty()) {
        return std::nullopt;
    }
    return std::move(found->front());
}

core::Expected<std::vector<TournamentRecord>> tournaments(pg::Connection& db,
                                                          const TournamentQuery& q) {
    return query_tournaments(db, "the " + q.status + " tournaments",
                             sql::reads::tournaments(dialect, q.status),
                             pg::Params(q.status, q.kind, std::max(q.limit, 0)));
}

core::Expected<std::vector<TournamentRecord>> unfinished_tournaments(pg::Connection& db) {
    return query_tournaments(db, "the unfinished tournaments",
                             sql::reads::unfinished_tournaments(dialect), pg::Params());
}

core::Expected<std::vector<StoredTournamentEvent>> tournament_events(pg::Connection& db,
                                                                     std::string_view id,
                                                                     std::int64_t after_version) {
    std::vector<StoredTournamentEvent> out;
    auto status = query(db, "the events of tournament " + std::string(id),
                        sql::reads::tournament_events(dialect), pg::Params(id, after_version),
                        [&](const pg::Row& r) {
                            out.push_back(StoredTournamentEvent{r.integer(0), r.text(1)});
                        });
    return or_error(status, std::move(out));
}

core::Expected<int> tournaments_created_since(pg::Connection& db, std::string_view player_id,
                                              std::int64_t since_ms) {
    const auto what = "reading the tournaments created by " + std::string(player_id);
    auto count = db.query_text(sql::reads::tournaments_created_since(dialect),
                               pg::Params(player_id, since_ms));
    if (!count) {
        return core::make_error(what + ": " + count.error());
    }
    if (!*count) {
        return core::make_error(what + ": no count");
    }
    return std::stoi(**count);
}

}  // namespace pg_reads

}  // namespace server
