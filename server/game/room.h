#pragma once
// One game room on its own strand. Rooms are event-sourced: every change is a typed room event
// (protocol/events.h) with the room's next version (1, 2, 3, … gapless). A request is validated and
// applied once, on the room's own game; the events it produced are committed to the Store in one
// batch, and only when that batch is durable does the room broadcast and acknowledge them (a store
// failure rebuilds the room from its committed events). Requests that arrive while a batch is in
// flight wait their turn. After a restart a room is rebuilt by applying its stored events in order.
#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/sniderman/match.h"
#include "protocol/account_messages.h"
#include "protocol/errors.h"
#include "protocol/events.h"
#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/game/game_clock.h"
#include "server/store/store.h"

namespace server {

class ServerState;

class Room : public std::enable_shared_from_this<Room> {
public:
    Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names);

    // A new game: builds the rules state and returns the writes that create it (the game record
    // and its opening events), already applied to this room. Called once, before the room is
    // shared; the room may be shared only after those writes are committed.
    core::Expected<WriteBatch> start_fresh();
    // A stored game: replays its events. Called once, before the room is shared.
    core::Status restore(const std::vector<StoredEvent>& events);

    // Runs a game request on the room strand.
    void post_request(Actor actor, protocol::Request request);
    // The players of a just-created game: each gets `game_started` and a snapshot, and watches.
    // `request_id` is echoed to the player `answer_client` (the one whose request created it).
    void post_seated(std::vector<Actor> players, std::uint64_t answer_client = 0,
                     nlohmann::json request_id = nullptr);
    void post_client_gone(std::uint64_t client_id);
    // Tells the lobby about the room (a restored game in progress appears in the list).
    void post_summary();
    // Looks at the clocks now: a flag that fell or a first move that did not come ends the game.
    void post_clock_check();
    // The measured round trip of a watcher's connection, in milliseconds.
    void post_lag(std::uint64_t client_id, int lag_ms);

    const std::string& id() const { return record_.id; }
    // Player ids by seat; fixed for the room's life, so readable from any thread.
    const std::vector<std::string>& seats() const { return record_.seats; }
    bool finished() const { return finished_flag_.load(); }

private:
    using Json = nlohmann::json;
    using RoomEvent = protocol::events::RoomEvent;
    struct Watcher {
        std::weak_ptr<Client> client;
        std::string player_id;
        int lag_ms = 0;  // 0: not measured yet
    };
    // Events applied to the room but not yet committed, with what their broadcast adds.
    struct Staged {
        std::vector<std::string> stored;  // stored-form texts
        std::vector<Json> derived;        // per event: fields the live broadcast adds ({} if none)
        std::optional<protocol::events::Result> finish;
        WriteBatch extra;             // writes that commit with the events (a rematch's new game)
        std::function<void()> after;  // runs once the batch is durable
        Actor requester;
        Json request_id;
    };

    // room.cpp: building the room, dispatch
    void handle(const Actor& actor, const protocol::Request& request);
    void dispatch(const Actor& actor, const protocol::Request& request);
    void reset_state();
    // Rebuilds the room from its committed events (after a failed commit or a handler that threw).
    void rebuild();
    void fail(const Actor& actor, const protocol::Request& request, protocol::ErrorCode code,
              std::string message);

    // room_commit.cpp: the path of every change
    // Applies one event to the room's state (the reducer, for live events and for restore): its
    // game part, then its clock part. A Move's notation becomes canonical. With `derived`, also
    // fills in what the event's live broadcast adds (the position after a move, an object's
    // text). An error changes nothing.
    core::Status apply(RoomEvent& event, Json* derived = nullptr);
    core::Status apply_game(RoomEvent& event, Json* derived);
    // Applies `event` and stages it for the next commit. `stamp` runs between the game part and
    // the clock part (it writes the clocks an action produced into the event).
    core::Status emit(RoomEvent event, const std::function<void(RoomEvent&)>& stamp = {});
    // Commits what is staged in one batch; the room acts on it once it is durable.
    void commit(const Actor& actor, const protocol::Request& request,
                std::function<void()> after = {});
    void committed(core::Status status, Staged staged);
    void broadcast(const Frame& frame);
    // The fields a move or side_chosen broadcast adds: the position after it.
    Json derived_position(const core::Game& game) const;

    // room_watchers.cpp: who looks at the room
    void watch(const Actor& actor, const protocol::Request& request);
    void unwatch(std::uint64_t client_id);
    void release_if_idle();
    void add_watcher(const Actor& actor);
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
    void resign(const Actor& actor, const protocol::Request& request, int seat);
    void draw_request(const Actor& actor, const protocol::Request& request, int seat);
    void rematch_request(const Actor& actor, const protocol::Request& request, int seat);
    void start_rematch(const Actor& actor, const protocol::Request& request);
    // Players and the spectators watching the room may chat; anyone else gets not_a_player.
    void chat(const Actor& actor, const protocol::Request& request, std::optional<int> seat);
    // Stages game_over with `result` and the game's finished mark.
    void end_game(protocol::events::Result result);

