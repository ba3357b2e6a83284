#include "server/store/migrations.h"

#include <array>
#include <string_view>

namespace server {

namespace {

// Step N brings the schema from version N-1 to N. Append new steps; never edit a released one.
constexpr std::array<std::string_view, 12> steps = {
    // 1: identities, games with their seats, and the gapless event log of every room.
    R"sql(
CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);
CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    variant      TEXT NOT NULL CHECK (variant IN ('chessence', 'chesica', 'sniderman')),
    rules        TEXT NOT NULL CHECK (rules IN ('house', 'strict')),
    start_fen    TEXT NOT NULL,
    seed         INTEGER NOT NULL,  -- the uint64 Sniderman seed, bit for bit as int64
    rounds       INTEGER NOT NULL,
    private      INTEGER NOT NULL CHECK (private IN (0, 1)),
    status       TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    result_json  TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    finished_at  INTEGER NOT NULL
);
CREATE TABLE game_seats (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    player_id  TEXT NOT NULL REFERENCES players (id),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE events (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL CHECK (version >= 1),
    json     TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;
-- The primary key forbids duplicates; this forbids gaps, whoever writes to the file.
CREATE TRIGGER events_gapless BEFORE INSERT ON events
WHEN NEW.version <> 1 + (SELECT COALESCE(MAX(version), 0) FROM events WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'event version is not the last one + 1');
END;
)sql",
    // 2: open seeks survive a restart; indexes for the lobby and for a player's finished games.
    R"sql(
CREATE TABLE seeks (
    id    TEXT PRIMARY KEY,
    json  TEXT NOT NULL
);
CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id);
CREATE INDEX games_by_status ON games (status, finished_at);
)sql",
    // 3: events keep only what happened (protocol/events.h): the positions, legal moves and texts
    // derived from them are dropped. Text that is not JSON is left for the room's restore to
    // report. A game whose game_over event was stored without its "finished" mark (the ending used
    // to be two writes) is finished with that event's result; when it ended is unknown, so its
    // creation time stands in.
    R"sql(
UPDATE events SET json = json_remove(json, '$.fen', '$.board', '$.to_move', '$.legal', '$.in_check')
WHERE CASE WHEN json_valid(json) THEN json_extract(json, '$.kind') IN ('move', 'side_chosen') END;
UPDATE events SET json = json_remove(json, '$.board', '$.available_objects')
WHERE CASE WHEN json_valid(json) THEN json_extract(json, '$.kind') = 'round_started' END;
UPDATE events SET json = json_remove(json, '$.text')
WHERE CASE WHEN json_valid(json) THEN json_extract(json, '$.kind') = 'object_named' END;
UPDATE games SET
    status = 'finished',
    result_json = (SELECT json_extract(e.json, '$.result') FROM events e
                   WHERE e.game_id = games.id AND CASE WHEN json_valid(e.json) THEN
                       json_extract(e.json, '$.kind') = 'game_over' AND
                       json_type(e.json, '$.result') = 'object' END
                   ORDER BY e.version DESC LIMIT 1),
    finished_at = created_at
WHERE status = 'active' AND EXISTS (
    SELECT 1 FROM events e
    WHERE e.game_id = games.id AND CASE WHEN json_valid(e.json) THEN
        json_extract(e.json, '$.kind') = 'game_over' AND json_type(e.json, '$.result') = 'object'
    END);
)sql",
    // 4 (issue 13): a game's time control, as its record's TimeControl tag writes it; the games
    // from before clocks were unlimited.
    R"sql(
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT '-';
)sql",
    // 5 (issue 16): accounts, several sessions (tokens) per player, moderation, rated games,
    // Glicko-2 ratings and each rated game's rating change. Every token issued so far stays valid:
    // it becomes its player's first session (players.token_hash keeps the token a player was
    // created with; since this step only `sessions` says which tokens are valid).
    R"sql(
