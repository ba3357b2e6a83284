#include "server/game/server_state.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "protocol/messages.h"
#include "server/cluster/leases.h"
#include "server/cluster/shared_counters.h"
#include "server/game/arena_scheduler.h"
#include "server/game/game_factory.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/room_adoption.h"
#include "server/game/room_directory.h"
#include "server/game/secrets.h"
#include "server/game/tournaments.h"
#include "server/log.h"

namespace server {

namespace {
constexpr std::string_view owner_head = "node ";  // after owned_elsewhere_prefix
}  // namespace

std::string owned_elsewhere_error(std::string_view owner, std::string_view game_id) {
    std::string text;
    text.append(owned_elsewhere_prefix).append(owner_head).append(owner);
    text.append(" owns game ").append(game_id);
    return text;
}

std::string owner_named_in(std::string_view error) {
    // Compared in two parts, never joined into a string (GCC 12 warned falsely on the join).
    if (error.substr(0, owned_elsewhere_prefix.size()) != owned_elsewhere_prefix ||
        error.substr(owned_elsewhere_prefix.size(), owner_head.size()) != owner_head) {
        return {};
    }
    error.remove_prefix(owned_elsewhere_prefix.size() + owner_head.size());
    const auto end = error.rfind(" owns game ");
    return end == std::string_view::npos ? std::string() : std::string(error.substr(0, end));
}

ServerState::ServerState(boost::asio::io_context& io, Store& store, Limits limits,
                         std::string web_root, std::shared_ptr<TimeSource> time)
    : io_(io),
      store_(store),
      limits_(limits),
      blocking_(static_cast<std::size_t>(std::max(1, limits.blocking_threads)), blocking_queue_max),
      web_root_(std::move(web_root)),
      identities_(store),
      passwords_(PasswordCost{limits.password_ops, limits.password_memory}),
      login_limiter_(limits.login),
      address_limits_(limits),
      time_(time ? std::move(time) : std::make_shared<ServerClock>()),
      heartbeat_(io, store, *time_),
      readiness_(store, [this] { return heartbeat_.beat_now(); }),
      lobby_(std::make_shared<Lobby>(*this, io)),
      bots_(limits.bot_threads, static_cast<std::size_t>(std::max(1, limits.bot_queue))),
      analyses_(store, bots_, limits, [this] { return holder(); }),
      rooms_(std::make_unique<RoomDirectory>(*this)),
      games_(std::make_unique<GameFactory>(*this)),
      tournaments_(std::make_unique<Tournaments>(*this)) {
    tournament_news_ = tournaments_.get();
    time_listener_ = time_->on_jump([this] { check_clocks(); });
}

AnalysisClaimant ServerState::holder() const {
    return {leases_ ? leases_->node_id() : std::string(), heartbeat_.run_started_at()};
}

ServerState::~ServerState() {
    if (scheduler_) {
        scheduler_->stop();  // before the pool and the time source go
    }
    if (adoption_) {
        adoption_->stop();  // its sweeps run on the pool and use the leases and the rooms
    }
    blocking_.stop();   // its jobs use everything below
    readiness_.stop();  // its writes and reads end before the heartbeat and the store do
    relay_.reset();     // its threads stop before anything they use goes
    {
        std::lock_guard lock(lost_mutex_);
        lost_open_ = false;  // the lease thread may call on_lost until leases_ goes, after rooms_
    }
    bots_.stop();
    heartbeat_.stop();
    time_->forget(time_listener_);
}

void ServerState::start_scheduling(tournament::ArenaSchedule schedule) {
    scheduler_ = std::make_shared<ArenaScheduler>(*this, std::move(schedule));
    scheduler_->start();
}

void ServerState::check_clocks() {
    for (const auto& room : rooms_->held()) {
        room->post_clock_check();
    }
}

core::Status ServerState::join_cluster(const std::string& redis_url, std::string node_id,
                                       std::chrono::milliseconds lease_ttl) {
    if (node_id.empty()) {
        char host[256] = {};
        gethostname(host, sizeof host - 1);
        node_id = std::string(host[0] ? host : "node") + "-" + random_hex(3);
    }
    cluster::Leases::Options options;
    options.url = redis_url;
    options.node_id = node_id;
    options.ttl = lease_ttl;
    // A node whose writer hangs or fails stops renewing within a quarter of a lease (a hung
    // writer) or as soon as GET /readyz knows it cannot write, so its games' leases run out while
    // another node can still save the clocks' time.
    options.healthy = [this, lease_ttl] { return fit_to_own_games(lease_ttl); };
    auto leases = cluster::Leases::open(std::move(options),
                                        [this](const std::string& game_id, std::int64_t fence) {
                                            std::lock_guard lock(lost_mutex_);
                                            if (!lost_open_) {
                                                return;
                                            }
                                            if (auto room = rooms_->loaded(game_id)) {
                                                room->post_lease_lost(fence);
                                            }
                                        });
    if (!leases) {
        return core::make_error(leases.error());
    }
    leases_ = std::move(*leases);
    auto relay =
        Relay::open(*this, redis_url, leases_->node_id(), cluster::Leases::Options{}.key_prefix);
    if (!relay) {
        return core::make_error(relay.error());
    }
    relay_ = std::move(*relay);
    account_news_.set_share(
        [relay = relay_.get()](nlohmann::json record) { relay->publish_lobby(std::move(record)); });
    auto counters = cluster::SharedCounters::open(redis_url, cluster::Leases::Options{}.key_prefix);
    if (!counters) {
        return core::make_error(counters.error());
    }
    std::shared_ptr<cluster::SharedCounters> shared(std::move(*counters));
    login_limiter_.share(shared);
    address_limits_.share(shared);
    auto ping = redis_ping(redis_url);
    if (!ping) {
        return core::make_error(ping.error());
    }
    readiness_.watch_redis(std::move(*ping));
    RoomAdoption::Options adoption;
    adoption.period = lease_ttl;
    adoption.healthy = [this, lease_ttl] { return fit_to_own_games(lease_ttl); };
    adoption_ = RoomAdoption::make(*this, std::move(adoption));
    component_logger("server")->info("cluster mode: node {}, leases of {} ms", leases_->node_id(),
                                     lease_ttl.count());
    return core::ok_status();
}

core::Status ServerState::fit_to_own_games(std::chrono::milliseconds lease_ttl) {
    const auto stall = std::max(lease_ttl / 4, std::chrono::milliseconds(1));
    if (const auto stalled = store_.stalled_for(); stalled >= stall) {
        return core::make_error("its store's writer has finished no commit for " +
                                std::to_string(stalled.count()) + " ms");
    }
    if (const auto ready = readiness_.state();
        ready.status == Readiness::Status::store_unwritable) {
        return core::make_error(ready.error);
    }
    return core::ok_status();
}

core::Status ServerState::start_run() {
    auto downtime = heartbeat_.start();
    if (!downtime) {
        return core::make_error(downtime.error());
    }
    downtime_ = std::move(*downtime);
    return core::ok_status();
}

void ServerState::start_adoption() {
    if (adoption_) {
        adoption_->start();
    }
}

std::shared_ptr<Room> ServerState::loaded_room(std::string_view game_id) {
    return rooms_->loaded(game_id);
}

void ServerState::forget_room(std::string_view game_id, const Room* room) {
    rooms_->forget(game_id, room);
}

void ServerState::release_room(std::string_view game_id) {
    rooms_->release(game_id);
}

std::vector<std::string> ServerState::unfinished_games_of(std::string_view player_id) {
    if (leases_) {
        // Cluster mode: the player's games on every node are in the store.
        if (auto stored = store_.unfinished_game_ids_of(player_id)) {
            return std::move(*stored);
        } else {
            component_logger("server")->warn(
                "the unfinished games of {}: this node's only, the store cannot be read: {}",
                player_id, stored.error());
        }
    }
    return unfinished_games_here(player_id);
}

std::vector<std::string> ServerState::unfinished_games_here(std::string_view player_id) {
    std::vector<std::string> games;
    for (const auto& room : rooms_->held()) {
        if (room->finished()) {
            continue;
        }
        for (const auto& seat : room->seats()) {
            if (seat == player_id) {
                games.push_back(room->id());
                break;
            }
        }
    }
    return games;
}

std::size_t ServerState::room_count() {
    return rooms_->held_count();
}

void ServerState::begin_drain() {
    stopping_ = true;
    bots_.cancel();
    if (scheduler_) {
        scheduler_->stop();  // no new arena while the server drains
    }
    tournaments_->stop();  // no pairing while the server drains
    const auto frame = make_frame(protocol::server_restart_message(restart_reconnect_ms));
    for (auto& client : sessions_.open()) {
        client->send(frame);
    }
}

void ServerState::after_posted_work(std::function<void()> then) {
    auto rooms = rooms_->held();
    auto left = std::make_shared<std::atomic<std::size_t>>(rooms.size() + 1);
    auto done = [left, then = std::move(then)] {
        if (left->fetch_sub(1) == 1) {
            then();
        }
    };
    lobby_->post_barrier(done);
    for (const auto& room : rooms) {
        room->post_barrier(done);
    }
}

std::size_t ServerState::games_active() {
    const auto rooms = rooms_->held();
    return static_cast<std::size_t>(std::count_if(
        rooms.begin(), rooms.end(), [](const auto& room) { return !room->finished(); }));
}

void ServerState::close_all(std::uint16_t code) {
    stopping_ = true;
    for (auto& client : sessions_.open()) {
        client->close_after_queued(code);
    }
}

}  // namespace server