    // room_clock.cpp: the clocks, abort, claims, more time
    SteadyTime now() const;
    void reset_clock();
    // The seat that must act now (move, name, choose); nothing once the game is over.
    std::optional<int> acting_seat() const;
    // Writes into an action event (move, object_named, side_chosen) the clocks after it.
    void stamp_action(RoomEvent& event, int seat, int lag_ms);
    void apply_clock(const RoomEvent& event);
    // After an action or a takeback: when a real-time game is aborted if nobody acts.
    void update_abort_deadline();
    void schedule_clock();
    bool clock_due() const;
    // Ends the game when a flag fell or a first move did not come in time; else re-arms the timer.
    void check_clock();
    void abort_request(const Actor& actor, const protocol::Request& request, int seat);
    void claim(const Actor& actor, const protocol::Request& request, int seat);
    void more_time(const Actor& actor, const protocol::Request& request, int seat);
    // Milliseconds until the opponent of `seat` (gone) may claim; nothing while `seat` is online
    // or claims do not apply.
    std::optional<std::int64_t> claim_in(int seat) const;
    std::optional<int> seat_lag(int seat) const;
    Json clock_fields() const;  // the snapshot's time_control, clock and abort_in

    // room_takeback.cpp
    void takeback_request(const Actor& actor, const protocol::Request& request, int seat);
    // The game part of a takeback: the game replayed without its last moves.
    core::Status apply_takeback(const protocol::events::Takeback& takeback, Json* derived);

    // room_sniderman.cpp: the match phases
    core::Status apply_sniderman(RoomEvent& event, Json* derived);  // the reducer's Sniderman part
    void name_object(const Actor& actor, const protocol::Request& request, int seat);
    void choose_side(const Actor& actor, const protocol::Request& request, int seat);
    void play_round_move(const Actor& actor, const protocol::Request& request, int seat);
    protocol::events::RoundStarted round_started_event() const;
    Json round_started_derived() const;
    // The position a Sniderman round ended in (the match has dealt the next round already).
    Json final_round_position(const core::sniderman::RoundRecord& record) const;
    Json match_json() const;

    // room_rating.cpp: rated games (issue 16)
    // The write that rates the game ending with `result` (with its finished mark), if it is rated.
    std::optional<WriteOp> rating_write(const protocol::events::Result& result) const;
    // Reads the game's stored rating change (a rated game that is over) into rating_change_.
    void load_rating_change();
    // Once the end of a rated game is stored: reads its rating change and pushes it to the room.
    void announce_rating_change();
    Json rating_change_json() const;

    // room_snapshot.cpp
    Json snapshot_json() const;
    const core::Game& current_game() const;

    ServerState& state_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    GameRecord record_;
    core::VariantId variant_;
    core::RuleSet rules_;
    std::vector<std::string> seat_names_;

    // The game as its committed (and, while busy_, staged) events made it.
    std::unique_ptr<core::Game> game_;             // Chessence, Chesica
    std::optional<core::sniderman::Match> match_;  // Sniderman
    std::vector<std::string> fens_;  // the position after each ply of the game (Sniderman: round)
    std::optional<protocol::events::Result> result_;
    std::optional<int> draw_offer_;      // seat that offered
    std::optional<int> rematch_offer_;   // seat that offered
    std::optional<int> takeback_offer_;  // seat that offered
    std::optional<std::string> rematch_game_;
    std::deque<Json> chat_;
    std::int64_t round_version_ = 0;  // Sniderman: version of the current round's round_started
    std::vector<protocol::SeatRatingChange> rating_change_;  // a rated game's, once it is over

    // The clocks (room_clock.cpp): what the events made of them, the clocks after each ply
    // (Chessence, Chesica: [0] the start) for takebacks, and the timer of the next deadline.
    protocol::TimeControl time_control_;
    GameClock clock_;
    std::vector<protocol::events::ClockReading> clock_history_;
    std::optional<SteadyTime> abort_deadline_;
    std::array<std::optional<SteadyTime>, 2> gone_since_;
    boost::asio::steady_timer clock_timer_;

    // Committed events in stored form, by version - 1.
    std::vector<std::string> log_;
    Staged staged_;
    bool busy_ = false;  // a batch is in flight; requests wait in waiting_
    std::deque<std::pair<Actor, protocol::Request>> waiting_;

    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> chat_times_;
    std::map<std::uint64_t, Watcher> watchers_;
    int last_spectators_ = 0;
    std::array<bool, 2> last_online_{false, false};
    std::array<std::optional<int>, 2> last_lag_;
    std::atomic<bool> finished_flag_{false};
};

}  // namespace server
