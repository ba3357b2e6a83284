#pragma once
// One game room on its own strand. Rooms are event-sourced: every change is a versioned event
// (1, 2, 3, … gapless) appended to the Store BEFORE it is applied and broadcast, and a room is
// rebuilt after a restart by applying its stored events in order. An error changes nothing.
#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/sniderman/match.h"
#include "protocol/errors.h"
#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/store/store.h"

namespace server {

class ServerState;

class Room : public std::enable_shared_from_this<Room> {
public:
    Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names);

    // A new game: builds the rules state and appends the opening events. Called once, before the
    // room is shared.
    core::Status start_fresh();
    // A stored game: replays its events. Called once, before the room is shared.
    core::Status restore(const std::vector<StoredEvent>& events);

    // Runs a game request on the room strand.
    void post_request(Actor actor, protocol::Request request);
    // The players of a just-created game: each gets `game_started` and a snapshot, and watches.
    void post_seated(std::vector<Actor> players);
    void post_client_gone(std::uint64_t client_id);

    const std::string& id() const { return record_.id; }
    // Player ids by seat; fixed for the room's life, so readable from any thread.
    const std::vector<std::string>& seats() const { return record_.seats; }
    bool finished() const { return finished_flag_.load(); }

private:
    using Json = nlohmann::json;
    struct Watcher {
        std::weak_ptr<Client> client;
        std::string player_id;
    };

    // room.cpp: dispatch, watchers, broadcast, event log
    void handle(const Actor& actor, const protocol::Request& request);
    void watch(const Actor& actor, const protocol::Request& request);
    void unwatch(std::uint64_t client_id);
    void release_if_idle();
    void add_watcher(const Actor& actor);
    void fail(const Actor& actor, const protocol::Request& request, protocol::ErrorCode code,
              std::string message);
    // Appends `event` as the next version, applies it, and broadcasts it; false if storing failed.
    bool commit(Json event);
    core::Status apply(const Json& event);
    void broadcast(const Frame& frame);
    void push_spectators();
    // Pushes `presence` when a seated player's connection state changed since the last push.
    void push_presence();
    // After any change of watchers: the spectator count and the players' presence.
    void watchers_changed();
    void publish_summary();
    int spectator_count() const;
    bool online(const std::string& player_id) const;
    std::optional<int> seat_of(const std::string& player_id) const;
    std::string seat_name(int seat) const;
    std::optional<int> seat_from_name(const std::string& name) const;

    // room_actions.cpp: the player actions common to every variant
    void play_move(const Actor& actor, const protocol::Request& request, int seat);
    void resign(int seat);
    void draw_request(const Actor& actor, const protocol::Request& request, int seat);
    void rematch_request(const Actor& actor, const protocol::Request& request, int seat);
    void start_rematch(const Actor& actor, const protocol::Request& request);
    // Players and the spectators watching the room may chat; anyone else gets not_a_player.
    void chat(const Actor& actor, const protocol::Request& request, std::optional<int> seat);
    void end_game(Json result);
    Json move_event(const core::Game& after, const std::string& move, int seat) const;

    // room_sniderman.cpp: the match phases
    void name_object(const Actor& actor, const protocol::Request& request, int seat);
    void choose_side(const Actor& actor, const protocol::Request& request, int seat);
    void play_round_move(const Actor& actor, const protocol::Request& request, int seat);
    Json round_started_event() const;
    core::Status apply_sniderman(const std::string& kind, const Json& event);
    Json match_json() const;

    // room_snapshot.cpp
    Json snapshot_json() const;
    const core::Game& current_game() const;

    ServerState& state_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    GameRecord record_;
    core::VariantId variant_;
    core::RuleSet rules_;
    std::vector<std::string> seat_names_;
    std::unique_ptr<core::Game> game_;             // Chessence, Chesica
    std::optional<core::sniderman::Match> match_;  // Sniderman
    std::vector<std::string> log_;                 // event JSON by version - 1
    std::optional<Json> result_;
    std::optional<int> draw_offer_;     // seat that offered
    std::optional<int> rematch_offer_;  // seat that offered
    std::optional<std::string> rematch_game_;
    std::deque<Json> chat_;
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> chat_times_;
    std::map<std::uint64_t, Watcher> watchers_;
    int last_spectators_ = 0;
    std::array<bool, 2> last_online_{false, false};
    std::atomic<bool> finished_flag_{false};
};

}  // namespace server
