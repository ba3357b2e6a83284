#include "server/store/postgres_writes.h"

#include <string>

namespace server::pg_writes {

namespace {

using pg::Connection;
using pg::Params;

bool failed_with(const Connection& db, std::string_view sqlstate) {
    return db.last_failure().sqlstate == sqlstate;
}

// An UPDATE or DELETE that must change exactly one row; `missing` says what is absent otherwise.
core::Status change_one(Connection& db, const std::string& what, const std::string& sql,
                        const Params& params, const std::string& missing) {
    auto changed = db.query(sql, params);
    if (!changed) {
        return core::make_error(what + ": " + changed.error());
    }
    if (changed->affected() == 0) {
        return core::make_error(what + ": " + missing);
    }
    return core::ok_status();
}

}  // namespace

core::Status apply(Connection& db, const InsertPlayer& w) {
    const auto& p = w.player;
    auto inserted =
        db.query("INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
                 Params(p.id, p.name, p.token_hash, p.created_at));
    if (!inserted) {
        return failed_with(db, pg::unique_violation)
                   ? core::make_error("insert_player: player " + p.id + " exists already")
                   : core::make_error("insert_player: " + inserted.error());
    }
    // The player's token is its first session.
    return apply(db, AddSession{p.token_hash, p.id, p.created_at});
}

core::Status apply(Connection& db, const RenamePlayer& w) {
    return change_one(db, "rename_player", "UPDATE players SET name = $1 WHERE id = $2",
                      Params(w.name, w.id), "no such player " + w.id);
}

core::Status apply(Connection& db, const CreateGame& w) {
    const auto& g = w.game;
    auto inserted = db.query(
        "INSERT INTO games (id, variant, rules, start_fen, seed, rounds, private, status, "
        "result_json, created_at, finished_at, time_control, rated, access_key, fence) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        Params(g.id, g.variant, g.rules, g.start_fen, static_cast<std::int64_t>(g.seed), g.rounds,
               g.is_private, g.status, g.result_json, g.created_at, g.finished_at, g.time_control,
               g.rated, g.access_key, g.fence));
    if (!inserted) {
        return failed_with(db, pg::unique_violation)
                   ? core::make_error("create_game: game " + g.id + " already exists")
                   : core::make_error("create_game: " + inserted.error());
    }
    for (std::size_t seat = 0; seat < g.seats.size(); ++seat) {
        auto seated =
            db.query("INSERT INTO game_seats (game_id, seat, player_id) VALUES ($1, $2, $3)",
                     Params(g.id, seat, g.seats[seat]));
        if (!seated) {
            return failed_with(db, pg::foreign_key_violation)
                       ? core::make_error("create_game: seat " + std::to_string(seat) +
                                          " names unknown player " + g.seats[seat])
                       : core::make_error("create_game: " + seated.error());
        }
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const AppendEvents& w) {
    if (w.events.empty()) {
        return core::ok_status();
    }
    // Checked before writing: a failed statement would leave nothing to ask with.
    auto last = db.query(
        "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1), "
        "(SELECT COALESCE(MAX(version), 0) FROM events WHERE game_id = $1)",
        Params(w.game_id));
    if (!last) {
        return core::make_error("append_event: " + last.error());
    }
    if (last->text(0, 0) != "t") {
        return core::make_error("append_event: no such game " + w.game_id);
    }
    const auto stored = last->integer(0, 1);
    if (w.first_version != stored + 1) {
        return core::make_error("append_event: version " + std::to_string(w.first_version) +
                                " of game " + w.game_id + " is not the last stored version (" +
                                std::to_string(stored) + ") + 1");
    }
    for (std::size_t i = 0; i < w.events.size(); ++i) {
        const auto version = w.first_version + static_cast<std::int64_t>(i);
        if (auto appended =
                pg::run(db, "INSERT INTO events (game_id, version, json) VALUES ($1, $2, $3)",
                        Params(w.game_id, version, w.events[i]), "append_event");
            !appended) {
            return appended;
        }
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const FinishGame& w) {
    return change_one(db, "finish_game",
                      "UPDATE games SET status = 'finished', result_json = $1, finished_at = $2 "
                      "WHERE id = $3",
                      Params(w.result_json, w.finished_at, w.game_id), "no such game " + w.game_id);
}

core::Status apply(Connection& db, const SaveSeek& w) {
    return pg::run(db,
                   "INSERT INTO seeks (id, json) VALUES ($1, $2) "
                   "ON CONFLICT (id) DO UPDATE SET json = excluded.json",
                   Params(w.seek.id, w.seek.json), "save_seek");
}

core::Status apply(Connection& db, const DeleteSeek& w) {
    return pg::run(db, "DELETE FROM seeks WHERE id = $1", Params(w.id), "delete_seek");
}

core::Status apply(Connection& db, const AddChatLine& w) {
    const auto& l = w.line;
    auto exists = db.query_text("SELECT 1 FROM games WHERE id = $1", Params(l.game_id));
    if (!exists) {
        return core::make_error("add_chat_line: " + exists.error());
    }
    if (!*exists) {
        return core::make_error("add_chat_line: no such game " + l.game_id);
    }
    if (auto added =
            pg::run(db,
                    "INSERT INTO chat_lines (game_id, n, channel, player_id, name, seat, text, at) "
                    "SELECT $1, COALESCE(MAX(n), 0) + 1, $2, $3, $4, $5, $6, $7 FROM chat_lines "
                    "WHERE game_id = $1",
                    Params(l.game_id, l.channel, l.player_id, l.from, l.seat, l.text, l.at),
                    "add_chat_line");
        !added) {
        return added;
    }
    // The channel keeps its newest lines only.
    return pg::run(db,
                   "DELETE FROM chat_lines WHERE game_id = $1 AND channel = $2 AND n <= "
                   "(SELECT n FROM chat_lines WHERE game_id = $1 AND channel = $2 "
                   "ORDER BY n DESC LIMIT 1 OFFSET $3)",
                   Params(l.game_id, l.channel, chat_lines_kept), "add_chat_line");
}

core::Status apply(Connection& db, const RecordRun& w) {
    return pg::run(db,
                   "INSERT INTO server_runs (started_at, alive_at) VALUES ($1, $2) "
                   "ON CONFLICT (started_at) DO UPDATE SET "
                   "alive_at = GREATEST(server_runs.alive_at, excluded.alive_at)",
                   Params(w.run.started_at, w.run.alive_at), "record_run");
}

core::Status apply(Connection& db, const SaveAnalysis& w) {
    const auto& a = w.analysis;
    auto saved = db.query(
        "INSERT INTO analyses (game_id, status, json, updated_at) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, json = excluded.json, "
        "updated_at = excluded.updated_at",
        Params(a.game_id, a.status, a.json, a.updated_at));
    if (!saved) {
        return failed_with(db, pg::foreign_key_violation)
                   ? core::make_error("save_analysis: no such game " + a.game_id)
                   : core::make_error("save_analysis: " + saved.error());
    }
    return core::ok_status();
}

}  // namespace server::pg_writes
