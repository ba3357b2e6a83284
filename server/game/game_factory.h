#pragma once
// How this node's games come to be (issue 42): a new game's room and the writes that create it
// (prepare, then add once the writes are durable), and at start-up the rebuilding of every
// unfinished game of the store (restore). Owned by ServerState and reached as
// ServerState::games(); the rooms it makes live in the room directory (room_directory.h).
#include <memory>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/variant.h"
#include "protocol/time_control.h"
#include "server/store/store.h"

namespace server {

class Room;
class ServerState;

// A game ready to be created: its room (not registered yet) and the writes that create it.
struct PreparedGame {
    std::shared_ptr<Room> room;
    WriteBatch writes;
};

// A game about to be created: who sits where, and its options.
struct GameSpec {
    std::string id;  // empty: a new random id
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;
    int rounds = 3;  // Sniderman
    bool is_private = false;
    bool rated = false;
    protocol::TimeControl clock;     // unlimited by default
    std::vector<std::string> seats;  // player ids: white/black or player0/player1
    // A tournament's game (issue 43): its tournament, and whether its players may berserk.
    std::string tournament_id{};
    bool berserkable = false;
};

class GameFactory {
public:
    explicit GameFactory(ServerState& state);
    GameFactory(const GameFactory&) = delete;
    GameFactory& operator=(const GameFactory&) = delete;

    // At start-up: stores the computer players (one a level) if they are not stored yet, loads the
    // muted players, rebuilds every unfinished game of the store by replaying its events (a room
    // whose bot is to act asks the bot pool again), drops stale seeks and queues again the game
    // analyses not done before. An error if the store cannot be read (a game whose events cannot
    // be replayed is only logged and left out).
    core::Status restore();
    // A new game's room and the writes that create it (its record and opening events). The caller
    // commits the writes (alone or with its own) and, once they are durable, calls add. Reads the
    // store (and in cluster mode takes the new game's lease): on the blocking pool, not a strand.
    core::Expected<PreparedGame> prepare(const GameSpec& spec);
    // Registers a room whose game is stored.
    void add(const std::shared_ptr<Room>& room);

private:
    // The steps of restore, in its order.
    core::Status store_computer_players();
    core::Status drop_stale_seeks();
    core::Status restore_unfinished();

    ServerState& state_;
};

}  // namespace server
