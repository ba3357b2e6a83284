#pragma once
// What the store keeps about tournaments (issue 43, docs/tournaments.md "Stored form"), and the
// writes that change it. A tournament is event-sourced like a game: its record (the settings as
// the arena's stored form writes them, server/tournament/arena_json.h) plus its ordered events,
// versions 1, 2, 3, … without a gap. store.h includes this header: these writes are WriteOps
// like every other, so a tournament's events and the games they pair commit in one batch.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace server {

struct TournamentRecord {
    std::string id;          // "t_…", public
    std::string kind;        // "arena" (later "swiss", "roundrobin")
    std::string name;        // as shown: "Hourly Chessence Arena"
    std::string variant;     // "chessence" | "chesica" | "sniderman"
    std::string created_by;  // the creating account's player id; "" for the server's own
    std::string config_json;  // the kind's settings in their stored form (arena_json.h)
    // "created" (not started), "started", "finished": what lists filter on; the events say the
    // rest. Written by CreateTournament and SetTournamentStatus only.
    std::string status = "created";
    std::int64_t starts_at = 0;   // unix milliseconds
    std::int64_t ends_at = 0;     // unix milliseconds (an arena's planned end)
    std::int64_t created_at = 0;  // unix milliseconds
    // A private tournament's join code, as a SHA-256 hex digest of it; "" for a public one.
    std::string password_hash;
    int players = 0;  // how many joined (kept by SetTournamentStatus's `players`, for lists)
    // The JSON of the podium once finished ("" before): the results the lists show.
    std::string winner_json;
    friend bool operator==(const TournamentRecord&, const TournamentRecord&) = default;
};

struct StoredTournamentEvent {
    std::int64_t version = 0;  // 1, 2, 3, … per tournament, gapless
    std::string json;          // the event in its stored form (arena_json.h)
    friend bool operator==(const StoredTournamentEvent&, const StoredTournamentEvent&) = default;
};

// Which tournaments to list (GET /api/tournament, /tournaments): of one status, newest first
// (for "created": soonest start first), at most `limit`.
struct TournamentQuery {
    std::string status;  // "created" | "started" | "finished"
    std::string kind;    // "" any
    int limit = 50;
};

// --- Writes (WriteOps in store.h).

// A new tournament; fails if the id exists.
struct CreateTournament {
    TournamentRecord tournament;
};
// Appends events first_version, first_version + 1, … to a tournament; fails unless first_version
// is the last stored version + 1 (no gap, no overwrite) or there is no such tournament.
struct AppendTournamentEvents {
    std::string tournament_id;
    std::int64_t first_version = 1;
    std::vector<std::string> events;  // stored-form JSON texts
};
// Changes a tournament's listed status, its count of players and (when finished) its podium;
// fails if there is no such tournament.
struct SetTournamentStatus {
    std::string tournament_id;
    std::string status;
    int players = 0;
    std::string winner_json;  // kept as it was when empty
};

}  // namespace server
