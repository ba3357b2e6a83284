// Issue 42: a finished game that is not in memory answers those without a seat in it from the
// store, so that nobody's request keeps a finished room in memory (or, in cluster mode, holds its
// lease): a watch from a copy of the room that is never registered, everything else from the
// game's record alone.
#include "protocol/messages.h"
#include "protocol/requests.h"
#include "server/game/game_machine.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/log.h"

namespace server {

using protocol::ErrorCode;
using protocol::RequestType;

void RoomDirectory::answer_finished(const GameRecord& record, const Actor& actor,
                                    const protocol::Request& request) {
    const auto load_failed = [&](const std::string& error) {
        component_logger("server")->error("game {}: cannot answer client {} from the store: {}",
                                          record.id, actor.client_id, error);
        actor.send(error_frame(ErrorCode::internal_error,
                               "the server could not load this game; try again", request.id,
                               record.id));
    };
    if (request.type == RequestType::watch) {
        // The copy is built as a load builds a room, but without a lease (its fence stays 0) and
        // outside the registry: it goes as soon as it has answered.
        auto room = build_room(record);
        if (!room) {
            load_failed(room.error());
            return;
        }
        (*room)->answer_watch(actor, request);
        return;
    }
    if (request.type == RequestType::unwatch) {
        // Nobody watches a game that is not in memory: only the ack, with the game's version.
        if (request.id.is_null()) {
            return;
        }
        auto events = state_.store().events(record.id);
        if (!events) {
            load_failed(events.error());
            return;
        }
        const std::int64_t version = events->empty() ? 0 : events->back().version;
        actor.send(make_frame(protocol::ack_message(request.id, record.id, version)));
        return;
    }
    if (request.type == RequestType::chat) {
        // A spectator's chat closed with the game.
        actor.send(
            error_frame(ErrorCode::game_over, spectators_chat_over_text, request.id, record.id));
        return;
    }
    // The machine refuses whoever holds no seat before it looks at the game: the state it is
    // handed does not matter.
    Command command;
    command.request = request;
    command.player_id = actor.player_id;
    command.name = actor.name;
    const auto decision = decide(GameState{}, command, state_.time().now());
    if (!decision.error) {
        load_failed("the machine did not refuse a request of someone without a seat");
        return;
    }
    actor.send(error_frame(*decision.error, request.id, record.id));
}

}  // namespace server
