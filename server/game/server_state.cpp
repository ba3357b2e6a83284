#include "server/game/server_state.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "core/game.h"
#include "protocol/limits.h"
#include "protocol/messages.h"
#include "server/bots/bot_identity.h"
#include "server/cluster/leases.h"
#include "server/cluster/shared_counters.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/room_adoption.h"
#include "server/game/room_directory.h"
#include "server/game/secrets.h"
#include "server/log.h"

namespace server {

std::string owned_elsewhere_error(std::string_view owner, std::string_view game_id) {
    return std::string(owned_elsewhere_prefix) + "node " + std::string(owner) + " owns game " +
           std::string(game_id);
}

std::string owner_named_in(std::string_view error) {
    const auto head = std::string(owned_elsewhere_prefix) + "node ";
    if (error.substr(0, head.size()) != head) {
        return {};
    }
    error.remove_prefix(head.size());
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
      rooms_(std::make_unique<RoomDirectory>(*this)) {
    time_listener_ = time_->on_jump([this] { check_clocks(); });
}

AnalysisClaimant ServerState::holder() const {
    return {leases_ ? leases_->node_id() : std::string(), heartbeat_.run_started_at()};
}

ServerState::~ServerState() {
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

core::Status ServerState::restore_games() {
    auto log = component_logger("server");
    // The clocks of the games restored below are not charged for the time the server was down.
    auto downtime = heartbeat_.start();
    if (!downtime) {
        return core::make_error(downtime.error());
    }
    downtime_ = std::move(*downtime);
    for (int level = protocol::min_bot_level; level <= protocol::max_bot_level; ++level) {
        const auto id = bot_player_id(level);
        auto known = store_.player(id);
        if (!known) {
            return core::make_error("cannot read the computer players: " + known.error());
        }
        if (*known) {
            continue;
        }
        PlayerRecord bot{id, bot_name(level), bot_token_hash(level), unix_now()};
        if (auto stored = store_.insert_player(bot); !stored) {
            return core::make_error("cannot store the computer players: " + stored.error());
        }
    }
    auto muted = store_.muted_players();
    if (!muted) {
        return core::make_error("cannot read the muted players: " + muted.error());
    }
    account_news_.load_muted(*muted);
    auto seeks = store_.seeks();
    if (!seeks) {
        return core::make_error("cannot read the seeks: " + seeks.error());
    }
    // Seeks belong to a live connection; none survives a restart. In cluster mode the other live
    // nodes' seeks stay, and those of nodes no longer alive go (issue 42): their run unheard of
    // for run_dead_after.
    std::map<std::int64_t, std::int64_t> alive_at;
    if (leases_ && !seeks->empty()) {
        auto runs = store_.server_runs();
        if (!runs) {
            return core::make_error("cannot read the server's runs: " + runs.error());
        }
        for (const auto& run : *runs) {
            alive_at[run.started_at] = run.alive_at;
        }
    }
    for (const auto& seek : *seeks) {
        const auto run = alive_at.find(seek.run);
        if (!leases_ || seek.node == leases_->node_id() || run == alive_at.end() ||
            !run_alive(run->second, unix_ms(time_->now()))) {
            store_.delete_seek(seek.id);
        }
    }
    auto unfinished = store_.unfinished_games();
    if (!unfinished) {
        return core::make_error("cannot list the unfinished games: " + unfinished.error());
    }
    int restored = 0;
    for (auto& record : *unfinished) {
        std::int64_t fence = 0;
        std::chrono::milliseconds unowned{0};
        if (leases_) {
            // Cluster mode: the games no live node owns (another node's stay where they are).
            auto owned = rooms_->own_game(record);
            if (!owned) {
                log->info("game {}: not restored here: {}", record.id, owned.error());
                continue;
            }
            fence = owned->fence;
            unowned = owned->unowned;
        }
        auto room = rooms_->build_room(record, unowned);
        if (!room && room.error().rfind(RoomDirectory::unreplayable_prefix, 0) == 0) {
            log->error("game {}: cannot be restored: {}", record.id, room.error());
            if (fence > 0) {
                leases_->release(record.id, fence);
            }
            continue;
        }
        if (!room) {
            return core::make_error("game " + record.id + ": " + room.error());
        }
        (*room)->set_fence(fence);
        (*room)->post_summary();
        (*room)->post_bot_check();
        rooms_->add(*room);
        ++restored;
    }
    log->info("restored {} unfinished game(s)", restored);
    if (adoption_) {
        adoption_->start();  // from now on the games whose owner dies are taken here too
    }
    // Issue 25: the analyses asked for before the restart and not done yet.
    return analyses_.restore();
}

core::Expected<PreparedGame> ServerState::prepare_game(const GameSpec& spec) {
    GameRecord record;
    record.id = spec.id.empty() ? random_id("g_") : spec.id;
    record.variant = std::string(core::variant_name(spec.variant));
    record.rules = std::string(core::rule_set_name(spec.rules));
    record.seats = spec.seats;
    record.is_private = spec.is_private;
    if (spec.is_private) {
        record.access_key = random_hex(16);
    }
    record.rated = spec.rated;
    record.time_control = protocol::time_control_text(spec.clock);
    record.created_at = unix_now();
    if (spec.variant == core::VariantId::sniderman) {
        record.seed = random_u64() >> 1;  // stays positive in a signed 64-bit column
        record.rounds = spec.rounds;
    } else {
        core::GameOptions options;
        options.rules = spec.rules;
        auto game = core::make_game(spec.variant, options);
        if (!game) {
            return core::make_error("cannot start a " + record.variant + " game: " + game.error());
        }
        record.start_fen = (*game)->start_fen();
    }
    auto names = seat_names(store_, record.seats);
    if (!names) {
        return core::make_error("cannot read the players: " + names.error());
    }
    if (leases_) {
        auto claim = leases_->acquire(record.id, 0);
        if (!claim) {
            return core::make_error("cannot take the new game's lease: " + claim.error());
        }
        if (!claim->mine) {
            return core::make_error("the new game's id is owned by node " + claim->owner);
        }
        record.fence = claim->fence;
    }
    auto room = std::make_shared<Room>(*this, record, std::move(*names));
    room->set_fence(record.fence);
    auto writes = room->start_fresh();
    if (!writes) {
        return core::make_error("cannot start the game: " + writes.error());
    }
    return PreparedGame{std::move(room), std::move(*writes)};
}

void ServerState::add_room(const std::shared_ptr<Room>& room) {
    rooms_->add(room);
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
