#include "server/game/room_directory.h"

#include <algorithm>

#include "server/cluster/leases.h"
#include "server/game/room.h"
#include "server/log.h"

namespace server {

core::Expected<std::vector<std::string>> seat_names(Store& store,
                                                    const std::vector<std::string>& seats) {
    std::vector<std::string> names;
    for (const auto& id : seats) {
        auto player = store.player(id);
        if (!player) {
            return core::make_error(player.error());
        }
        names.push_back(*player ? (*player)->name : "Unknown");
    }
    return names;
}

std::string claim_contended_error(std::string_view game_id, std::string_view why) {
    return std::string(owned_elsewhere_prefix) + "game " + std::string(game_id) +
           " is still held by a former owner; try again in a moment (" + std::string(why) + ")";
}

RoomDirectory::RoomDirectory(ServerState& state)
    : state_(state), registry_([this](std::string_view game_id) { return load_room(game_id); }) {}

std::optional<GameLookup> RoomDirectory::known(std::string_view game_id) {
    if (auto room = registry_.loaded(game_id)) {
        return GameLookup{std::move(room), std::nullopt};
    }
    if (registry_.known_unknown(game_id)) {
        return GameLookup{};
    }
    return std::nullopt;
}

core::Expected<std::shared_ptr<Room>> RoomDirectory::room(std::string_view game_id) {
    return registry_.get(game_id);
}

// A finished game from before the last restart (or released since), or in cluster mode a game
// this node takes over: rebuilt from its events.
core::Expected<std::shared_ptr<Room>> RoomDirectory::load_room(std::string_view game_id) {
    auto record = state_.store().game(game_id);
    if (!record) {
        return core::make_error(record.error());
    }
    if (!*record) {
        return std::shared_ptr<Room>();
    }
    return load_room(**record);
}

core::Expected<std::shared_ptr<Room>> RoomDirectory::load_room(const GameRecord& record) {
    auto* leases = state_.leases();
    if (!leases) {
        return build_room(record);
    }
    auto owned = own_game(record);
    if (!owned) {
        return core::make_error(owned.error());
    }
    const auto fence = owned->fence;
    // build_room reads the events now that the game is claimed: what a former owner committed
    // before the claim is in them, and nothing it sends after can commit. (The record's fields a
    // room uses never change.)
    auto room = build_room(record, owned->unowned);
    if (!room) {
        leases->release(record.id, fence);
        return room;
    }
    (*room)->set_fence(fence);
    if (!(*room)->finished()) {
        component_logger("server")->info(
            "game {}: taken over with fence {} after {} ms without an owner", record.id, fence,
            owned->unowned.count());
        (*room)->post_summary();
        (*room)->post_bot_check();
    }
    return room;
}

core::Expected<GameLookup> RoomDirectory::game_for(std::string_view game_id,
                                                   std::string_view player_id) {
    if (auto found = known(game_id)) {
        return std::move(*found);
    }
    // The read a load makes first, made here: a finished game need not be loaded at all.
    auto record = state_.store().game(game_id);
    if (!record) {
        return core::make_error(record.error());
    }
    if (*record && (*record)->status == "finished" &&
        std::find((*record)->seats.begin(), (*record)->seats.end(), player_id) ==
            (*record)->seats.end()) {
        return GameLookup{nullptr, std::move(**record)};
    }
    // Loaded from the record just read (or found, should another request have loaded it since);
    // an id the store does not know is remembered as such.
    auto room =
        registry_.get(game_id, [&](std::string_view) -> core::Expected<std::shared_ptr<Room>> {
            if (!*record) {
                return std::shared_ptr<Room>();
            }
            return load_room(**record);
        });
    if (!room) {
        return core::make_error(room.error());
    }
    return GameLookup{std::move(*room), std::nullopt};
}

core::Expected<RoomDirectory::Owned> RoomDirectory::own_game(const GameRecord& record) {
    auto& leases = *state_.leases();
    auto claim = leases.acquire(record.id, record.fence);
    if (!claim) {
        return core::make_error("cannot take the game's lease: " + claim.error());
    }
    if (!claim->mine) {
        return core::make_error(owned_elsewhere_error(claim->owner, record.id));
    }
    if (claim->fence > record.fence) {
        // Once this is stored no batch of a former owner's (an older fence) is accepted. Not a
        // write of the writer's group: a claim waiting for a former owner's lock holds up none of
        // this node's other games (issue 42, finding 15).
        if (auto claimed = state_.store().claim_game({record.id, claim->fence}); !claimed) {
            leases.release(record.id, claim->fence);
            if (claimed.error().starts_with(claim_contended_prefix)) {
                return core::make_error(claim_contended_error(record.id, claimed.error()));
            }
            return core::make_error("cannot claim the game in the store: " + claimed.error());
        }
    }
    return Owned{claim->fence, claim->unowned};
}

core::Expected<std::shared_ptr<Room>> RoomDirectory::build_room(const GameRecord& game,
                                                                std::chrono::milliseconds unowned) {
    auto& store = state_.store();
    auto names = seat_names(store, game.seats);
    if (!names) {
        return core::make_error(names.error());
    }
    auto events = store.events(game.id);
    if (!events) {
        return core::make_error(events.error());
    }
    auto chat = store.chat_lines(game.id);
    if (!chat) {
        return core::make_error(chat.error());
    }
    auto room = std::make_shared<Room>(state_, game, std::move(*names));
    if (auto status = room->restore(*events, unowned); !status) {
        return core::make_error(std::string(unreplayable_prefix) + "game " + game.id +
                                " cannot be replayed: " + status.error());
    }
    room->restore_chat(std::move(*chat));
    return room;
}

std::shared_ptr<Room> RoomDirectory::loaded(std::string_view game_id) {
    return registry_.loaded(game_id);
}

void RoomDirectory::add(const std::shared_ptr<Room>& room) {
    registry_.add(room->id(), room);
}

void RoomDirectory::release(std::string_view game_id) {
    if (auto room = registry_.loaded(game_id); room && room->finished()) {
        registry_.release(game_id);
    }
}

void RoomDirectory::forget(std::string_view game_id, const Room* room) {
    registry_.forget(game_id, room);
}

std::vector<std::shared_ptr<Room>> RoomDirectory::held() {
    return registry_.held();
}

std::size_t RoomDirectory::held_count() {
    return registry_.held_count();
}

}  // namespace server
