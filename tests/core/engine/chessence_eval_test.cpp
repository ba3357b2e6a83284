// The Chessence evaluation (core/engine/chessence_eval.h): symmetric, from the mover's side,
// and its features read the position as documented.
#include "core/engine/chessence_eval.h"

#include <gtest/gtest.h>

#include <cctype>

#include "core/chessence/chessence_test_support.h"
#include "core/chessence/fen.h"

namespace {

using namespace core::chessence;
using core::engine::chessence_features;
using core::engine::chessence_weights;
using core::engine::ChessenceFeature;
using core::engine::evaluate_chessence;

Position parse(const std::string& fen) {
    return parse_position(fen).value();
}

int feature(const Position& p, int colour, ChessenceFeature f) {
    return chessence_features(p)[static_cast<std::size_t>(colour)][static_cast<std::size_t>(f)];
}

TEST(ChessenceEval, StartPositionIsWorthTheTempo) {
    EXPECT_EQ(evaluate_chessence(start_position(), chessence_weights()), chessence_weights().tempo);
}

// The piece list turned by a half turn with the colours swapped: "Kf1 Me2" -> "ka9 mb8".
std::string mirrored(const std::string& pieces) {
    std::string out;
    for (std::size_t i = 0; i + 2 < pieces.size() + 1; i += 4) {
        const char piece = pieces[i];
        out += static_cast<char>(std::isupper(piece) ? std::tolower(piece) : std::toupper(piece));
        out += static_cast<char>('a' + ('f' - pieces[i + 1]));
        out += static_cast<char>('1' + ('9' - pieces[i + 2]));
        out += ' ';
    }
    return out;
}

TEST(ChessenceEval, TheHalfTurnWithColoursSwappedKeepsTheScore) {
    // The board is symmetric under a1 <-> f9, so the mirrored position is the same one for the
    // other side.
    const std::string pieces = "Kf1 ka9 Me1 Me2 Md3 Mc4 ma8 mb7 mb6";
    ASSERT_EQ(mirrored("Kf1 Me2"), "ka9 mb8 ");
    for (const char side : {'w', 'b'}) {
        const Position p = parse(chessence_test::fen_of(pieces, "Mmm", side, 0, 9));
        const Position q =
            parse(chessence_test::fen_of(mirrored(pieces), "MMm", side == 'w' ? 'b' : 'w', 0, 9));
        EXPECT_EQ(evaluate_chessence(p, chessence_weights()),
                  evaluate_chessence(q, chessence_weights()));
    }
}

TEST(ChessenceEval, FeaturesReadThePosition) {
    // White: e1 e2 (orthogonal pair), d3 (diagonal to e2); one reserve man, home squares d2 e3
    // f2 empty. Black: b7 a8 (diagonal pair), no reserve.
    const Position p = parse(chessence_test::fen_of("Kf1 ka9 Me1 Me2 Md3 ma8 mb7", "M", 'w', 0, 9));
    EXPECT_EQ(feature(p, 0, ChessenceFeature::men), 3);
    EXPECT_EQ(feature(p, 0, ChessenceFeature::reserve), 1);
    EXPECT_EQ(feature(p, 1, ChessenceFeature::reserve), 0);
    EXPECT_EQ(feature(p, 0, ChessenceFeature::rook_powers), 2);
    EXPECT_EQ(feature(p, 0, ChessenceFeature::bishop_powers), 2);
    EXPECT_EQ(feature(p, 0, ChessenceFeature::idle_men), 0);
    EXPECT_EQ(feature(p, 1, ChessenceFeature::bishop_powers), 2);
    EXPECT_EQ(feature(p, 1, ChessenceFeature::rook_powers), 0);
    EXPECT_EQ(feature(p, 0, ChessenceFeature::drop_squares), 3);
    EXPECT_EQ(feature(p, 1, ChessenceFeature::drop_squares), 0);
    EXPECT_EQ(feature(p, 0, ChessenceFeature::king_shield), 2);  // e1 and e2 touch f1
}

TEST(ChessenceEval, ScoreIsFromTheSideToMove) {
    const std::string pieces = "Kf1 ka9 Me1 Me2 Md3 Md2 ma8 mb7";
    const Position white = parse(chessence_test::fen_of(pieces, "M", 'w', 0, 9));
    const Position black = parse(chessence_test::fen_of(pieces, "M", 'b', 0, 9));
    const int tempo = chessence_weights().tempo;
    EXPECT_EQ(evaluate_chessence(white, chessence_weights()) - tempo,
              -(evaluate_chessence(black, chessence_weights()) - tempo));
    EXPECT_GT(evaluate_chessence(white, chessence_weights()), 0);  // two men and a reserve up
}

}  // namespace
