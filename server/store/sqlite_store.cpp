#include "server/store/sqlite_store.h"

#include <spdlog/spdlog.h>

#include <mutex>

#include "server/store/migrations.h"
#include "server/store/sqlite_db.h"

namespace server {

namespace {

using sqlite::Connection;
using sqlite::Statement;

constexpr int busy_timeout_ms = 5000;

constexpr const char* game_columns =
    "id, variant, rules, start_fen, seed, rounds, private, status, result_json, created_at, "
    "finished_at";

// One connection behind one mutex: every call is a short statement or transaction, and SQLite
// serialises writers anyway.
class SqliteStore final : public Store {
public:
    explicit SqliteStore(std::unique_ptr<Connection> db) : db_(std::move(db)) {}

    // Runs the whole batch in one transaction on the calling thread, then calls `done`.
    void commit(WriteBatch batch, CommitHandler done) override {
        core::Status status = core::ok_status();
        {
            std::lock_guard lock(mutex_);
            status = sqlite::in_transaction(*db_, [&]() -> core::Status {
                for (const auto& op : batch) {
                    if (auto applied = std::visit([&](const auto& w) { return apply(w); }, op);
                        !applied) {
                        return applied;
                    }
                }
                return core::ok_status();
            });
        }
        done(std::move(status));
    }

    std::optional<PlayerRecord> player(std::string_view id) override {
        std::lock_guard lock(mutex_);
        return find_player("SELECT id, name, token_hash, created_at FROM players WHERE id = ?", id);
    }

    std::optional<PlayerRecord> player_by_token_hash(std::string_view token_hash) override {
        std::lock_guard lock(mutex_);
        return find_player(
            "SELECT id, name, token_hash, created_at FROM players WHERE token_hash = ?",
            token_hash);
    }

    std::optional<GameRecord> game(std::string_view id) override {
        std::lock_guard lock(mutex_);
        auto games = query_games(std::string("SELECT ") + game_columns + " FROM games WHERE id = ?",
                                 [&](Statement& s) { s.bind(1, id); });
        if (games.empty()) {
            return std::nullopt;
        }
        return std::move(games.front());
    }

    std::vector<GameRecord> unfinished_games() override {
        std::lock_guard lock(mutex_);
        return query_games(std::string("SELECT ") + game_columns +
                               " FROM games WHERE status = 'active' ORDER BY created_at, rowid",
                           [](Statement&) {});
    }

    std::vector<StoredEvent> events(std::string_view game_id, std::int64_t after_version) override {
        std::lock_guard lock(mutex_);
        std::vector<StoredEvent> out;
        auto stmt = db_->prepare(
            "SELECT version, json FROM events WHERE game_id = ? AND version > ? ORDER BY version");
        if (!stmt) {
            return log_failure(std::move(out), stmt.error());
        }
        (*stmt)->bind(1, game_id).bind(2, after_version);
        while ((*stmt)->step()) {
            out.push_back(StoredEvent{(*stmt)->integer(0), (*stmt)->text(1)});
        }
        if (auto status = (*stmt)->status(); !status) {
            return log_failure(std::vector<StoredEvent>{}, status.error());
        }
        return out;
    }

    std::vector<GameRecord> finished_games_of(std::string_view player_id, int offset,
                                              int limit) override {
        std::lock_guard lock(mutex_);
        return query_games(std::string("SELECT ") + game_columns +
                               " FROM games WHERE status = 'finished' AND id IN "
                               "(SELECT game_id FROM game_seats WHERE player_id = ?) "
                               "ORDER BY finished_at DESC, rowid DESC LIMIT ? OFFSET ?",
                           [&](Statement& s) {
                               s.bind(1, player_id).bind(2, std::int64_t{std::max(limit, 0)});
                               s.bind(3, std::int64_t{std::max(offset, 0)});
                           });
    }

    std::vector<SeekRecord> seeks() override {
        std::lock_guard lock(mutex_);
        std::vector<SeekRecord> out;
        auto stmt = db_->prepare("SELECT id, json FROM seeks ORDER BY rowid");
        if (!stmt) {
            return log_failure(std::move(out), stmt.error());
        }
        while ((*stmt)->step()) {
            out.push_back(SeekRecord{(*stmt)->text(0), (*stmt)->text(1)});
        }
        if (auto status = (*stmt)->status(); !status) {
            return log_failure(std::vector<SeekRecord>{}, status.error());
        }
        return out;
    }

private:
    core::Status apply(const InsertPlayer& w) {
        const auto& p = w.player;
        auto inserted =
            run("INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
                [&](Statement& s) {
                    s.bind(1, p.id).bind(2, p.name).bind(3, p.token_hash).bind(4, p.created_at);
                });
        if (!inserted && (db_->last_error_code() & 0xff) == SQLITE_CONSTRAINT) {
            return core::make_error("insert_player: player " + p.id + " exists already");
        }
        return annotate(std::move(inserted), "insert_player");
    }

