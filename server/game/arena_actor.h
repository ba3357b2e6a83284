#pragma once
// One arena tournament on its own strand (issue 43, docs/tournaments.md "On the server"): the
// actor around the arena machine (server/tournament/arena.h), as a Room is around the game
// machine. It orders what it is asked and what time does, asks the machine (decide), commits the
// events to the Store in one batch and — only once the batch is durable — applies them, tells
// the watchers and answers. A pairing pass prepares the paired games' rooms off the strand and
// commits their creation in the same batch as the pairing, so a game is never paired without
// its room nor created twice. After a restart the actor is rebuilt by replaying its stored
// events through the same `apply`.
//
// Files: arena_actor.cpp (life, asks, commits, watchers), arena_actor_pairing.cpp (the pass and
// the paired rooms), arena_actor_chat.cpp (who may talk, how often), arena_view.{h,cpp} (what
// watchers and the HTTP API are shown).
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "core/expected.h"
#include "protocol/errors.h"
#include "server/game/arena_view.h"
#include "server/game/chat_limiter.h"
#include "server/game/client.h"
#include "server/game/game_factory.h"
#include "server/game/tournament_news.h"
#include "server/store/store.h"
#include "server/tournament/arena.h"

namespace server {

class ServerState;

// What an ask comes to: nothing (done), or the error that changed nothing.
using ArenaAnswer = std::function<void(std::optional<protocol::ProtocolError>)>;

class ArenaActor : public std::enable_shared_from_this<ArenaActor> {
public:
    // `names`: the display names of the players the events name (read by whoever builds it).
    ArenaActor(ServerState& state, TournamentRecord record, tournament::ArenaState arena,
               std::int64_t version, std::map<std::string, std::string> names);

    // Starts the pairing and standings timers. Called once, after the actor is shared.
    void start();
    // Stops the timers (the server stops); what is in flight still completes.
    void stop();

    const std::string& id() const { return record_.id; }
    // What watchers and the HTTP API are shown, as of the last change (any thread).
    std::shared_ptr<const ArenaView> view() const;

    // A player's ask (join with their rating, withdraw, pause), decided on the strand; `answer`
    // runs there once it is durable, or with the refusal. `actor`'s connection (if any) becomes
    // one of the player's.
    void post_ask(Actor actor, tournament::ArenaInput input, ArenaAnswer answer);
    // The client watches the tournament: it gets `tournament` (echoing `request_id`) and the
    // standings' deltas from then on; a player's connection counts as their presence.
    void post_watch(Actor actor, nlohmann::json request_id);
    void post_unwatch(std::uint64_t client_id);
    // An account's line of the chat (the edge refused guests): refused when muted or too fast
    // (as a game's chat), else committed as an event; once durable a `tournament_chat` goes to
    // every watcher and `actor` gets the `ack` (echoing `request_id`), or the error.
    void post_say(Actor actor, std::string text, nlohmann::json request_id);
    // A room's news: its tournament game ended (durable in the store).
    void post_game_ended(TournamentGameEnd end);

private:
    struct Ask {
        Actor actor;
        tournament::ArenaInput input;
        ArenaAnswer answer;
    };
    struct Watcher {
        std::weak_ptr<Client> client;
        Actor actor;
    };

    // arena_actor.cpp
    tournament::ArenaTime now_ms() const;
    void arm_tick();
    void arm_flush();
    void tick();
    // Runs the asks that waited for the batch in flight, in order, until one makes it busy again.
    void take_waiting();
    void handle(Ask ask);
    // Commits `events` (with `extra` writes) as one batch; once durable applies them, marks the
    // standings changed and runs `after(ok)` on the strand. The actor is busy until then.
    void commit(std::vector<tournament::ArenaEvent> events, WriteBatch extra,
                std::function<void(bool ok)> after);
    // The record's listed status as the state now says, if it differs: one more write.
    std::optional<SetTournamentStatus> status_change(tournament::ArenaTime now) const;
    void publish();
    // The end was applied: the last standings, the podium to the watchers, and the directory
    // forgets the actor (a finished tournament is read from the store).
    void ended();
    // Sends the changed standings lines to every watcher (at most once a second).
    void flush();
    std::vector<std::string> present_players();
    std::vector<Actor> connections_of(const std::string& player_id);
    void send_to_watchers(const Frame& frame);
    void send_tournament(const Actor& actor, const nlohmann::json& request_id);

    // arena_actor_chat.cpp
    void say(const Actor& actor, std::string text, const nlohmann::json& request_id);
    // Tells every watcher the chat lines (Said) among a committed batch's events.
    void send_said(const std::vector<tournament::ArenaEvent>& events);

    // arena_actor_pairing.cpp
    // A pass: on the blocking pool, the machine pairs the waiting players (on a copy of the
    // state; the actor is busy meanwhile) and their rooms are prepared; back on the strand the
    // pairing, the games' start and the games' creation commit as one batch.
    void pairing_pass(tournament::ArenaTime now);
    void paired_games_prepared(std::vector<tournament::ArenaEvent> paired,
                               std::vector<core::Expected<PreparedGame>> prepared);
    // The result of a game the state holds in progress, from its room's news.
    void game_ended(const TournamentGameEnd& end);

    ServerState& state_;
    TournamentRecord record_;
    tournament::ArenaState arena_;
    std::int64_t version_ = 0;  // stored events
    std::map<std::string, std::string> names_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    boost::asio::steady_timer tick_timer_;
    boost::asio::steady_timer flush_timer_;
    bool busy_ = false;
    bool stopped_ = false;
    bool flush_armed_ = false;
    bool changed_ = false;  // standings changed since the last flush
    std::deque<Ask> waiting_;
    std::map<std::uint64_t, Watcher> watchers_;
    // The lines last pushed (what a delta is measured against) and the count of pushes.
    std::map<std::string, protocol::TournamentRow> pushed_;
    std::int64_t standings_version_ = 0;
    std::vector<protocol::TournamentDuel> pushed_duels_;
    // When each player's recent chat lines were said (the burst limit, as a room's chat).
    ChatLimiter chat_limiter_;

    mutable std::mutex view_mutex_;
    std::shared_ptr<const ArenaView> view_;
};

}  // namespace server
