#include "server/game/game_factory.h"

#include <chrono>
#include <cstdint>
#include <map>

#include "core/game.h"
#include "protocol/limits.h"
#include "server/bots/bot_identity.h"
#include "server/cluster/leases.h"
#include "server/game/identity.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/game/time_source.h"
#include "server/log.h"
#include "server/store/run_liveness.h"

namespace server {

GameFactory::GameFactory(ServerState& state) : state_(state) {}

core::Status GameFactory::restore() {
    // The clocks of the games restored below are not charged for the time the server was down.
    if (auto started = state_.start_run(); !started) {
        return started;
    }
    if (auto bots = store_computer_players(); !bots) {
        return bots;
    }
    auto muted = state_.store().muted_players();
    if (!muted) {
        return core::make_error("cannot read the muted players: " + muted.error());
    }
    state_.account_news().load_muted(*muted);
    if (auto seeks = drop_stale_seeks(); !seeks) {
        return seeks;
    }
    if (auto games = restore_unfinished(); !games) {
        return games;
    }
    state_.start_adoption();  // from now on the games whose owner dies are taken here too
    // Issue 25: the analyses asked for before the restart and not done yet.
    return state_.analyses().restore();
}

core::Status GameFactory::store_computer_players() {
    auto& store = state_.store();
    for (int level = protocol::min_bot_level; level <= protocol::max_bot_level; ++level) {
        const auto id = bot_player_id(level);
        auto known = store.player(id);
        if (!known) {
            return core::make_error("cannot read the computer players: " + known.error());
        }
        if (*known) {
            continue;
        }
        PlayerRecord bot{id, bot_name(level), bot_token_hash(level), unix_now()};
        if (auto stored = store.insert_player(bot); !stored) {
            return core::make_error("cannot store the computer players: " + stored.error());
        }
    }
    return core::ok_status();
}

core::Status GameFactory::drop_stale_seeks() {
    auto& store = state_.store();
    auto* leases = state_.leases();
    auto seeks = store.seeks();
    if (!seeks) {
        return core::make_error("cannot read the seeks: " + seeks.error());
    }
    // Seeks belong to a live connection; none survives a restart. In cluster mode the other live
    // nodes' seeks stay, and those of nodes no longer alive go (issue 42): their run unheard of
    // for run_dead_after.
    std::map<std::int64_t, std::int64_t> alive_at;
    if (leases && !seeks->empty()) {
        auto runs = store.server_runs();
        if (!runs) {
            return core::make_error("cannot read the server's runs: " + runs.error());
        }
        for (const auto& run : *runs) {
            alive_at[run.started_at] = run.alive_at;
        }
    }
    for (const auto& seek : *seeks) {
        const auto run = alive_at.find(seek.run);
        if (!leases || seek.node == leases->node_id() || run == alive_at.end() ||
            !run_alive(run->second, unix_ms(state_.time().now()))) {
            store.delete_seek(seek.id);
        }
    }
    return core::ok_status();
}

core::Status GameFactory::restore_unfinished() {
    auto log = component_logger("server");
    auto& rooms = state_.rooms();
    auto* leases = state_.leases();
    auto unfinished = state_.store().unfinished_games();
    if (!unfinished) {
        return core::make_error("cannot list the unfinished games: " + unfinished.error());
    }
    int restored = 0;
    for (auto& record : *unfinished) {
        std::int64_t fence = 0;
        std::chrono::milliseconds unowned{0};
        if (leases) {
            // Cluster mode: the games no live node owns (another node's stay where they are).
            auto owned = rooms.own_game(record);
            if (!owned) {
                log->info("game {}: not restored here: {}", record.id, owned.error());
                continue;
            }
            fence = owned->fence;
            unowned = owned->unowned;
        }
        auto room = rooms.build_room(record, unowned);
        if (!room && room.error().rfind(RoomDirectory::unreplayable_prefix, 0) == 0) {
            log->error("game {}: cannot be restored: {}", record.id, room.error());
            if (fence > 0) {
                leases->release(record.id, fence);
            }
            continue;
        }
        if (!room) {
            return core::make_error("game " + record.id + ": " + room.error());
        }
        (*room)->set_fence(fence);
        (*room)->post_summary();
        (*room)->post_bot_check();
        rooms.add(*room);
        ++restored;
    }
    log->info("restored {} unfinished game(s)", restored);
    return core::ok_status();
}

core::Expected<PreparedGame> GameFactory::prepare(const GameSpec& spec) {
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
    record.tournament_id = spec.tournament_id;
    record.berserkable = spec.berserkable;
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
    auto names = seat_names(state_.store(), record.seats);
    if (!names) {
        return core::make_error("cannot read the players: " + names.error());
    }
    if (auto* leases = state_.leases()) {
        auto claim = leases->acquire(record.id, 0);
        if (!claim) {
            return core::make_error("cannot take the new game's lease: " + claim.error());
        }
        if (!claim->mine) {
            return core::make_error("the new game's id is owned by node " + claim->owner);
        }
        record.fence = claim->fence;
    }
    auto room = std::make_shared<Room>(state_, record, std::move(*names));
    room->set_fence(record.fence);
    auto writes = room->start_fresh();
    if (!writes) {
        return core::make_error("cannot start the game: " + writes.error());
    }
    return PreparedGame{std::move(room), std::move(*writes)};
}

void GameFactory::add(const std::shared_ptr<Room>& room) {
    state_.rooms().add(room);
}

}  // namespace server