CREATE TABLE sessions (
    token_hash  TEXT PRIMARY KEY,
    player_id   TEXT NOT NULL REFERENCES players (id),
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_by_player ON sessions (player_id);
INSERT INTO sessions (token_hash, player_id, created_at)
    SELECT token_hash, id, created_at FROM players;
CREATE TABLE accounts (
    player_id      TEXT PRIMARY KEY REFERENCES players (id),
    username       TEXT NOT NULL,
    username_key   TEXT NOT NULL UNIQUE,  -- the username in lower case
    password_hash  TEXT NOT NULL,         -- crypto_pwhash_str (Argon2id)
    admin          INTEGER NOT NULL CHECK (admin IN (0, 1)),
    created_at     INTEGER NOT NULL
) WITHOUT ROWID;
ALTER TABLE players ADD COLUMN muted INTEGER NOT NULL DEFAULT 0 CHECK (muted IN (0, 1));
ALTER TABLE players ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
CREATE TABLE ratings (
    player_id    TEXT NOT NULL REFERENCES players (id),
    variant      TEXT NOT NULL CHECK (variant IN ('chessence', 'chesica', 'sniderman')),
    rating       REAL NOT NULL,
    rd           REAL NOT NULL,
    volatility   REAL NOT NULL,
    games        INTEGER NOT NULL,
    last_played  INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
) WITHOUT ROWID;
CREATE INDEX ratings_by_variant ON ratings (variant, rating);
-- Rowid order is rating order: the single writer rates games one after the other.
CREATE TABLE game_ratings (
    game_id            TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat               INTEGER NOT NULL CHECK (seat >= 0),
    player_id          TEXT NOT NULL REFERENCES players (id),
    variant            TEXT NOT NULL,
    rating_before      REAL NOT NULL,
    rd_before          REAL NOT NULL,
    volatility_before  REAL NOT NULL,
    rating_after       REAL NOT NULL,
    rd_after           REAL NOT NULL,
    volatility_after   REAL NOT NULL,
    at                 INTEGER NOT NULL,
    UNIQUE (game_id, seat)
);
CREATE INDEX game_ratings_by_player ON game_ratings (player_id, at);
)sql",
    // 6 (issue 22): the server's runs, each from its start to its last heartbeat or clean
    // shutdown (Unix milliseconds), so the clocks refund the time the server was down.
    R"sql(
CREATE TABLE server_runs (
    started_at  INTEGER PRIMARY KEY,
    alive_at    INTEGER NOT NULL
);
)sql",
    // 7 (issue 23): a private game's access key, which a spectator must show; the private games
    // stored before get one of their own.
    R"sql(
ALTER TABLE games ADD COLUMN access_key TEXT NOT NULL DEFAULT '';
UPDATE games SET access_key = lower(hex(randomblob(16))) WHERE private = 1;
)sql",
    // 8 (issue 23): chat leaves the event log for a table of its own, a players' and a
    // spectators' channel per game. The chat events stored before are copied (they stay in the log,
    // which must stay gapless, and replay as nothing).
    R"sql(
CREATE TABLE chat_lines (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n          INTEGER NOT NULL CHECK (n >= 1),  -- 1, 2, 3, … per game, in the order said
    channel    TEXT NOT NULL CHECK (channel IN ('players', 'spectators')),
    player_id  TEXT NOT NULL,
    name       TEXT NOT NULL,
    seat       TEXT NOT NULL,  -- '' for a spectator
    text       TEXT NOT NULL,
    at         TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE INDEX chat_lines_by_channel ON chat_lines (game_id, channel, n);
INSERT INTO chat_lines (game_id, n, channel, player_id, name, seat, text, at)
    SELECT game_id, ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY version),
           CASE WHEN json_type(json, '$.seat') = 'text' THEN 'players' ELSE 'spectators' END,
           COALESCE(json_extract(json, '$.player_id'), ''), COALESCE(json_extract(json, '$.from'), ''),
           COALESCE(json_extract(json, '$.seat'), ''), COALESCE(json_extract(json, '$.text'), ''),
           COALESCE(json_extract(json, '$.at'), '')
    FROM events
    WHERE CASE WHEN json_valid(json) THEN json_extract(json, '$.kind') = 'chat' END
      AND game_id IN (SELECT id FROM games);
)sql",
    // 9 (issue 25): each finished game's analysis, computed once: asked for ('queued', re-queued
    // after a restart), computed ('done', with the JSON the API serves) or given up ('failed').
    R"sql(
