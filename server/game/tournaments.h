#pragma once
// This node's tournaments (issue 43): the arenas not finished, each an ArenaActor on its own
// strand, by id; their creation, their rebuilding at start-up, the WebSocket's tournament
// requests, and the rooms' news of tournament games that ended. Owned by ServerState and reached
// as ServerState::tournaments(). Thread-safe.
//
// Cluster mode has no tournaments yet (issue 43, slice 5: a tournament owned through a lease like
// a room): creating one there is refused, and none is resumed.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/expected.h"
#include "protocol/errors.h"
#include "protocol/requests.h"
#include "server/game/arena_view.h"
#include "server/game/client.h"
#include "server/game/tournament_news.h"
#include "server/tournament/arena.h"
#include "server/tournament/arena_state.h"

namespace server {

class ArenaActor;
class ServerState;

// Who creates a tournament, and with what.
struct ArenaCreation {
    std::string name;  // "" → "<Variant> Arena"
    tournament::ArenaConfig config;
    std::string password;  // a private arena's join code; "" public
};

// A request refused before or by the tournament: its HTTP status and the protocol's error.
struct TournamentRefusal {
    int status = 400;
    protocol::ProtocolError error;
};
template <class T>
using TournamentResult = std::variant<T, TournamentRefusal>;

// The creator's name the server's own tournaments show (their creator id is "").
inline constexpr std::string_view server_creator_name = "Chessence Server";
// An account may create this many tournaments a day.
inline constexpr int tournaments_per_day = 10;
// An asker waits this long at most for the tournament's answer (HTTP).
inline constexpr std::chrono::seconds tournament_answer_wait{10};

class Tournaments final : public TournamentNews {
public:
    explicit Tournaments(ServerState& state);
    ~Tournaments() override;
    Tournaments(const Tournaments&) = delete;
    Tournaments& operator=(const Tournaments&) = delete;

    // At start-up, before the rooms are restored: every tournament not finished is rebuilt from
    // its events and runs again; a game it holds in progress that ended meanwhile (its end
    // stored, its news lost with the process) is counted now. Blocks (store reads). An error if
    // the store cannot be read; a tournament whose events cannot be replayed is logged and left.
    core::Status restore();
    // Stops every tournament's timers (the server stops).
    void stop();

    // Creates an arena for the account `creator` (player id, display name), or — with the id ""
    // — the server's own (a scheduled arena, arena_scheduler.h: no daily limit, the name kept as
    // given). Blocks (store reads and the creating write): on the blocking pool or a test's
    // thread.
    TournamentResult<TournamentRecord> create_arena(const ArenaCreation& creation,
                                                    const std::string& creator_id,
                                                    const std::string& creator_name);
    // `player` joins (or comes back to) the tournament `id`, withdraws, or pauses; `code` is a
    // private tournament's join code. Blocks until the tournament answered (HTTP, on the pool).
    TournamentResult<bool> ask_sync(std::string_view id, protocol::RequestType type,
                                    const Actor& player, std::string_view code);
    // A WebSocket's tournament request: answered to `actor` (ack, tournament, or an error). Reads
    // run on the blocking pool; never blocks the caller.
    void request(const Actor& actor, const protocol::Request& request);

    // What the tournament `id` shows: from memory while it runs, else read from the store and
    // replayed. Nothing when there is no such tournament; an error when it cannot be read.
    // Blocks when it reads: on the pool.
    core::Expected<std::optional<std::shared_ptr<const ArenaView>>> view(std::string_view id);
    // The running tournament `id` (tests), or null.
    std::shared_ptr<ArenaActor> running(std::string_view id);

    void game_ended(TournamentGameEnd end) override;
    // A finished tournament leaves memory: from now on it is read from the store (view()).
    void forget(std::string_view id);

private:
    // The refusal of `type` for `player` before it reaches the tournament (account, join code),
    // with the player's rating in the arena's variant for a join. Blocks (store reads).
    struct Prepared {
        std::shared_ptr<ArenaActor> actor;
        tournament::ArenaInput input;
        std::string name{};  // a joiner's name as the tournament shows it
    };
    TournamentResult<Prepared> prepare_ask(std::string_view id, protocol::RequestType type,
                                           const Actor& player, std::string_view code);
    // Why the tournament `id`, not running, takes no ask: none, finished, or unreadable. Blocks.
    TournamentRefusal absent_refusal(std::string_view id);
    core::Status resume(const TournamentRecord& record);
    std::shared_ptr<ArenaActor> add(std::shared_ptr<ArenaActor> actor);

    ServerState& state_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<ArenaActor>, std::less<>> running_;
    bool stopped_ = false;  // stop() was called: nothing added starts any more
};

}  // namespace server
