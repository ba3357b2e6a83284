// A tournament game's room (issue 43, docs/tournaments.md): once the game's end is durable, its
// tournament hears of it through ServerState::tournament_news (tournament_news.h).
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

std::optional<TournamentGameEnd> tournament_game_end(const GameState& state) {
    if (!state.in_tournament() || !state.result) {
        return std::nullopt;
    }
    TournamentGameEnd end;
    end.tournament_id = state.record.tournament_id;
    end.game_id = state.record.id;
    const auto& result = *state.result;
    if (result.winner) {
        // A side's name in Chessence and Chesica is its seat's; in Sniderman the winner is a seat.
        end.winner_seat = state.seat_from_name(*result.winner);
    }
    end.reason = result.reason;
    end.plies = static_cast<int>(state.move_count());
    end.berserk = state.berserk;
    if (result.reason == "no_start" && end.winner_seat) {
        end.missed_first_move_seat = 1 - *end.winner_seat;
    }
    return end;
}

void Room::tell_tournament() {
    auto* news = state_.tournament_news();
    if (news == nullptr) {
        return;
    }
    if (auto end = tournament_game_end(game_)) {
        component_logger("room")->info("game {}: its end goes to tournament {}", id(),
                                       end->tournament_id);
        news->game_ended(std::move(*end));
    }
}

}  // namespace server
