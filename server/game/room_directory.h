#pragma once
// The rooms of this node, and the loads that bring a stored game into memory (issue 42, findings
// 6 and 13): the room registry, the reads that build a room (seat names, events, chat), in cluster
// mode the claim of its lease, and the answers a finished game not in memory gives from the store.
// What needs no read — a room in memory, an id known to be no game — is found at once on any
// thread; everything else is looked up on the blocking pool (lookup), never on an I/O thread, a
// strand or the relay's receiving thread. docs/architecture.md, "The room directory".
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/game/room_registry.h"
#include "server/game/server_state.h"
#include "server/store/store.h"

namespace server {

class Room;

// Where a request for a game goes (RoomDirectory::game_for): the game's room, or the stored record
// of a finished game that is answered from the store (RoomDirectory::answer_finished); neither when
// there is no such game.
struct GameLookup {
    std::shared_ptr<Room> room;
    std::optional<GameRecord> finished;
    // Set by lookup(): the request was answered from `finished` already (on the pool).
    bool answered = false;
};

class RoomDirectory {
public:
    explicit RoomDirectory(ServerState& state);
    RoomDirectory(const RoomDirectory&) = delete;
    RoomDirectory& operator=(const RoomDirectory&) = delete;

    // What is known of `game_id` without reading anything (only the registry's mutex): its room
    // when it is in memory, an empty lookup when the id is remembered as no game; nullopt when
    // only the store can tell (then lookup()).
    std::optional<GameLookup> known(std::string_view game_id);

    // Looks `request.game_id` up for `actor`'s `request` on the blocking pool: game_for there and,
    // for a finished game answered from the store, answer_finished there too (the outcome is then
    // `answered`). Then `then(core::Expected<GameLookup>)` runs on `executor`. False — nothing
    // runs, `then` is never called — when the pool's queue is full: the caller answers the
    // request at once (pool_busy_text).
    template <class Executor, class Then>
    bool lookup(const Actor& actor, const protocol::Request& request, const Executor& executor,
                Then then) {
        return state_.blocking().run_then(
            executor,
            [this, actor, request]() -> core::Expected<GameLookup> {
                auto game = game_for(request.game_id, actor.player_id);
                if (game && !game->room && game->finished) {
                    answer_finished(*game->finished, actor, request);
                    game->answered = true;
                }
                return game;
            },
            std::move(then));
    }

    // The synchronous calls below read the store (and, in cluster mode, claim leases): they run
    // on pool threads (or at start-up, or in tests), never on an I/O thread or a strand.

    // The room of `game_id`, loaded from the store if it is not in memory; null when there is no
    // such game; an error when the game could not be loaded (nothing is kept: the next call tries
    // again).
    core::Expected<std::shared_ptr<Room>> room(std::string_view game_id);
    // Where a request of `player_id` for `game_id` goes. The game's room when it is in memory, or
    // when the game is not finished or `player_id` holds a seat in it (then loaded as room() loads
    // it: the same errors, owned_elsewhere_prefix included). Otherwise — a finished game not in
    // memory, asked about by anyone without a seat in it — its stored record, for
    // answer_finished: no room is built and, in cluster mode, no lease is taken. Neither when
    // there is no such game; an error when the store could not be read.
    core::Expected<GameLookup> game_for(std::string_view game_id, std::string_view player_id);
    // Answers `request` of `actor` for the finished game `record` that game_for gave, as the
    // game's room would answer someone without a seat in it: a watch gets the snapshot (or the
    // events missed) that the room gives a new watcher, from the stored events, and the asker is
    // not kept as a watcher; an unwatch its ack; a chat line the refusal a spectator gets after
    // the end (game_over); every other request the machine's refusal of a non-player
    // (not_a_player). Reads the store on the calling thread, as a load does.
    void answer_finished(const GameRecord& record, const Actor& actor,
                         const protocol::Request& request);

    // A game this node took the lease of: the lease's fence, and how long the game had no owner
    // before (Leases::Claim::unowned).
    struct Owned {
        std::int64_t fence = 0;
        std::chrono::milliseconds unowned{0};
    };
    // Cluster mode: takes the game's lease and records its fence in the store (Store::claim_game:
    // so a former owner cannot commit into it any more), or an error (owned_elsewhere_prefix when
    // another node holds the lease, or claim_contended_error when a former owner's lock kept the
    // claim out; the lease is let go).
    core::Expected<Owned> own_game(const GameRecord& record);
    // A stored game's room: its players' names, its events replayed and its chat. Its clocks are
    // not charged for the server's downtime nor for the last `unowned` (a takeover). An error
    // that starts with unreplayable_prefix when the events do not replay (a bug, not a failed
    // read).
    core::Expected<std::shared_ptr<Room>> build_room(const GameRecord& record,
                                                     std::chrono::milliseconds unowned = {});
    static constexpr std::string_view unreplayable_prefix = "unreplayable: ";

    // Reads nothing, callable from any thread:
    // The room of `game_id` if it is in memory, else null.
    std::shared_ptr<Room> loaded(std::string_view game_id);
    // Registers a room whose game is stored (created, or restored at start-up).
    void add(const std::shared_ptr<Room>& room);
    // Drops a finished room from memory (it is loaded again from the store when needed).
    void release(std::string_view game_id);
    // Forgets `room` (which stopped acting for its game): the next lookup loads the game again.
    void forget(std::string_view game_id, const Room* room);
    // Every room held, for walks over them.
    std::vector<std::shared_ptr<Room>> held();
    std::size_t held_count();

private:
    // A game's room, read from the store and replayed (the registry's loader): a finished game, or
    // in cluster mode one this node takes over (with its lease).
    core::Expected<std::shared_ptr<Room>> load_room(std::string_view game_id);
    // The same for a game whose record was read already.
    core::Expected<std::shared_ptr<Room>> load_room(const GameRecord& record);

    ServerState& state_;
    RoomRegistry registry_;
};

// The error own_game gives for `game_id` when the store's claim kept meeting a former owner's row
// lock (`why`, claim_contended_prefix): it starts with owned_elsewhere_prefix and names no owner
// (owner_named_in gives ""), so a client is told to send its request again in a moment
// (server_restarting), as when its game moves between nodes, not that it failed or is not there.
std::string claim_contended_error(std::string_view game_id, std::string_view why);

// The display names of the seated players ("Unknown" for a player the store does not have); an
// error when a player cannot be read.
core::Expected<std::vector<std::string>> seat_names(Store& store,
                                                    const std::vector<std::string>& seats);

}  // namespace server
