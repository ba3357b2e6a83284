#pragma once
// What a tournament game's room tells its tournament (issue 43): the game's end, once it is
// durable. The rooms know only this interface; the tournaments (tournament_directory.h) implement
// it. Set on ServerState before any room runs (ServerState::set_tournament_news).
#include <array>
#include <optional>
#include <string>

namespace server {

struct TournamentGameEnd {
    std::string tournament_id;
    std::string game_id;
    std::optional<int> winner_seat;  // 0 the first side (White, player0), 1 the second; none: draw
    std::string reason;              // the game_over event's reason ("checkmate", "no_start", …)
    int plies = 0;                   // moves played in the game (Sniderman: in all its rounds)
    std::array<bool, 2> berserk{};   // which seats went berserk
    // Reason "no_start": the seat that did not make its first move in time (it lost).
    std::optional<int> missed_first_move_seat;
};

class TournamentNews {
public:
    virtual ~TournamentNews() = default;
    // A tournament game ended and its end is durable. Called on the room's strand: it must not
    // block (post the news to the tournament's own strand). A news may come twice for one game
    // (a room rebuilt after a restart that finds the game over): the tournament ignores the
    // second.
    virtual void game_ended(TournamentGameEnd end) = 0;
};

}  // namespace server