CREATE TABLE analyses (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status      TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
    json        TEXT NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX analyses_by_status ON analyses (status, updated_at);
)sql",
    // 10 (issue 27): the newest fencing number that claimed each game (fences.h); the games stored
    // before were never claimed.
    R"sql(
ALTER TABLE games ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;
)sql",
    // 11 (issue 42): a queued analysis is claimed by one node's run (server_runs.started_at) and
    // carries its progress, so every node sees it and one whose node died is taken over; a seek
    // names the node and run that hold it, so a dead node's seeks are deleted.
    R"sql(
ALTER TABLE analyses ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE analyses ADD COLUMN run INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN positions_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN positions_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seeks ADD COLUMN node TEXT NOT NULL DEFAULT '';
ALTER TABLE seeks ADD COLUMN run INTEGER NOT NULL DEFAULT 0;
)sql",
    // 12 (issue 43): tournaments, event-sourced like games (tournament_records.h): a record and
    // its gapless events; a game names the tournament that paired it ('' for the games before and
    // every other game) and whether its players may berserk.
    R"sql(
CREATE TABLE tournaments (
    id             TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('arena', 'swiss', 'roundrobin')),
    name           TEXT NOT NULL,
    variant        TEXT NOT NULL CHECK (variant IN ('chessence', 'chesica', 'sniderman')),
    created_by     TEXT NOT NULL,  -- a player id; '' for the server's own
    config_json    TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('created', 'started', 'finished')),
    starts_at      INTEGER NOT NULL,  -- unix milliseconds, as ends_at and created_at
    ends_at        INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,
    password_hash  TEXT NOT NULL,
    players        INTEGER NOT NULL,
    winner_json    TEXT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_by_creator ON tournaments (created_by, created_at);
CREATE TABLE tournament_events (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    version        INTEGER NOT NULL CHECK (version >= 1),
    json           TEXT NOT NULL,
    PRIMARY KEY (tournament_id, version)
) WITHOUT ROWID;
CREATE TRIGGER tournament_events_gapless BEFORE INSERT ON tournament_events
WHEN NEW.version <> 1 + (SELECT COALESCE(MAX(version), 0) FROM tournament_events
                         WHERE tournament_id = NEW.tournament_id)
BEGIN
    SELECT RAISE(ABORT, 'tournament event version is not the last one + 1');
END;
ALTER TABLE games ADD COLUMN tournament_id TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN berserkable INTEGER NOT NULL DEFAULT 0 CHECK (berserkable IN (0, 1));
CREATE INDEX games_by_tournament ON games (tournament_id, created_at) WHERE tournament_id <> '';
)sql",
};

}  // namespace

int current_schema_version() {
    return static_cast<int>(steps.size());
}

core::Status migrate(sqlite::Connection& db, const std::string& path, int target) {
    if (target < 0) {
        target = current_schema_version();
    }
    const auto where = "database '" + path + "': ";
    auto version_text = db.query_text("PRAGMA user_version");
    if (!version_text) {
        return core::make_error(where + "cannot read the schema version: " + version_text.error());
    }
    const int version = std::stoi(*version_text);
    if (version > current_schema_version()) {
        return core::make_error(where + "schema version " + std::to_string(version) +
                                " is newer than this program's " +
                                std::to_string(current_schema_version()) +
                                "; refusing to open it (use a newer chessence-server)");
    }
    for (int next = version + 1; next <= target; ++next) {
        const auto applied = sqlite::in_transaction(db, [&]() -> core::Status {
            // Another process may have migrated since the version was read; the write lock is ours
            // now.
            auto now = db.query_text("PRAGMA user_version");
            if (!now) {
                return core::make_error(now.error());
            }
            if (std::stoi(*now) >= next) {
                return core::ok_status();
            }
            if (auto created = db.exec(std::string(steps[static_cast<std::size_t>(next - 1)]));
                !created) {
                return created;
            }
            return db.exec("PRAGMA user_version = " + std::to_string(next));
        });
        if (!applied) {
            return core::make_error(where + "migration to schema version " + std::to_string(next) +
                                    " failed: " + applied.error());
        }
    }
    return core::ok_status();
}

}  // namespace server
