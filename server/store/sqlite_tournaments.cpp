#include "server/store/sqlite_tournaments.h"

#include <algorithm>
#include <string>

#include "server/store/sql_rows.h"
#include "server/store/sql_tournaments.h"
#include "server/store/sqlite_reads.h"

namespace server::sqlite_tournaments {

namespace {

using sqlite::annotate;
using sqlite::Connection;
using sqlite::Statement;
using sqlite_reads::or_error;
using sqlite_reads::query;

constexpr auto dialect = sql::Dialect::sqlite;

// Why appending `version` to tournament `id`'s events broke a constraint: no such tournament, or
// not the next version.
core::Status append_refused(Connection& db, const std::string& id, std::int64_t version) {
    auto stmt = db.prepare(sql::writes::tournament_log_state(dialect));
    if (!stmt) {
        return annotate(core::make_error(stmt.error()), "append_tournament_events");
    }
    (*stmt)->bind(1, id);
    const bool read = (*stmt)->step();
    if (read && (*stmt)->integer(0) != 1) {
        return core::make_error("append_tournament_events: no such tournament " + id);
    }
    return core::make_error("append_tournament_events: version " + std::to_string(version) +
                            " of tournament " + id + " is not the last stored version (" +
                            std::to_string(read ? (*stmt)->integer(1) : -1) + ") + 1");
}

// The tournaments `sql` selects, `bind` filling its parameters.
template <class Bind>
core::Expected<std::vector<TournamentRecord>> query_tournaments(Connection& db,
                                                                std::string_view what,
                                                                const std::string& sql,
                                                                Bind&& bind) {
    std::vector<TournamentRecord> found;
    auto status = query(db, what, sql, bind,
                        [&](const Statement& s) { found.push_back(sql::tournament_from_row(s)); });
    return or_error(status, std::move(found));
}

}  // namespace

core::Status create_tournament(Connection& db, const CreateTournament& w) {
    const auto& t = w.tournament;
    auto inserted = sqlite::run(db, sql::writes::create_tournament(dialect), [&](Statement& s) {
        s.bind(1, t.id).bind(2, t.kind).bind(3, t.name).bind(4, t.variant);
        s.bind(5, t.created_by).bind(6, t.config_json).bind(7, t.status);
        s.bind(8, t.starts_at).bind(9, t.ends_at).bind(10, t.created_at);
        s.bind(11, t.password_hash).bind(12, std::int64_t{t.players}).bind(13, t.winner_json);
    });
    if (!inserted && db.last_error_code() == SQLITE_CONSTRAINT_PRIMARYKEY) {
        return core::make_error("create_tournament: tournament " + t.id + " already exists");
    }
    return annotate(std::move(inserted), "create_tournament");
}

core::Status append_tournament_events(Connection& db, const AppendTournamentEvents& w) {
    for (std::size_t i = 0; i < w.events.size(); ++i) {
        const auto version = w.first_version + static_cast<std::int64_t>(i);
        auto appended =
            sqlite::run(db, sql::writes::append_tournament_event(dialect), [&](Statement& s) {
                s.bind(1, w.tournament_id).bind(2, version).bind(3, w.events[i]);
            });
        if (appended) {
            continue;
        }
        if ((db.last_error_code() & 0xff) != SQLITE_CONSTRAINT) {
            return annotate(std::move(appended), "append_tournament_events");
        }
        return append_refused(db, w.tournament_id, version);
    }
    return core::ok_status();
}

core::Status set_tournament_status(Connection& db, const SetTournamentStatus& w) {
    auto updated = sqlite::run(db, sql::writes::set_tournament_status(dialect), [&](Statement& s) {
        s.bind(1, w.tournament_id).bind(2, w.status).bind(3, std::int64_t{w.players});
        s.bind(4, w.winner_json);
    });
    if (updated && db.changes() == 0) {
        return core::make_error("set_tournament_status: no such tournament " + w.tournament_id);
    }
    return annotate(std::move(updated), "set_tournament_status");
}

core::Expected<std::optional<TournamentRecord>> tournament(Connection& db, std::string_view id) {
    auto found =
        query_tournaments(db, "tournament " + std::string(id), sql::reads::tournament(dialect),
                          [&](Statement& s) { s.bind(1, id); });
    if (!found) {
        return core::make_error(found.error());
    }
    if (found->empty()) {
        return std::nullopt;
    }
    return std::move(found->front());
}

core::Expected<std::vector<TournamentRecord>> tournaments(Connection& db,
                                                          const TournamentQuery& q) {
    return query_tournaments(db, "the " + q.status + " tournaments",
                             sql::reads::tournaments(dialect, q.status), [&](Statement& s) {
                                 s.bind(1, q.status).bind(2, q.kind);
                                 s.bind(3, std::int64_t{std::max(q.limit, 0)});
                             });
}

core::Expected<std::vector<TournamentRecord>> unfinished_tournaments(Connection& db) {
    return query_tournaments(db, "the unfinished tournaments",
                             sql::reads::unfinished_tournaments(dialect), [](Statement&) {});
}

core::Expected<std::vector<StoredTournamentEvent>> tournament_events(Connection& db,
                                                                     std::string_view id,
                                                                     std::int64_t after_version) {
    std::vector<StoredTournamentEvent> out;
    auto status = query(
        db, "the events of tournament " + std::string(id), sql::reads::tournament_events(dialect),
        [&](Statement& s) { s.bind(1, id).bind(2, after_version); },
        [&](const Statement& s) {
            out.push_back(StoredTournamentEvent{s.integer(0), s.text(1)});
        });
    return or_error(status, std::move(out));
}

core::Expected<int> tournaments_created_since(Connection& db, std::string_view player_id,
                                              std::int64_t since_ms) {
    int count = 0;
    bool read = false;
    auto status = query(
        db, "the tournaments created by " + std::string(player_id),
        sql::reads::tournaments_created_since(dialect),
        [&](Statement& s) { s.bind(1, player_id).bind(2, since_ms); },
        [&](const Statement& s) {
            count = static_cast<int>(s.integer(0));
            read = true;
        });
    if (status && !read) {
        return core::make_error("reading the tournaments created by " + std::string(player_id) +
                                ": no count");
    }
    return or_error(status, count);
}

}  // namespace server::sqlite_tournaments