    core::Status apply(const RenamePlayer& w) {
        auto updated = run("UPDATE players SET name = ? WHERE id = ?",
                           [&](Statement& s) { s.bind(1, w.name).bind(2, w.id); });
        if (updated && db_->changes() == 0) {
            return core::make_error("rename_player: no such player " + w.id);
        }
        return annotate(std::move(updated), "rename_player");
    }

    core::Status apply(const CreateGame& w) {
        const auto& g = w.game;
        auto inserted =
            run("INSERT INTO games (id, variant, rules, start_fen, seed, rounds, private, status, "
                "result_json, created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [&](Statement& s) {
                    s.bind(1, g.id).bind(2, g.variant).bind(3, g.rules).bind(4, g.start_fen);
                    s.bind(5, static_cast<std::int64_t>(g.seed)).bind(6, std::int64_t{g.rounds});
                    s.bind(7, std::int64_t{g.is_private ? 1 : 0}).bind(8, g.status);
                    s.bind(9, g.result_json).bind(10, g.created_at).bind(11, g.finished_at);
                });
        if (!inserted) {
            return db_->last_error_code() == SQLITE_CONSTRAINT_PRIMARYKEY
                       ? core::make_error("create_game: game " + g.id + " already exists")
                       : annotate(std::move(inserted), "create_game");
        }
        for (std::size_t seat = 0; seat < g.seats.size(); ++seat) {
            auto seated = run("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                              [&](Statement& s) {
                                  s.bind(1, g.id).bind(2, static_cast<std::int64_t>(seat));
                                  s.bind(3, g.seats[seat]);
                              });
            if (!seated) {
                return db_->last_error_code() == SQLITE_CONSTRAINT_FOREIGNKEY
                           ? core::make_error("create_game: seat " + std::to_string(seat) +
                                              " names unknown player " + g.seats[seat])
                           : annotate(std::move(seated), "create_game");
            }
        }
        return core::ok_status();
    }

    core::Status apply(const AppendEvents& w) {
        for (std::size_t i = 0; i < w.events.size(); ++i) {
            const auto version = w.first_version + static_cast<std::int64_t>(i);
            auto appended = run(
                "INSERT INTO events (game_id, version, json) VALUES (?, ?, ?)",
                [&](Statement& s) { s.bind(1, w.game_id).bind(2, version).bind(3, w.events[i]); });
            if (appended) {
                continue;
            }
            if ((db_->last_error_code() & 0xff) != SQLITE_CONSTRAINT) {
                return annotate(std::move(appended), "append_event");
            }
            if (!game_exists(w.game_id)) {
                return core::make_error("append_event: no such game " + w.game_id);
            }
            return core::make_error("append_event: version " + std::to_string(version) +
                                    " of game " + w.game_id + " is not the last stored version (" +
                                    std::to_string(last_version(w.game_id)) + ") + 1");
        }
        return core::ok_status();
    }

    core::Status apply(const FinishGame& w) {
        auto updated = run(
            "UPDATE games SET status = 'finished', result_json = ?, finished_at = ? WHERE id = ?",
            [&](Statement& s) {
                s.bind(1, w.result_json).bind(2, w.finished_at).bind(3, w.game_id);
            });
        if (updated && db_->changes() == 0) {
            return core::make_error("finish_game: no such game " + w.game_id);
        }
        return annotate(std::move(updated), "finish_game");
    }

    core::Status apply(const SaveSeek& w) {
        return annotate(run("INSERT INTO seeks (id, json) VALUES (?, ?) "
                            "ON CONFLICT (id) DO UPDATE SET json = excluded.json",
                            [&](Statement& s) { s.bind(1, w.seek.id).bind(2, w.seek.json); }),
                        "save_seek");
    }

    core::Status apply(const DeleteSeek& w) {
        return annotate(
            run("DELETE FROM seeks WHERE id = ?", [&](Statement& s) { s.bind(1, w.id); }),
            "delete_seek");
    }

    // Prepares `sql`, lets `bind` fill its parameters, and runs it to completion.
    template <class Bind>
    core::Status run(const std::string& sql, Bind&& bind) {
        auto stmt = db_->prepare(sql);
        if (!stmt) {
            return core::make_error(stmt.error());
        }
        bind(**stmt);
        return (*stmt)->run();
    }

    static core::Status annotate(core::Status status, std::string_view what) {
        if (status) {
            return status;
        }
        return core::make_error(std::string(what) + ": " + status.error());
    }

    template <class T>
    static T log_failure(T empty, const std::string& message) {
        spdlog::error("sqlite store: {}", message);
        return empty;
    }

