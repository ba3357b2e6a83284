#include "server/store/postgres_writes.h"

#include <string>

#include "server/store/sql_writes.h"

namespace server::pg_writes {

namespace {

using pg::Connection;
using pg::Params;
namespace writes = sql::writes;

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
        db.query(writes::insert_player(dialect), Params(p.id, p.name, p.token_hash, p.created_at));
    if (!inserted) {
        return failed_with(db, pg::unique_violation)
                   ? core::make_error("insert_player: player " + p.id + " exists already")
                   : core::make_error("insert_player: " + inserted.error());
    }
    // The player's token is its first session.
    return apply(db, AddSession{p.token_hash, p.id, p.created_at});
}

core::Status apply(Connection& db, const RenamePlayer& w) {
    return change_one(db, "rename_player", writes::rename_player(dialect), Params(w.name, w.id),
                      "no such player " + w.id);
}

core::Status apply(Connection& db, const CreateGame& w) {
    const auto& g = w.game;
    auto inserted = db.query(
        writes::create_game(dialect),
        Params(g.id, g.variant, g.rules, g.start_fen, static_cast<std::int64_t>(g.seed), g.rounds,
               g.is_private, g.status, g.result_json, g.created_at, g.finished_at, g.time_control,
               g.rated, g.access_key, g.fence, g.tournament_id, g.berserkable));
    if (!inserted) {
        return failed_with(db, pg::unique_violation)
                   ? core::make_error("create_game: game " + g.id + " already exists")
                   : core::make_error("create_game: " + inserted.error());
    }
    for (std::size_t seat = 0; seat < g.seats.size(); ++seat) {
        auto seated = db.query(writes::seat_player(dialect), Params(g.id, seat, g.seats[seat]));
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
    auto last = db.query(writes::event_log_state(dialect), Params(w.game_id));
    if (!last) {
        return core::make_error("append_event: " + last.error());
    }
    if (last->integer(0, 0) != 1) {
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
        if (auto appended = pg::run(db, writes::append_event(dialect),
                                    Params(w.game_id, version, w.events[i]), "append_event");
            !appended) {
            return appended;
        }
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const FinishGame& w) {
    return change_one(db, "finish_game", writes::finish_game(dialect),
                      Params(w.result_json, w.finished_at, w.game_id), "no such game " + w.game_id);
}

core::Status apply(Connection& db, const SaveSeek& w) {
    return pg::run(db, writes::save_seek(dialect),
                   Params(w.seek.id, w.seek.json, w.seek.node, w.seek.run), "save_seek");
}

core::Status apply(Connection& db, const DeleteSeek& w) {
    if (w.id.empty()) {
        return pg::run(db, writes::delete_node_seeks(dialect), Params(w.node), "delete_seek");
    }
    return pg::run(db, writes::delete_seek(dialect), Params(w.id), "delete_seek");
}

core::Status apply(Connection& db, const AddChatLine& w) {
    const auto& l = w.line;
    auto exists = db.query_text(writes::game_exists(dialect), Params(l.game_id));
    if (!exists) {
        return core::make_error("add_chat_line: " + exists.error());
    }
    if (!*exists) {
        return core::make_error("add_chat_line: no such game " + l.game_id);
    }
    if (auto added =
            pg::run(db, writes::add_chat_line(dialect),
                    Params(l.game_id, l.channel, l.player_id, l.from, l.seat, l.text, l.at),
                    "add_chat_line");
        !added) {
        return added;
    }
    // The channel keeps its newest lines only.
    return pg::run(db, writes::trim_chat_lines(dialect),
                   Params(l.game_id, l.channel, chat_lines_kept), "add_chat_line");
}

core::Status apply(Connection& db, const RecordRun& w) {
    return pg::run(db, writes::record_run(dialect), Params(w.run.started_at, w.run.alive_at),
                   "record_run");
}

core::Status apply(Connection& db, const SaveAnalysis& w) {
    const auto& a = w.analysis;
    const auto saved =
        a.status == "queued"
            ? db.query(writes::claim_analysis(dialect),
                       Params(a.game_id, a.status, a.json, a.updated_at, a.node, a.run,
                              a.positions_done, a.positions_total, w.taken_from))
            : db.query(writes::save_analysis(dialect),
                       Params(a.game_id, a.status, a.json, a.updated_at, a.node, a.run,
                              a.positions_done, a.positions_total));
    if (!saved) {
        return failed_with(db, pg::foreign_key_violation)
                   ? core::make_error("save_analysis: no such game " + a.game_id)
                   : core::make_error("save_analysis: " + saved.error());
    }
    return core::ok_status();
}

}  // namespace server::pg_writes
