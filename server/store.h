#pragma once
// Where the server keeps what must survive a restart. Rooms are event-sourced: a game's state is its
// record (GameRecord) plus its ordered room events (the same JSON objects that are broadcast as
// `event.event`, see docs/protocol.md); replaying the events rebuilds the room after a restart.
//
// Implementations are thread-safe (rooms on different strands call them concurrently). A call that
// returns ok has made its change durable (for SQLite: committed in WAL mode with synchronous=FULL), so
// a room appends an event before it acknowledges or broadcasts it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace server {

struct PlayerRecord {
    std::string id;          // "p_…", public
    std::string name;        // display name
    std::string token_hash;  // SHA-256 (hex) of the secret token; the token itself is never stored
    std::int64_t created_at = 0;  // unix seconds
};

struct GameRecord {
    std::string id;       // "g_…"
    std::string variant;  // "chessence" | "chesica" | "sniderman"
    std::string rules;    // "house" | "strict"
    std::string start_fen;  // empty for Sniderman (each round is dealt from the seed)
    std::vector<std::string> seats;  // player ids by seat: white/black, or player0/player1
    std::uint64_t seed = 0;          // Sniderman: the match seed
    int rounds = 0;                  // Sniderman: rounds in the match
    bool is_private = false;
    std::string status = "active";   // "active" | "finished"
    std::string result_json;         // "" while active, else {"winner":…,"reason":…}
    std::int64_t created_at = 0;     // unix seconds
    std::int64_t finished_at = 0;
};

struct StoredEvent {
    std::int64_t version = 0;  // 1, 2, 3, … per game, gapless
    std::string json;          // the event object as broadcast
};

struct SeekRecord {
    std::string id;  // "s_…"
    std::string json;  // the seek as the protocol shows it
};

class Store {
public:
    virtual ~Store() = default;

    virtual core::Status save_player(const PlayerRecord& player) = 0;  // insert or update
    virtual std::optional<PlayerRecord> player(std::string_view id) = 0;
    virtual std::optional<PlayerRecord> player_by_token_hash(std::string_view token_hash) = 0;

    virtual core::Status create_game(const GameRecord& game) = 0;
    // Appends the game's next event; fails (changing nothing) unless version is the last one + 1.
    virtual core::Status append_event(std::string_view game_id, std::int64_t version,
                                      std::string_view event_json) = 0;
    virtual core::Status finish_game(std::string_view game_id, std::string_view result_json,
                                     std::int64_t finished_at) = 0;
    virtual std::optional<GameRecord> game(std::string_view id) = 0;
    virtual std::vector<GameRecord> unfinished_games() = 0;
    // Events with version > after_version, in order.
    virtual std::vector<StoredEvent> events(std::string_view game_id, std::int64_t after_version = 0) = 0;
    // A player's finished games, newest first.
    virtual std::vector<GameRecord> finished_games_of(std::string_view player_id, int offset,
                                                      int limit) = 0;

    virtual core::Status save_seek(const SeekRecord& seek) = 0;
    virtual core::Status delete_seek(std::string_view seek_id) = 0;
    virtual std::vector<SeekRecord> seeks() = 0;
};

}  // namespace server
