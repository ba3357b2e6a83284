// A game against the computer (issue 25): `seek_create` with "opponent": "computer" and a level
// starts the game at once, as an accepted seek does (game_started and a snapshot to its creator,
// the request's id echoed), against the player "Computer level N" (bots/bot_identity.h). It is
// casual and public (the parser refuses rated, private and a rating range); the creator's limit of
// unfinished games applies; no bot thread free (the pool's queue full, or --bot-threads 0) is
// bots_busy.
#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/blocking_pool.h"
#include "server/bots/bot_identity.h"
#include "server/game/game_factory.h"
#include "server/game/lobby.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;

void Lobby::play_computer(const Actor& actor, const protocol::Request& request,
                          const AskerFacts& facts) {
    if (auto busy = too_many_games(actor, facts)) {
        actor.send(error_frame(ErrorCode::rate_limited, *busy, request.id));
        return;
    }
    if (!state_.bots().has_room()) {
        actor.send(error_frame(ErrorCode::bots_busy,
                               "the computer players are all busy; try again in a moment",
                               request.id));
        return;
    }
    GameSpec spec;
    spec.variant = request.variant;
    spec.rules = request.rules;
    spec.rounds = request.rounds;
    spec.clock = request.clock;
    const auto bot = bot_player_id(request.level);
    // In Sniderman the seats are not sides (the coin toss and each round's choice decide).
    bool human_first = true;
    if (request.variant != core::VariantId::sniderman) {
        human_first = request.side ? *request.side == core::Side::first : random_below(2) == 0;
    }
    spec.seats =
        human_first ? std::vector{actor.player_id, bot} : std::vector{bot, actor.player_id};
    // The game is created off the strand (GameFactory::prepare reads the players' names and, in
    // cluster mode, takes the game's lease); nothing in the lobby waits for it.
    count_creating({actor}, 1);
    const bool handed = state_.blocking().run_then(
        strand_, [&games = state_.games(), spec] { return games.prepare(spec); },
        [self = shared_from_this(), actor, id = request.id](core::Expected<PreparedGame> prepared) {
            const bool ok = guarded(
                "lobby", [&] { return "player " + actor.player_id + ": a computer game"; },
                [&] {
                    if (!prepared) {
                        self->count_creating({actor}, -1);
                        component_logger("lobby")->error(
                            "player {}: a game against the computer: {}", actor.player_id,
                            prepared.error());
                        actor.send(error_frame(ErrorCode::internal_error,
                                               "the game could not be created; try again", id));
                        return;
                    }
                    self->store_new_game(
                        std::move(prepared->writes), prepared->room, {actor}, actor, id,
                        "a game against the computer",
                        [self, actor](bool) { self->count_creating({actor}, -1); });
                });
            if (!ok) {
                self->count_creating({actor}, -1);
                actor.send(error_frame(ErrorCode::internal_error,
                                       "the game could not be created; try again", id));
            }
        });
    if (!handed) {
        count_creating({actor}, -1);
        actor.send(error_frame(ErrorCode::rate_limited, std::string(pool_busy_text), request.id));
    }
}

}  // namespace server
