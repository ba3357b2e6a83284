#include "server/store/sqlite_writes.h"

#include <string>
#include <string_view>

#include "server/store/sqlite_account_writes.h"
#include "server/store/sqlite_runs.h"

namespace server {

namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite_account_writes::apply;

// Prepares `sql` (cached), lets `bind` fill its parameters, and runs it to completion.
template <class Bind>
core::Status run(Connection& db, const std::string& sql, Bind&& bind) {
    auto stmt = db.prepare(sql);
    if (!stmt) {
        return core::make_error(stmt.error());
    }
    bind(**stmt);
    return (*stmt)->run();
}

core::Status annotate(core::Status status, std::string_view what) {
    if (status) {
        return status;
    }
    return core::make_error(std::string(what) + ": " + status.error());
}

bool game_exists(Connection& db, std::string_view game_id) {
    auto stmt = db.prepare("SELECT 1 FROM games WHERE id = ?");
    if (!stmt) {
        return false;
    }
    (*stmt)->bind(1, game_id);
    return (*stmt)->step();
}

std::int64_t last_version(Connection& db, std::string_view game_id) {
    auto stmt = db.prepare("SELECT COALESCE(MAX(version), 0) FROM events WHERE game_id = ?");
    if (!stmt) {
        return -1;
    }
    (*stmt)->bind(1, game_id);
    return (*stmt)->step() ? (*stmt)->integer(0) : -1;
}

core::Status apply(Connection& db, const InsertPlayer& w) {
    const auto& p = w.player;
    auto inserted =
        run(db, "INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
            [&](Statement& s) {
                s.bind(1, p.id).bind(2, p.name).bind(3, p.token_hash).bind(4, p.created_at);
            });
    if (!inserted && (db.last_error_code() & 0xff) == SQLITE_CONSTRAINT) {
        return core::make_error("insert_player: player " + p.id + " exists already");
    }
    if (!inserted) {
        return annotate(std::move(inserted), "insert_player");
    }
    // The player's token is its first session.
    return apply(db, AddSession{p.token_hash, p.id, p.created_at});
}

core::Status apply(Connection& db, const RenamePlayer& w) {
    auto updated = run(db, "UPDATE players SET name = ? WHERE id = ?",
                       [&](Statement& s) { s.bind(1, w.name).bind(2, w.id); });
    if (updated && db.changes() == 0) {
        return core::make_error("rename_player: no such player " + w.id);
    }
    return annotate(std::move(updated), "rename_player");
}

core::Status apply(Connection& db, const CreateGame& w) {
    const auto& g = w.game;
    auto inserted =
        run(db,
            "INSERT INTO games (id, variant, rules, start_fen, seed, rounds, private, status, "
            "result_json, created_at, finished_at, time_control, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [&](Statement& s) {
                s.bind(1, g.id).bind(2, g.variant).bind(3, g.rules).bind(4, g.start_fen);
                s.bind(5, static_cast<std::int64_t>(g.seed)).bind(6, std::int64_t{g.rounds});
                s.bind(7, std::int64_t{g.is_private ? 1 : 0}).bind(8, g.status);
                s.bind(9, g.result_json).bind(10, g.created_at).bind(11, g.finished_at);
                s.bind(12, g.time_control).bind(13, std::int64_t{g.rated ? 1 : 0});
            });
    if (!inserted) {
        return db.last_error_code() == SQLITE_CONSTRAINT_PRIMARYKEY
                   ? core::make_error("create_game: game " + g.id + " already exists")
                   : annotate(std::move(inserted), "create_game");
    }
    for (std::size_t seat = 0; seat < g.seats.size(); ++seat) {
        auto seated = run(db, "INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                          [&](Statement& s) {
                              s.bind(1, g.id).bind(2, static_cast<std::int64_t>(seat));
                              s.bind(3, g.seats[seat]);
                          });
        if (!seated) {
            return db.last_error_code() == SQLITE_CONSTRAINT_FOREIGNKEY
                       ? core::make_error("create_game: seat " + std::to_string(seat) +
                                          " names unknown player " + g.seats[seat])
                       : annotate(std::move(seated), "create_game");
        }
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const AppendEvents& w) {
    for (std::size_t i = 0; i < w.events.size(); ++i) {
        const auto version = w.first_version + static_cast<std::int64_t>(i);
        auto appended =
            run(db, "INSERT INTO events (game_id, version, json) VALUES (?, ?, ?)",
                [&](Statement& s) { s.bind(1, w.game_id).bind(2, version).bind(3, w.events[i]); });
        if (appended) {
            continue;
        }
        if ((db.last_error_code() & 0xff) != SQLITE_CONSTRAINT) {
            return annotate(std::move(appended), "append_event");
        }
        if (!game_exists(db, w.game_id)) {
            return core::make_error("append_event: no such game " + w.game_id);
        }
        return core::make_error("append_event: version " + std::to_string(version) + " of game " +
                                w.game_id + " is not the last stored version (" +
                                std::to_string(last_version(db, w.game_id)) + ") + 1");
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const FinishGame& w) {
    auto updated = run(
        db, "UPDATE games SET status = 'finished', result_json = ?, finished_at = ? WHERE id = ?",
        [&](Statement& s) { s.bind(1, w.result_json).bind(2, w.finished_at).bind(3, w.game_id); });
    if (updated && db.changes() == 0) {
        return core::make_error("finish_game: no such game " + w.game_id);
    }
    return annotate(std::move(updated), "finish_game");
}

core::Status apply(Connection& db, const SaveSeek& w) {
    return annotate(run(db,
                        "INSERT INTO seeks (id, json) VALUES (?, ?) "
                        "ON CONFLICT (id) DO UPDATE SET json = excluded.json",
                        [&](Statement& s) { s.bind(1, w.seek.id).bind(2, w.seek.json); }),
                    "save_seek");
}

core::Status apply(Connection& db, const DeleteSeek& w) {
    return annotate(
        run(db, "DELETE FROM seeks WHERE id = ?", [&](Statement& s) { s.bind(1, w.id); }),
        "delete_seek");
}

core::Status apply(Connection& db, const RecordRun& w) {
    return sqlite_runs::record_run(db, w.run);
}

}  // namespace

core::Status apply_write(Connection& db, const WriteOp& op) {
    return std::visit([&](const auto& w) { return apply(db, w); }, op);
}

}  // namespace server