    std::optional<PlayerRecord> find_player(const std::string& sql, std::string_view key) {
        auto stmt = db_->prepare(sql);
        if (!stmt) {
            return log_failure(std::optional<PlayerRecord>{}, stmt.error());
        }
        (*stmt)->bind(1, key);
        if (!(*stmt)->step()) {
            if (auto status = (*stmt)->status(); !status) {
                return log_failure(std::optional<PlayerRecord>{}, status.error());
            }
            return std::nullopt;
        }
        const Statement& s = **stmt;
        return PlayerRecord{s.text(0), s.text(1), s.text(2), s.integer(3)};
    }

    // Reads the games a SELECT of game_columns returns, each with its seats.
    template <class Bind>
    std::vector<GameRecord> query_games(const std::string& sql, Bind&& bind) {
        std::vector<GameRecord> games;
        {
            auto stmt = db_->prepare(sql);
            if (!stmt) {
                return log_failure(std::move(games), stmt.error());
            }
            bind(**stmt);
            while ((*stmt)->step()) {
                const Statement& s = **stmt;
                GameRecord g;
                g.id = s.text(0);
                g.variant = s.text(1);
                g.rules = s.text(2);
                g.start_fen = s.text(3);
                g.seed = static_cast<std::uint64_t>(s.integer(4));
                g.rounds = static_cast<int>(s.integer(5));
                g.is_private = s.integer(6) != 0;
                g.status = s.text(7);
                g.result_json = s.text(8);
                g.created_at = s.integer(9);
                g.finished_at = s.integer(10);
                games.push_back(std::move(g));
            }
            if (auto status = (*stmt)->status(); !status) {
                return log_failure(std::vector<GameRecord>{}, status.error());
            }
        }
        for (auto& g : games) {
            auto seats =
                db_->prepare("SELECT player_id FROM game_seats WHERE game_id = ? ORDER BY seat");
            if (!seats) {
                return log_failure(std::vector<GameRecord>{}, seats.error());
            }
            (*seats)->bind(1, g.id);
            while ((*seats)->step()) {
                g.seats.push_back((*seats)->text(0));
            }
        }
        return games;
    }

    bool game_exists(std::string_view game_id) {
        auto stmt = db_->prepare("SELECT 1 FROM games WHERE id = ?");
        if (!stmt) {
            return false;
        }
        (*stmt)->bind(1, game_id);
        return (*stmt)->step();
    }

    std::int64_t last_version(std::string_view game_id) {
        auto stmt = db_->prepare("SELECT COALESCE(MAX(version), 0) FROM events WHERE game_id = ?");
        if (!stmt) {
            return -1;
        }
        (*stmt)->bind(1, game_id);
        return (*stmt)->step() ? (*stmt)->integer(0) : -1;
    }

    std::mutex mutex_;
    std::unique_ptr<Connection> db_;
};

// Sets the connection up for durability and checks that the file is a sound database.
core::Status configure(Connection& db, const std::string& path) {
    const auto where = "database '" + path + "': ";
    sqlite3_busy_timeout(db.handle(), busy_timeout_ms);
    // Reading the schema is the first access to the file: a file that is not a database fails here.
    if (auto schema = db.query_text("SELECT count(*) FROM sqlite_schema"); !schema) {
        const int code = sqlite3_errcode(db.handle());
        const char* problem = code == SQLITE_NOTADB    ? "not a SQLite database"
                              : code == SQLITE_CORRUPT ? "corrupt"
                                                       : "unreadable";
        return core::make_error(where + problem + ": " + schema.error());
    }
    auto mode = db.query_text("PRAGMA journal_mode = WAL");
    if (!mode) {
        return core::make_error(where + "cannot switch to WAL mode: " + mode.error());
    }
    if (*mode != "wal" && !(path == ":memory:" && *mode == "memory")) {
        return core::make_error(where + "cannot switch to WAL mode (journal mode is " + *mode +
                                ")");
    }
    if (auto pragmas = db.exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON"); !pragmas) {
        return core::make_error(where + pragmas.error());
    }
    auto check = db.query_text("PRAGMA quick_check");
    if (!check) {
        return core::make_error(where + "corrupt: " + check.error());
    }
    if (*check != "ok") {
        return core::make_error(where + "corrupt: " + *check);
    }
    return core::ok_status();
}

}  // namespace

core::Expected<std::unique_ptr<Store>> open_sqlite_store(const std::string& path) {
    auto db = Connection::open(path);
    if (!db) {
        return core::make_error(db.error());
    }
    if (auto configured = configure(**db, path); !configured) {
        return core::make_error(configured.error());
    }
    if (auto migrated = migrate(**db, path); !migrated) {
        return core::make_error(migrated.error());
    }
    return std::unique_ptr<Store>(std::make_unique<SqliteStore>(std::move(*db)));
}

}  // namespace server
