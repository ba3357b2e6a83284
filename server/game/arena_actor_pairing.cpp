// The arena's pairing pass and its games (issue 43, docs/tournaments.md "On the server"): the
// machine pairs the waiting players, the paired games' rooms are prepared off the strand, and the
// pairing, the games' start and their creation are one batch; a room's news of its game's end
// becomes the machine's result.
#include <boost/asio/post.hpp>

#include "protocol/tournament_messages.h"
#include "server/game/arena_actor.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

namespace ti = tournament::arena_input;
namespace te = tournament::arena_event;

namespace {

// Sniderman arena games are matches of one round: an arena's games are short.
constexpr int arena_sniderman_rounds = 1;

GameSpec arena_game_spec(const TournamentRecord& record, const tournament::ArenaConfig& config,
                         const te::Paired& paired) {
    GameSpec spec;
    spec.variant = config.variant;
    spec.rules = config.rules;
    spec.rounds = arena_sniderman_rounds;
    spec.rated = config.rated;
    spec.clock = config.clock;
    spec.seats = {paired.first, paired.second};
    spec.tournament_id = record.id;
    spec.berserkable = config.berserkable && tournament::has_base_time(config.clock);
    return spec;
}

// The seat's name as game_started gives it: "white"/"black", or "player0"/"player1".
std::string arena_seat_name(core::VariantId variant, std::size_t seat) {
    if (variant == core::VariantId::sniderman) {
        return seat == 0 ? "player0" : "player1";
    }
    return std::string(
        core::side_name(variant, seat == 0 ? core::Side::first : core::Side::second));
}

}  // namespace

namespace {

// What a pass found on the pool: the pairing's events and the paired games' rooms, in order.
struct ArenaPass {
    std::vector<tournament::ArenaEvent> paired;
    std::vector<core::Expected<PreparedGame>> prepared;
};

}  // namespace

void ArenaActor::pairing_pass(tournament::ArenaTime now) {
    auto present = present_players();
    if (tournament::waiting_players(arena_, present).size() < 2) {
        return;  // nobody to pair: no job for the pool
    }
    // The matching itself (tens of milliseconds for a thousand waiting players:
    // chessence-arena-bench) runs on the pool on a copy of the state, as the rooms' preparation
    // does; the actor is busy meanwhile, so the state it was decided on is the state it commits on.
    busy_ = true;
    auto& games = state_.games();
    const bool handed = state_.blocking().run_then(
        strand_,
        [&games, arena = arena_, record = record_, present = std::move(present),
         now]() -> core::Expected<ArenaPass> {
            ArenaPass pass;
            auto decision = tournament::decide(arena, ti::PairingPass{present}, now);
            if (!decision.ok()) {
                return pass;
            }
            for (const auto& event : decision.events) {
                if (const auto* paired = std::get_if<te::Paired>(&event)) {
                    pass.prepared.push_back(
                        games.prepare(arena_game_spec(record, arena.config, *paired)));
                }
            }
            pass.paired = std::move(decision.events);
            return pass;
        },
        [self = shared_from_this()](core::Expected<ArenaPass> pass) mutable {
            self->busy_ = false;
            if (!pass) {
                component_logger("tournament")
                    ->error("tournament {}: a pairing pass failed: {}", self->id(), pass.error());
            } else if (!pass->paired.empty()) {
                self->paired_games_prepared(std::move(pass->paired), std::move(pass->prepared));
                return;
            }
            self->take_waiting();
        });
    if (!handed) {
        busy_ = false;  // the pool is full: the next tick pairs them
    }
}

void ArenaActor::paired_games_prepared(std::vector<tournament::ArenaEvent> paired,
                                       std::vector<core::Expected<PreparedGame>> prepared) {
    const auto now = now_ms();
    tournament::ArenaState scratch = arena_;
    for (const auto& event : paired) {
        (void)tournament::apply(scratch, event);
    }
    std::vector<tournament::ArenaEvent> events = paired;
    WriteBatch writes;
    struct Seating {
        std::shared_ptr<Room> room;
        std::string first;
        std::string second;
    };
    std::vector<Seating> seatings;
    std::size_t next = 0;
    for (const auto& event : paired) {
        const auto* pair = std::get_if<te::Paired>(&event);
        if (!pair) {
            continue;
        }
        auto& game = prepared.at(next++);
        tournament::ArenaInput input = ti::GameCancelled{pair->game};
        if (game) {
            input = ti::GameStarted{pair->game, game->room->id()};
        } else {
            component_logger("tournament")
                ->error("tournament {}: game {} of {} and {} cannot be created: {}", id(),
                        pair->game, pair->first, pair->second, game.error());
        }
        auto decision = tournament::decide(scratch, input, now);
        if (!decision.ok()) {
            continue;  // (cannot happen: the pair was just made)
        }
        for (const auto& decided : decision.events) {
            (void)tournament::apply(scratch, decided);
            events.push_back(decided);
        }
        if (game) {
            for (auto& write : game->writes) {
                writes.push_back(std::move(write));
            }
            seatings.push_back({game->room, pair->first, pair->second});
        }
    }
    commit(std::move(events), std::move(writes), [this, seatings = std::move(seatings)](bool ok) {
        if (!ok) {
            return;  // nothing was stored: the players wait for the next pass
        }
        for (const auto& seating : seatings) {
            state_.games().add(seating.room);
            std::vector<Actor> players = connections_of(seating.first);
            auto second = connections_of(seating.second);
            players.insert(players.end(), second.begin(), second.end());
            seating.room->post_seated(std::move(players));
            const auto& seats = seating.room->seats();
            for (std::size_t seat = 0; seat < seats.size(); ++seat) {
                const auto frame = make_frame(protocol::tournament_paired_message(
                    record_.id, seating.room->id(), arena_seat_name(arena_.config.variant, seat)));
                for (const auto& actor : connections_of(seats[seat])) {
                    actor.send(frame);
                }
            }
        }
    });
}

void ArenaActor::game_ended(const TournamentGameEnd& end) {
    const tournament::ArenaGame* found = nullptr;
    for (const auto& [number, game] : arena_.games) {
        if (game.game_id && *game.game_id == end.game_id) {
            found = &game;
        }
    }
    if (!found) {
        return;  // counted already, or ended after the arena did
    }
    tournament::ArenaInput input;
    if (end.missed_first_move_seat) {
        input = ti::FirstMoveMissed{found->number, *end.missed_first_move_seat == 0
                                                       ? core::Side::first
                                                       : core::Side::second};
    } else {
        std::optional<core::Side> winner;
        if (end.winner_seat) {
            winner = *end.winner_seat == 0 ? core::Side::first : core::Side::second;
        }
        input = ti::GameFinished{found->number, winner, end.plies, end.berserk[0], end.berserk[1]};
    }
    handle(Ask{Actor{}, std::move(input), nullptr});
}

}  // namespace server
