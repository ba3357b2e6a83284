#pragma once
// A game between two guests (Ann in seat 0, Bob in seat 1) with a spectator (Sam), started through
// the lobby on a real server, and helpers that follow its versioned events.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "server/test_support.h"

namespace test {

using MovePolicy = std::function<std::string(const json& legal, int ply)>;

// Captures first (notation with 'x'), otherwise a deterministic spread over the legal moves.
std::string capture_first(const json& legal, int ply);

class Table {
public:
    // `clock`: the seek's time control (null: unlimited).
    Table(std::uint16_t port, const std::string& variant, int rounds = 1, bool is_private = false,
          const json& clock = nullptr);

    WsClient& seat(int index) { return index == 0 ? *ann : *bob; }
    WsClient& seat_named(const std::string& name);  // "white"/"black"/"player0"/"player1"
    // The event with `version` as seat 0 receives it (null after a timeout), once every open
    // client of the table has received it.
    json event(std::int64_t version);
    // A fresh snapshot for `client` (watch without since), without its echoed `id`.
    json snapshot(WsClient& client);
    // Waits until every room message before now reached `client`: a request the room refuses
    // (draw_decline with no offer pending), answered in order on the room strand.
    void room_barrier(WsClient& client);

    std::unique_ptr<WsClient> ann;
    std::unique_ptr<WsClient> bob;
    std::unique_ptr<WsClient> sam;
    std::string ann_token;  // the secret tokens of the two players' identities
    std::string bob_token;
    std::string variant;
    std::string game_id;
    json start;                // the spectator's first snapshot
    std::int64_t version = 0;  // the last event version followed
    int requests = 0;
};

struct Played {
    std::vector<std::string> moves;
    json result;  // null if the game did not end within the limit
};

// Chessence or Chesica: the side to move plays `policy` until the game ends or max_plies pass.
Played play_chess(Table& table, const MovePolicy& policy, int max_plies);
// Sniderman: names the first available object, the chooser takes ODD, captures (legal[0]) until
// the match ends; returns every move of every round.
Played play_sniderman(Table& table);

// Sniderman: one round with `object` named by `namer`, the chooser taking ODD, captures (legal[0])
// until none is left; returns the event after round_over (round_started or game_over).
json play_round(Table& table, const std::string& namer, int object, Played& played);

// A clock reading without the moment it was taken (`at`): what each seat has left and whose clock
// runs, for comparing with what a test expects.
inline json reading(json clock) {
    if (clock.is_object()) {
        clock.erase("at");
    }
    return clock;
}

// A game from the start position that the rules end with `reason` (e.g. "checkmate"), found with
// seeded random playouts through core::Game, shortest of `tries`; empty if none was found.
std::vector<std::string> find_game_ending(core::VariantId variant, const std::string& reason,
                                          int max_plies, int tries);
// Plays the moves of `line` in order (a policy for play_chess).
MovePolicy scripted(std::vector<std::string> line);

// Events of `game_id` in `client`'s history, in arrival order; the events of a catch-up frame
// (`events`) count as one `event` message each.
std::vector<json> events_of(const WsClient& client, const std::string& game_id);

}  // namespace test
