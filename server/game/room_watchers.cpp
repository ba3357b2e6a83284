// Who looks at a room: watching (with catch-up), spectator counts, the players' presence, and the
// room's line in the lobby.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "protocol/messages.h"
#include "server/bots/bot_identity.h"
#include "server/game/lobby.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/limits.h"

namespace server {

using nlohmann::json;
namespace events = protocol::events;

// A watch with `since` inside the catch-up bound gets what it missed in one `events` frame (moves
// of the current game or round carry the position string after them, so the client can show them);
// otherwise, or with `full`, a snapshot.
void Room::watch(const Actor& actor, const protocol::Request& request) {
    if (!may_watch(actor, request)) {
        return;
    }
    add_watcher(actor);
    send_watch_answer(actor, request);
    watchers_changed();
}

void Room::answer_watch(const Actor& actor, const protocol::Request& request) {
    if (!may_watch(actor, request)) {
        return;
    }
    // Counted as watch() counts a new watcher, so that the answer is the one the registered room
    // gives; the client is not told that it watches (this copy goes once it has answered).
    watchers_[actor.client_id] = Watcher{actor.client, actor.player_id};
    send_watch_answer(actor, request);
    watchers_.clear();
}

bool Room::may_watch(const Actor& actor, const protocol::Request& request) {
    if (record_.is_private && !game_.seat_of(actor.player_id) &&
        !same_secret(request.key, record_.access_key)) {
        fail(actor, request, protocol::ErrorCode::forbidden,
             "this game is private: open it with the link its players share");
        return false;
    }
    return true;
}

void Room::send_watch_answer(const Actor& actor, const protocol::Request& request) {
    const auto known = static_cast<std::int64_t>(log_.size());
    const bool catch_up = request.since && !request.full && *request.since >= 0 &&
                          *request.since <= known &&
                          known - *request.since <= static_cast<std::int64_t>(catch_up_max_events);
    if (!catch_up) {
        actor.send(make_frame(protocol::snapshot_message(snapshot(actor.player_id), request.id)));
        return;
    }
    std::vector<protocol::VersionedEvent> missed;
    for (auto version = *request.since + 1; version <= known; ++version) {
        std::string text = log_[static_cast<std::size_t>(version - 1)];
        // The position this move left, as it was then (a move since taken back included).
        const auto& fen = fens_by_version_[static_cast<std::size_t>(version - 1)];
        if (version > game_.round_version && !fen.empty()) {
            text.pop_back();
            text += ",\"fen\":" + json(fen).dump() + "}";
        }
        missed.push_back({version, std::move(text)});
    }
    // The chat is not in the log: the lines the watcher may read come whole.
    actor.send(
        make_frame(protocol::events_message(id(), known, missed, position_now_json(game_, now()),
                                            request.id, chat_json(actor.player_id))));
    if (!rating_change_.empty()) {
        actor.send(make_frame(protocol::rating_change_message(id(), rating_change_)));
    }
}

void Room::unwatch(const Actor& actor, const protocol::Request& request) {
    unwatch(actor.client_id);
    if (!request.id.is_null()) {
        actor.send(make_frame(protocol::ack_message(request.id, id(), game_.version)));
    }
}

void Room::unwatch(std::uint64_t client_id) {
    auto it = watchers_.find(client_id);
    if (it == watchers_.end()) {
        return;
    }
    if (auto client = it->second.client.lock()) {
        client->watching(shared_from_this(), false);
    }
    watchers_.erase(it);
    watchers_changed();
    release_if_idle();
}

void Room::release_if_idle() {
    if (finished() && !busy_ && waiting_.empty() && watchers_.empty() && !lost()) {
        // A finished game nobody watches leaves memory; the store rebuilds it on demand.
        state_.release_room(id());
    }
}

void Room::add_watcher(const Actor& actor) {
    if (watchers_.count(actor.client_id)) {
        return;
    }
    watchers_[actor.client_id] = Watcher{actor.client, actor.player_id};
    if (auto client = actor.client.lock()) {
        client->watching(shared_from_this(), true);
    }
}

int Room::spectator_count() const {
    std::set<std::uint64_t> clients;
    for (const auto& [client_id, watcher] : watchers_) {
        if (!game_.seat_of(watcher.player_id)) {
            clients.insert(client_id);
        }
    }
    return static_cast<int>(clients.size());
}

void Room::watchers_changed() {
    push_spectators();
    push_presence();
}

// A player who loses their last connection is gone from now on (the opponent may claim once the
// grace period is over); lag changes of 20 ms or more are pushed too.
void Room::push_presence() {
    std::array<bool, 2> here{};
    std::array<std::optional<int>, 2> lag;
    bool lag_changed = false;
    for (int seat = 0; seat < 2; ++seat) {
        const auto i = static_cast<std::size_t>(seat);
        here[i] = online(record_.seats[i]);
        if (here[i]) {
            gone_since_[i].reset();
        } else if (!gone_since_[i]) {
            gone_since_[i] = now();
        }
        lag[i] = seat_lag(seat);
        lag_changed = lag_changed || lag[i].has_value() != last_lag_[i].has_value() ||
                      (lag[i] && std::abs(*lag[i] - *last_lag_[i]) >= 20);
    }
    if (here != last_online_) {
        update_lobby_away();
        schedule_clock();  // the absence deadlines moved
    }
    if (here == last_online_ && !lag_changed) {
        return;
    }
    last_online_ = here;
    last_lag_ = lag;
    json online = json::object();
    json lags = json::object();
    json claims = json::object();
    for (int seat = 0; seat < 2; ++seat) {
        const auto i = static_cast<std::size_t>(seat);
        online[game_.seat_name(seat)] = here[i];
        lags[game_.seat_name(seat)] = lag[i] ? json(*lag[i]) : json(nullptr);
        if (const auto claim = claim_in(game_, gone_since_[i], now())) {
            claims[game_.seat_name(seat)] = *claim;
        }
    }
    broadcast(make_frame(protocol::presence_message(id(), online, lags, claims)));
}

void Room::push_spectators() {
    spectators_throttle_.request(weak_from_this());
}

bool Room::send_spectator_count() {
    const int count = spectator_count();
    if (count == last_spectators_) {
        return false;
    }
    last_spectators_ = count;
    broadcast(make_frame(protocol::spectators_message(id(), count)));
    publish_summary();
    return true;
}

void Room::publish_summary_soon() {
    summary_throttle_.request(weak_from_this());
}

void Room::publish_summary() {
    if (record_.is_private) {
        return;
    }
    if (finished() || lobby_away_) {
        state_.lobby().post_game_summary(id(), nullptr);
        return;
    }
    json players = json::object();
    for (int seat = 0; seat < 2; ++seat) {
        players[game_.seat_name(seat)] = seat_names_[static_cast<std::size_t>(seat)];
    }
    const std::size_t moves = game_.move_count();
    json summary = {{"game_id", id()},
                    {"variant", record_.variant},
                    {"rules", record_.rules},
                    {"players", players},
                    {"moves", moves},
                    {"spectators", last_spectators_},
                    {"clock", protocol::time_control_json(game_.time_control)},
                    {"rated", record_.rated}};
    if (bot_seat_) {
        summary["bot"] = {
            {"seat", game_.seat_name(*bot_seat_)},
            {"level", *bot_level(record_.seats[static_cast<std::size_t>(*bot_seat_)])}};
    }
    state_.lobby().post_game_summary(id(), std::move(summary));
}

bool Room::online(const std::string& player_id) const {
    if (bot_level(player_id)) {
        return true;  // the computer is always there: nobody may claim a win for its absence
    }
    return std::any_of(watchers_.begin(), watchers_.end(), [&](const auto& entry) {
        return entry.second.player_id == player_id && !entry.second.client.expired();
    });
}

std::optional<int> Room::seat_lag(int seat) const {
    std::optional<int> best;
    for (const auto& [client_id, watcher] : watchers_) {
        if (watcher.player_id == record_.seats[static_cast<std::size_t>(seat)] &&
            watcher.lag_ms > 0 && !watcher.client.expired()) {
            best = best ? std::min(*best, watcher.lag_ms) : watcher.lag_ms;
        }
    }
    return best;
}

std::array<SeatPresence, 2> Room::seat_presence() const {
    std::array<SeatPresence, 2> seats;
    const auto t = now();
    for (int seat = 0; seat < 2; ++seat) {
        const auto i = static_cast<std::size_t>(seat);
        seats[i] = {seat_names_[i], online(record_.seats[i]), seat_lag(seat),
                    claim_in(game_, gone_since_[i], t)};
    }
    return seats;
}

json Room::snapshot(const std::string& viewer_id) const {
    auto snapshot =
        snapshot_json(game_, seat_presence(), spectator_count(), rating_change_json(), now());
    if (record_.is_private && game_.seat_of(viewer_id)) {
        snapshot["access_key"] = record_.access_key;
    }
    snapshot["chat"] = chat_json(viewer_id);
    return snapshot;
}

json Room::chat_json(const std::string& viewer_id) const {
    json lines = json::array();
    for (const auto& line : chat_[game_.seat_of(viewer_id) ? 0 : 1]) {
        lines.push_back(chat_line_json(line));
    }
    return lines;
}

}  // namespace server
