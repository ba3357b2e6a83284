#include "server/store/postgres_schema.h"

#include <array>
#include <string_view>

namespace server {

namespace {

// Step N brings the schema from version N-1 to N. Append new steps; never edit a released one.
// Integers are BIGINT (SQLite's INTEGER), flags SMALLINT 0/1 as in SQLite, doubles DOUBLE
// PRECISION; `seq` columns stand for SQLite's rowid where the order of insertion is read.
constexpr std::array<std::string_view, 4> postgres_steps = {
    // 1: everything SQLite's nine steps built (migrations.cpp), in one.
    R"sql(
CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL,
    muted       SMALLINT NOT NULL DEFAULT 0 CHECK (muted IN (0, 1)),
    closed      SMALLINT NOT NULL DEFAULT 0 CHECK (closed IN (0, 1))
);
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    seq           BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    variant       TEXT NOT NULL CHECK (variant IN ('chessence', 'chesica', 'sniderman')),
    rules         TEXT NOT NULL CHECK (rules IN ('house', 'strict')),
    start_fen     TEXT NOT NULL,
    seed          BIGINT NOT NULL,  -- the uint64 Sniderman seed, bit for bit as int64
    rounds        BIGINT NOT NULL,
    private       SMALLINT NOT NULL CHECK (private IN (0, 1)),
    status        TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    result_json   TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    finished_at   BIGINT NOT NULL,
    time_control  TEXT NOT NULL DEFAULT '-',
    rated         SMALLINT NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    access_key    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_by_status ON games (status, finished_at);
CREATE TABLE game_seats (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       BIGINT NOT NULL CHECK (seat >= 0),
    player_id  TEXT NOT NULL REFERENCES players (id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id);
CREATE TABLE events (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version  BIGINT NOT NULL CHECK (version >= 1),
    json     TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
-- The primary key forbids duplicates; this forbids gaps, whoever writes to the database.
CREATE FUNCTION events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.version <> 1 + (SELECT COALESCE(MAX(version), 0) FROM events
                           WHERE game_id = NEW.game_id) THEN
        RAISE EXCEPTION 'event version is not the last one + 1';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER events_gapless BEFORE INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION events_gapless();
-- A field of a JSON text, or NULL when the text is not JSON (SQLite's json_valid + json_extract).
CREATE FUNCTION json_field(doc TEXT, field TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN doc::jsonb ->> field;
EXCEPTION WHEN others THEN
    RETURN NULL;
END $$;
CREATE TABLE seeks (
    id    TEXT PRIMARY KEY,
    seq   BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    json  TEXT NOT NULL
);
CREATE TABLE sessions (
    token_hash  TEXT PRIMARY KEY,
    player_id   TEXT NOT NULL REFERENCES players (id),
    created_at  BIGINT NOT NULL
);
CREATE INDEX sessions_by_player ON sessions (player_id);
CREATE TABLE accounts (
    player_id      TEXT PRIMARY KEY REFERENCES players (id),
    username       TEXT NOT NULL,
    username_key   TEXT NOT NULL UNIQUE,  -- the username in lower case
    password_hash  TEXT NOT NULL,         -- crypto_pwhash_str (Argon2id)
    admin          SMALLINT NOT NULL CHECK (admin IN (0, 1)),
    created_at     BIGINT NOT NULL
);
CREATE TABLE ratings (
    player_id    TEXT NOT NULL REFERENCES players (id),
    variant      TEXT NOT NULL CHECK (variant IN ('chessence', 'chesica', 'sniderman')),
    rating       DOUBLE PRECISION NOT NULL,
    rd           DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        BIGINT NOT NULL,
    last_played  BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating);
-- seq order is rating order: the single writer rates games one after the other.
CREATE TABLE game_ratings (
    game_id            TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq                BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    seat               BIGINT NOT NULL CHECK (seat >= 0),
    player_id          TEXT NOT NULL REFERENCES players (id),
    variant            TEXT NOT NULL,
    rating_before      DOUBLE PRECISION NOT NULL,
    rd_before          DOUBLE PRECISION NOT NULL,
    volatility_before  DOUBLE PRECISION NOT NULL,
    rating_after       DOUBLE PRECISION NOT NULL,
    rd_after           DOUBLE PRECISION NOT NULL,
    volatility_after   DOUBLE PRECISION NOT NULL,
    at                 BIGINT NOT NULL,
    UNIQUE (game_id, seat)
);
CREATE INDEX game_ratings_by_player ON game_ratings (player_id, at);
CREATE TABLE server_runs (
    started_at  BIGINT PRIMARY KEY,
    alive_at    BIGINT NOT NULL
);
CREATE TABLE chat_lines (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n          BIGINT NOT NULL CHECK (n >= 1),  -- 1, 2, 3, … per game, in the order said
    channel    TEXT NOT NULL CHECK (channel IN ('players', 'spectators')),
    player_id  TEXT NOT NULL,
    name       TEXT NOT NULL,
    seat       TEXT NOT NULL,  -- '' for a spectator
    text       TEXT NOT NULL,
    at         TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE INDEX chat_lines_by_channel ON chat_lines (game_id, channel, n);
CREATE TABLE analyses (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    status      TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
    json        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX analyses_by_status ON analyses (status, updated_at);
)sql",
    // 2 (issue 27), SQLite's step 10: the newest fencing number that claimed each game (fences.h);
    // the games stored before were never claimed.
    R"sql(
ALTER TABLE games ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;
)sql",
    // 3 (issue 42), SQLite's step 11: a queued analysis is claimed by one node's run and carries
    // its progress; a seek names the node and run that hold it.
    R"sql(
ALTER TABLE analyses ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE analyses ADD COLUMN run BIGINT NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN positions_done BIGINT NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN positions_total BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE seeks ADD COLUMN run BIGINT NOT NULL DEFAULT 0;
)sql",
    // 4 (issue 43), SQLite's step 12: tournaments, a record and its gapless events each; a game
    // names the tournament that paired it ('' for every other) and whether it is berserkable.
    R"sql(
CREATE TABLE tournaments (
    id             TEXT PRIMARY KEY,
    seq            BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    kind           TEXT NOT NULL CHECK (kind IN ('arena', 'swiss', 'roundrobin')),
    name           TEXT NOT NULL,
    variant        TEXT NOT NULL CHECK (variant IN ('chessence', 'chesica', 'sniderman')),
    created_by     TEXT NOT NULL,  -- a player id; '' for the server's own
    config_json    TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('created', 'started', 'finished')),
    starts_at      BIGINT NOT NULL,  -- unix milliseconds, as ends_at and created_at
    ends_at        BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    password_hash  TEXT NOT NULL,
    players        BIGINT NOT NULL,
    winner_json    TEXT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (created_by, created_at);
CREATE TABLE tournament_events (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    version        BIGINT NOT NULL CHECK (version >= 1),
    json           TEXT NOT NULL,
    PRIMARY KEY (tournament_id, version)
);
CREATE FUNCTION tournament_events_gapless() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.version <> 1 + (SELECT COALESCE(MAX(version), 0) FROM tournament_events
                           WHERE tournament_id = NEW.tournament_id) THEN
        RAISE EXCEPTION 'tournament event version is not the last one + 1';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER tournament_events_gapless BEFORE INSERT ON tournament_events
    FOR EACH ROW EXECUTE FUNCTION tournament_events_gapless();
ALTER TABLE games ADD COLUMN tournament_id TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN berserkable SMALLINT NOT NULL DEFAULT 0 CHECK (berserkable IN (0, 1));
CREATE INDEX games_by_tournament ON games (tournament_id, created_at) WHERE tournament_id <> '';
)sql",
};

// Any number, the same on every node: the advisory lock migrations take.
constexpr std::string_view migration_lock = "7468746865737365";

}  // namespace

int current_postgres_schema_version() {
    return static_cast<int>(postgres_steps.size());
}

core::Status migrate_postgres(pg::Connection& db, const std::string& where) {
    const auto fail = [&](const std::string& what, const std::string& why) {
        (void)db.exec("ROLLBACK");
        return core::make_error(where + ": " + what + ": " + why);
    };
    for (;;) {
        if (auto begun = db.exec("BEGIN"); !begun) {
            return core::make_error(where + ": cannot start a migration: " + begun.error());
        }
        // The session's timeouts are for the store's statements, not a migration's.
        if (auto patient = db.exec("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0; "
                                   "SET LOCAL idle_in_transaction_session_timeout = 0");
            !patient) {
            return fail("cannot start a migration", patient.error());
        }
        // Another node may be migrating: wait for it, then read the version it left.
        if (auto locked =
                db.exec("SELECT pg_advisory_xact_lock(" + std::string(migration_lock) + ")",
                        postgres_migration_timeout);
            !locked) {
            return fail("cannot take the migration lock", locked.error());
        }
        // Under the lock: two nodes creating it at once would collide even with IF NOT EXISTS.
        if (auto made =
                db.exec("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)",
                        postgres_migration_timeout);
            !made) {
            return fail("cannot create the schema version table", made.error());
        }
        auto text = db.query_text("SELECT COALESCE(MAX(version), 0) FROM schema_version");
        if (!text) {
            return fail("cannot read the schema version", text.error());
        }
        const int version = std::stoi(text->value_or("0"));
        if (version > current_postgres_schema_version()) {
            (void)db.exec("ROLLBACK");
            return core::make_error(where + ": schema version " + std::to_string(version) +
                                    " is newer than this program's " +
                                    std::to_string(current_postgres_schema_version()) +
                                    "; refusing to use it (use a newer chessence-server)");
        }
        if (version == current_postgres_schema_version()) {
            return db.exec("COMMIT");
        }
        const auto next = version + 1;
        const auto step = "migration to schema version " + std::to_string(next);
        if (auto applied = db.exec(std::string(postgres_steps[static_cast<std::size_t>(version)]),
                                   postgres_migration_timeout);
            !applied) {
            return fail(step + " failed", applied.error());
        }
        if (auto bumped =
                db.exec("DELETE FROM schema_version; INSERT INTO schema_version VALUES (" +
                        std::to_string(next) + ")");
            !bumped) {
            return fail(step + " failed", bumped.error());
        }
        if (auto committed = db.exec("COMMIT", postgres_migration_timeout); !committed) {
            return fail(step + " failed", committed.error());
        }
    }
}

}  // namespace server
