#pragma once
// Search scores: centi-pawns from the side to move's point of view, with the band near
// ±mate_score reserved for forced wins and losses counted in plies.
#include <cstdint>

namespace core::engine {

constexpr int infinity_score = 32000;
constexpr int mate_score = 31000;  // a win at the root itself (never reached: the game is over)
constexpr int mate_band = 1000;    // scores beyond mate_score - mate_band are forced results
constexpr int draw_score = 0;
constexpr int max_search_ply = 96;  // the deepest ply the search (quiescence included) visits

// The score of a side that has no legal move (it has lost) `ply` plies from the root.
constexpr int mated_in(int ply) {
    return -mate_score + ply;
}
constexpr bool is_mate_score(int score) {
    return score > mate_score - mate_band || score < -mate_score + mate_band;
}

// Moves (not plies) to the forced result: positive when the side to move wins, negative when it
// loses; 0 for a score that is not a forced result.
constexpr int mate_in_moves(int score) {
    if (score > mate_score - mate_band) {
        return (mate_score - score + 1) / 2;
    }
    if (score < -mate_score + mate_band) {
        return -((mate_score + score) / 2);
    }
    return 0;
}

// A forced result is stored in the transposition table relative to the node, not the root.
constexpr int score_to_table(int score, int ply) {
    return score > mate_score - mate_band    ? score + ply
           : score < -mate_score + mate_band ? score - ply
                                             : score;
}
constexpr int score_from_table(int score, int ply) {
    return score > mate_score - mate_band    ? score - ply
           : score < -mate_score + mate_band ? score + ply
                                             : score;
}

}  // namespace core::engine
