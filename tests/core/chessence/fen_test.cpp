#include "core/chessence/fen.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"
#include "core/chessence/playout.h"

namespace {

using namespace chessence_test;

// The error for `fen`, or "" when it parses.
std::string error_of(std::string_view fen) {
    const auto parsed = parse_position(fen);
    return parsed ? "" : parsed.error();
}

void expect_error(std::string_view fen, std::string_view part) {
    const std::string error = error_of(fen);
    EXPECT_NE(error.find(part), std::string::npos)
        << "position: " << fen << "\nerror: " << error << "\nexpected to mention: " << part;
}

TEST(ChessenceFen, StartStringRoundTrips) {
    const Position p = position_of(start_position_string);
    EXPECT_TRUE(same_for_repetition(p, start_position()));
    EXPECT_EQ(p.hash, start_position().hash);
    EXPECT_EQ(position_string(p), start_position_string);
}

TEST(ChessenceFen, ReferencePositionsRoundTrip) {
    for (const char* fen : {"k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[MMM] w 0 1",
                            "k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1",
                            "k5/m4*/4*1/2*3/1*M1*1/3*2/1*1M2/*5/5K[] w 0 1",
                            "k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1",
                            "6/5*/4*1/2*3/1*2*1/3*2/1*2k1/*5/K5[Mmmm] b 57 213"}) {
        EXPECT_EQ(position_string(position_of(fen)), fen);
    }
}

TEST(ChessenceFen, PositionsOfRandomGamesRoundTrip) {
    Rng rng(5);
    for (int game = 0; game < 50; ++game) {
        Position p = start_position();
        for (int ply = 0; ply < 200; ++ply) {
            const std::string fen = position_string(p);
            const auto back = parse_position(fen);
            ASSERT_TRUE(back.ok()) << fen << ": " << back.error();
            ASSERT_TRUE(same_for_repetition(*back, p)) << fen;
            ASSERT_EQ(back->quiet_plies, p.quiet_plies);
            ASSERT_EQ(back->move_number, p.move_number);
            ASSERT_EQ(back->hash, p.hash);
            ASSERT_EQ(position_string(*back), fen);
            MoveList list;
            generate_legal(p, list);
            if (list.empty()) {
                break;
            }
            make_move(p,
                      list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))]);
        }
    }
}

TEST(ChessenceFen, EveryAcceptedStringPrintsBackUnchanged) {
    // Random edits of valid strings: whatever is accepted must be canonical, so it round-trips.
    const std::string alphabet = "kKmM*123456789/[] wb0x-";
    Rng rng(17);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string fen(i % 2 == 0 ? start_position_string
                                   : "k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[Mm] b 7 12");
        const int edits = 1 + static_cast<int>(rng.below(2));
        for (int e = 0; e < edits; ++e) {
            const auto at = rng.below(static_cast<std::uint32_t>(fen.size()));
            const char c = alphabet[rng.below(static_cast<std::uint32_t>(alphabet.size()))];
            switch (rng.below(3)) {
                case 0:
                    fen[at] = c;
                    break;
                case 1:
                    fen.insert(fen.begin() + at, c);
                    break;
                default:
                    fen.erase(at, 1);
            }
        }
        const auto parsed = parse_position(fen);
        if (parsed) {
            ++accepted;
            ASSERT_EQ(position_string(*parsed), fen);
        } else {
            ASSERT_FALSE(parsed.error().empty()) << fen;
        }
    }
    EXPECT_GT(accepted, 100);
}

TEST(ChessenceFen, CountersAndSideAreRead) {
    const Position p = position_of("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMmm] b 12 34");
    EXPECT_EQ(p.side_to_move, Colour::black);
    EXPECT_EQ(p.quiet_plies, 12u);
    EXPECT_EQ(p.move_number, 34u);
    EXPECT_EQ(p.reserve[0], 2);
    EXPECT_EQ(p.reserve[1], 2);
}

TEST(ChessenceFenErrors, ManOnAMissingSquare) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1M1MM1/*2MMM/4MK[] w 0 1", "missing square b3");
    expect_error("km4/mmm2m/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1", "missing square f8");
}

TEST(ChessenceFenErrors, KingOnAMissingSquare) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/K2MMM/5M[] w 0 1",
                 "a king on the missing square a2");
}

TEST(ChessenceFenErrors, StarOnAnExistingSquare) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/*3MK[] w 0 1",
                 "'*' on a1, which is not a missing square");
}

TEST(ChessenceFenErrors, RunOfEmptySquaresMayNotCoverAMissingSquare) {
    expect_error("km4/mmm2*/1mm1*1/6/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1",
                 "covers the missing square c6");
}

TEST(ChessenceFenErrors, TwoDigitsInARow) {
    expect_error("km31/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1", "two digits in a row");
}

TEST(ChessenceFenErrors, RankOfWrongLength) {
    expect_error("km3/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1",
                 "rank 9 describes 5 squares; it needs 6");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK1[] w 0 1",
                 "rank 1 describes more than 6 squares");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMMm/4MK[] w 0 1",
                 "rank 2 describes more than 6 squares");
}

TEST(ChessenceFenErrors, WrongNumberOfRanks) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM[] w 0 1", "8 ranks; it needs 9");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK/6[] w 0 1", "10 ranks");
}

TEST(ChessenceFenErrors, TwoKingsOfOneColour) {
    expect_error("kk4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1",
                 "Black has more than one king");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/3KMK[] w 0 1",
                 "White has more than one king");
}

TEST(ChessenceFenErrors, MissingKing) {
    expect_error("mm4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1", "Black has no king");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MM[] w 0 1", "White has no king");
}

TEST(ChessenceFenErrors, MoreThanThreeReserveMen) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMM] w 0 1",
                 "White has 4 men in reserve; at most 3");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[mmmmm] w 0 1",
                 "Black has 5 men in reserve");
}

TEST(ChessenceFenErrors, ReservesInTheWrongOrderOrWithOtherLetters) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[mM] w 0 1", "before Black's");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MK] w 0 1", "not 'K'");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK w 0 1", "in brackets");
}

TEST(ChessenceFenErrors, UnknownPieceLetter) {
    expect_error("kq4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] w 0 1",
                 "rank 9: unexpected character 'q'");
}

TEST(ChessenceFenErrors, BadSideToMove) {
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] x 0 1", "'w' or 'b', not 'x'");
    expect_error("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[] W 0 1", "not 'W'");
}

TEST(ChessenceFenErrors, BadCounters) {
    const std::string board = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[]";
    expect_error(board + " w -1 1", "plies without capture or drop must be a whole number");
    expect_error(board + " w x 1", "not 'x'");
    expect_error(board + " w 01 1", "without leading zeros");
    expect_error(board + " w 0 0", "the move number must be a whole number from 1");
    expect_error(board + " w 0 99999999999", "the move number");
    expect_error(board + " w 0", "after the reserves");
    expect_error(board + " w 0 1 5", "after the reserves");
    expect_error(board + " w  0 1", "plies");
    expect_error(board + "w 0 1", "after the reserves");
    expect_error(board + " w 0 1 ", "after the reserves");
    expect_error("", "brackets");
}

}  // namespace
