#include "server/store/sqlite_writer.h"

#include <cassert>
#include <exception>
#include <string>
#include <type_traits>

#include "server/log.h"
#include "server/metrics/metrics.h"
#include "server/store/sql_writes.h"
#include "server/store/sqlite_account_writes.h"
#include "server/store/sqlite_analyses.h"
#include "server/store/sqlite_fences.h"
#include "server/store/sqlite_runs.h"
#include "server/store/sqlite_store.h"
#include "server/store/sqlite_tournaments.h"

namespace server {

namespace {

using sqlite::annotate;
using sqlite::Connection;
using sqlite::run;
using sqlite::Statement;
using sqlite_account_writes::apply;
namespace writes = sql::writes;

constexpr auto sqlite_dialect = sql::Dialect::sqlite;

// --- The SQL of each write a batch may hold (store.h), run inside the batch's savepoint. On
// failure each says why in the words of store.h ("append_event: version 4 of game g_1 is not the
// last stored version (2) + 1"); the caller rolls back what the batch did so far. The accounts'
// writes are in sqlite_account_writes.cpp, the heartbeat's in sqlite_runs.cpp, the analyses' in
// sqlite_analyses.cpp, the fences' in sqlite_fences.cpp, the tournaments' in
// sqlite_tournaments.cpp.

bool game_exists(Connection& db, std::string_view game_id) {
    auto stmt = db.prepare(writes::game_exists(sqlite_dialect));
    if (!stmt) {
        return false;
    }
    (*stmt)->bind(1, game_id);
    return (*stmt)->step();
}

// Why appending `version` to game `game_id`'s events broke a constraint: no such game, or not the
// next version.
core::Status append_refused(Connection& db, const std::string& game_id, std::int64_t version) {
    auto stmt = db.prepare(writes::event_log_state(sqlite_dialect));
    if (!stmt) {
        return annotate(core::make_error(stmt.error()), "append_event");
    }
    (*stmt)->bind(1, game_id);
    const bool read = (*stmt)->step();
    if (read && (*stmt)->integer(0) != 1) {
        return core::make_error("append_event: no such game " + game_id);
    }
    return core::make_error("append_event: version " + std::to_string(version) + " of game " +
                            game_id + " is not the last stored version (" +
                            std::to_string(read ? (*stmt)->integer(1) : -1) + ") + 1");
}

core::Status apply(Connection& db, const InsertPlayer& w) {
    const auto& p = w.player;
    auto inserted = run(db, writes::insert_player(sqlite_dialect), [&](Statement& s) {
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
    auto updated = run(db, writes::rename_player(sqlite_dialect),
                       [&](Statement& s) { s.bind(1, w.name).bind(2, w.id); });
    if (updated && db.changes() == 0) {
        return core::make_error("rename_player: no such player " + w.id);
    }
    return annotate(std::move(updated), "rename_player");
}

core::Status apply(Connection& db, const CreateGame& w) {
    const auto& g = w.game;
    auto inserted = run(db, writes::create_game(sqlite_dialect), [&](Statement& s) {
        s.bind(1, g.id).bind(2, g.variant).bind(3, g.rules).bind(4, g.start_fen);
        s.bind(5, static_cast<std::int64_t>(g.seed)).bind(6, std::int64_t{g.rounds});
        s.bind(7, std::int64_t{g.is_private ? 1 : 0}).bind(8, g.status);
        s.bind(9, g.result_json).bind(10, g.created_at).bind(11, g.finished_at);
        s.bind(12, g.time_control).bind(13, std::int64_t{g.rated ? 1 : 0});
        s.bind(14, g.access_key).bind(15, g.fence).bind(16, g.tournament_id);
        s.bind(17, std::int64_t{g.berserkable ? 1 : 0});
    });
    if (!inserted) {
        return db.last_error_code() == SQLITE_CONSTRAINT_PRIMARYKEY
                   ? core::make_error("create_game: game " + g.id + " already exists")
                   : annotate(std::move(inserted), "create_game");
    }
    for (std::size_t seat = 0; seat < g.seats.size(); ++seat) {
        auto seated = run(db, writes::seat_player(sqlite_dialect), [&](Statement& s) {
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
        auto appended = run(db, writes::append_event(sqlite_dialect), [&](Statement& s) {
            s.bind(1, w.game_id).bind(2, version).bind(3, w.events[i]);
        });
        if (appended) {
            continue;
        }
        if ((db.last_error_code() & 0xff) != SQLITE_CONSTRAINT) {
            return annotate(std::move(appended), "append_event");
        }
        return append_refused(db, w.game_id, version);
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const FinishGame& w) {
    auto updated = run(db, writes::finish_game(sqlite_dialect), [&](Statement& s) {
        s.bind(1, w.result_json).bind(2, w.finished_at).bind(3, w.game_id);
    });
    if (updated && db.changes() == 0) {
        return core::make_error("finish_game: no such game " + w.game_id);
    }
    return annotate(std::move(updated), "finish_game");
}

core::Status apply(Connection& db, const SaveSeek& w) {
    return annotate(run(db, writes::save_seek(sqlite_dialect),
                        [&](Statement& s) {
                            s.bind(1, w.seek.id).bind(2, w.seek.json);
                            s.bind(3, w.seek.node).bind(4, w.seek.run);
                        }),
                    "save_seek");
}

core::Status apply(Connection& db, const DeleteSeek& w) {
    if (w.id.empty()) {
        return annotate(run(db, writes::delete_node_seeks(sqlite_dialect),
                            [&](Statement& s) { s.bind(1, w.node); }),
                        "delete_seek");
    }
    return annotate(
        run(db, writes::delete_seek(sqlite_dialect), [&](Statement& s) { s.bind(1, w.id); }),
        "delete_seek");
}

core::Status apply(Connection& db, const AddChatLine& w) {
    const auto& l = w.line;
    if (!game_exists(db, l.game_id)) {
        return core::make_error("add_chat_line: no such game " + l.game_id);
    }
    auto added = run(db, writes::add_chat_line(sqlite_dialect), [&](Statement& s) {
        s.bind(1, l.game_id).bind(2, l.channel).bind(3, l.player_id);
        s.bind(4, l.from).bind(5, l.seat).bind(6, l.text).bind(7, l.at);
    });
    if (!added) {
        return annotate(std::move(added), "add_chat_line");
    }
    // The channel keeps its newest lines only.
    return annotate(run(db, writes::trim_chat_lines(sqlite_dialect),
                        [&](Statement& s) {
                            s.bind(1, l.game_id).bind(2, l.channel);
                            s.bind(3, static_cast<std::int64_t>(chat_lines_kept));
                        }),
                    "add_chat_line");
}

core::Status apply(Connection& db, const RecordRun& w) {
    return sqlite_runs::record_run(db, w.run);
}

core::Status apply(Connection& db, const SaveAnalysis& w) {
    return sqlite_analyses::save_analysis(db, w);
}

core::Status apply(Connection& db, const ClaimGame& w) {
    return sqlite_fences::claim_game(db, w);
}

core::Status apply(Connection& db, const CheckFence& w) {
    return sqlite_fences::check_fence(db, w);
}

core::Status apply(Connection& db, const CreateTournament& w) {
    return sqlite_tournaments::create_tournament(db, w);
}

core::Status apply(Connection& db, const AppendTournamentEvents& w) {
    return sqlite_tournaments::append_tournament_events(db, w);
}

core::Status apply(Connection& db, const SetTournamentStatus& w) {
    return sqlite_tournaments::set_tournament_status(db, w);
}

// Runs one write of a batch.
core::Status apply_write(Connection& db, const WriteOp& op) {
    return std::visit([&](const auto& w) { return apply(db, w); }, op);
}

// --- The group commit (group_writer.h takes the groups).

// Rolls the whole transaction back, if SQLite has not already done so.
void abandon(Connection& db) {
    if (db.in_transaction()) {
        (void)db.run("ROLLBACK");
    }
}

// Runs one batch inside its own savepoint: either all of it stays in the transaction or none of
// it. If the savepoint itself cannot be opened, released or rolled back, the whole transaction is
// rolled back, so that nothing half-written is ever committed.
core::Status write_batch(Connection& db, const WriteBatch& batch) {
    if (auto opened = db.run("SAVEPOINT batch"); !opened) {
        abandon(db);
        return core::make_error("cannot open a savepoint: " + opened.error());
    }
    core::Status status = core::ok_status();
    for (const auto& op : batch) {
        status = apply_write(db, op);
        if (!status) {
            break;
        }
    }
    if (status) {
        if (auto released = db.run("RELEASE batch"); !released) {
            abandon(db);
            return core::make_error("cannot release a savepoint: " + released.error());
        }
        return status;
    }
    if (db.in_transaction() && (!db.run("ROLLBACK TO batch") || !db.run("RELEASE batch"))) {
        abandon(db);
    }
    return status;
}

}  // namespace

// Where the road of a move reaches the disk: the room's batch joins the writer's queue.
void SqliteStore::commit_batch(WriteBatch batch, CommitHandler done) {
    writer_.submit(std::move(batch), std::move(done));
}

SqliteWriter::SqliteWriter(std::unique_ptr<Connection> db)
    : db_(std::move(db)), group_([this](const auto& group) { return write_group(group); }) {}

SqliteWriter::~SqliteWriter() {
    stop();
}

std::vector<core::Status> SqliteWriter::write_group(const std::vector<Pending>& group) {
    std::vector<core::Status> outcomes(group.size(), core::ok_status());
    std::lock_guard lock(db_mutex_);
    for (std::size_t next = 0; next < group.size();) {
        next = write_transaction(group, next, outcomes);
    }
    return outcomes;
}

// Batches group[first…] share one BEGIN IMMEDIATE … COMMIT. A batch that fails is rolled back to
// its savepoint and the rest go on. Should SQLite roll the whole transaction back by itself (disk
// full, I/O error), the batches before it lose their writes too and are told so; the next
// transaction starts after the failed batch.
std::size_t SqliteWriter::write_transaction(const std::vector<Pending>& group, std::size_t first,
                                            std::vector<core::Status>& outcomes) {
    Connection& db = *db_;
    const auto fail = [&](std::size_t from, std::size_t to, const std::string& why) {
        for (std::size_t i = from; i < to; ++i) {
            if (outcomes[i]) {
                outcomes[i] = core::make_error(why);
            }
        }
    };
    if (auto begun = db.run("BEGIN IMMEDIATE"); !begun) {
        fail(first, group.size(), "cannot start a transaction: " + begun.error());
        return group.size();
    }
    for (std::size_t i = first; i < group.size(); ++i) {
        outcomes[i] = write_batch(db, group[i].batch);
        if (!outcomes[i] && !db.in_transaction()) {
            fail(first, i,
                 "rolled back with the transaction, which failed: " + outcomes[i].error());
            return i + 1;
        }
    }
    if (auto committed = db.run("COMMIT"); !committed) {
        abandon(db);
        fail(first, group.size(), "commit failed: " + committed.error());
    }
    return group.size();
}

}  // namespace server
