#include "core/sniderman/position.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/sniderman/deal.h"

namespace core::sniderman {
namespace {

Position parsed(std::string_view text) {
    const auto p = parse_position(text);
    EXPECT_TRUE(p.ok()) << text << ": " << (p.ok() ? "" : p.error());
    return p.ok() ? *p : Position{};
}

std::vector<std::string> capture_names(const Position& p) {
    std::vector<std::string> names;
    for (const Move m : generate_captures(p)) {
        names.push_back(move_name(m));
    }
    std::sort(names.begin(), names.end());
    return names;
}

TEST(SnidermanPosition, ReferenceRoundTrips) {
    const Position p = parsed(reference_fen);
    EXPECT_EQ(format_position(p), reference_fen);
    EXPECT_EQ(p.piece_count(), 16);
    EXPECT_EQ(p.at(make_square(0, 0)), make_piece(Colour::white, Kind::rook));
    EXPECT_EQ(p.at(make_square(3, 2)), make_piece(Colour::black, Kind::king));
    EXPECT_TRUE(p.odd_to_move());
}

TEST(SnidermanPosition, PartialBoardsRoundTrip) {
    for (const char* text : {"4/4/4/4 1", "K3/4/2q1/3n 12", "1b1B/4/r3/3k 2", "4/2N1/4/4 999"}) {
        EXPECT_EQ(format_position(parsed(text)), text);
    }
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const Position p = deal(seed);
        EXPECT_EQ(parsed(format_position(p)), p);
    }
}

TEST(SnidermanPosition, MalformedStringsSayWhatIsWrong) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"qbnr/rnbk/KBNR/RNBQ", "space"},
        {"qbnr/rnbk/KBNR 1", "4 ranks"},
        {"qbnr/rnbk/KBNR/RNBQ/4 1", "4 ranks"},
        {"qbnr/rnbk/KBNR/RNB 1", "rank 1 describes only 3"},
        {"qbnrk/rnbk/KBNR/RNBQ 1", "rank 4 describes more than 4"},
        {"qbnr/rnpk/KBNR/RNBQ 1", "unexpected character 'p'"},
        {"qbnr/rn5/KBNR/RNBQ 1", "unexpected character '5'"},
        {"4/22/4/4 1", "one digit"},
        {"qbnr/rnbk/KBNR/RNBQ 0", "ply number"},
        {"qbnr/rnbk/KBNR/RNBQ x", "ply number"},
        {"qbnr/rnbk/KBNR/RNBQ 1 ", "ply number"},
        {"qbnr/rnbk/KBNR/RNBQ -3", "ply number"},
    };
    for (const auto& [text, expected] : cases) {
        const auto p = parse_position(text);
        ASSERT_FALSE(p.ok()) << text;
        EXPECT_NE(p.error().find(expected), std::string::npos) << text << ": " << p.error();
    }
}

TEST(SnidermanNotation, AcceptsCaptureAndDashPrintsCapture) {
    const auto a = parse_move("a1xb2");
    const auto b = parse_move("a1-b2");
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(*a, *b);
    EXPECT_EQ(move_name(*b), "a1xb2");
    EXPECT_EQ(a->from, make_square(0, 0));
    EXPECT_EQ(a->to, make_square(1, 1));
    for (const char* bad : {"a1b2", "a1xe2", "a5xb2", "a1xb", "", "a1xb2x", "a1/b2"}) {
        EXPECT_FALSE(parse_move(bad).ok()) << bad;
    }
}

TEST(SnidermanNotation, IllegalCapturesAreExplained) {
    const Position p = parsed("4/4/4/KR1q 1");
    EXPECT_TRUE(parse_legal_move(p, "b1xd1").ok());
    EXPECT_NE(parse_legal_move(p, "c1xd1").error().find("no piece"), std::string::npos);
    EXPECT_NE(parse_legal_move(p, "a1xb1").error().find("other colour"), std::string::npos);
    EXPECT_NE(parse_legal_move(p, "a1xd1").error().find("cannot reach"), std::string::npos);
}

TEST(SnidermanMoves, SlidersStopAtTheFirstPieceAndBothColoursCapture) {
    // White: rooks a1 and b4, knight c3; Black: king a4, bishop b1, rook d1. The rook on a1 takes
    // b1 and a4 up the empty file; the rook on b4 takes a4 and, down the file, b1; the knight
    // leaps to a4, b1 and d1; the king takes b4. The black rook on d1 is stopped by its own
    // bishop on b1 before the rook on a1; the bishop on b1 sees only empty squares.
    const Position p = parsed("kR2/2N1/4/Rb1r 1");
    EXPECT_EQ(capture_names(p), (std::vector<std::string>{"a1xa4", "a1xb1", "a4xb4", "b4xa4",
                                                          "b4xb1", "c3xa4", "c3xb1", "c3xd1"}));
}

TEST(SnidermanMoves, RoundEndsWithoutCaptures) {
    EXPECT_FALSE(has_capture(parsed("K3/4/4/3k 1")));
    EXPECT_FALSE(has_capture(parsed("KQRB/NN2/4/4 1")));
    EXPECT_TRUE(has_capture(parsed("K3/1k2/4/4 1")));
}

// Every line of tests/data/sniderman_perft.txt: "<position> ; <depth> <count> ; ...".
TEST(SnidermanPerft, ReferenceCaptureSequences) {
    std::ifstream in(std::string(CHESSENCE_TEST_DATA_DIR) + "/sniderman_perft.txt");
    ASSERT_TRUE(in.good());
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        std::string fen;
        std::getline(fields, fen, ';');
        const Position p = parsed(fen.substr(0, fen.find_last_not_of(' ') + 1));
        std::string item;
        while (std::getline(fields, item, ';')) {
            std::istringstream numbers(item);
            int depth = 0;
            std::uint64_t count = 0;
            ASSERT_TRUE(numbers >> depth >> count) << item;
            EXPECT_EQ(perft(p, depth), count) << fen << " depth " << depth;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 6);
}

TEST(SnidermanPerft, MakeMoveKeepsTheBoardConsistent) {
    Rng rng(5);
    Position p = deal(rng);
    while (has_capture(p)) {
        const MoveList moves = generate_captures(p);
        const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint64_t>(moves.size)))];
        const PieceCode mover = p.at(m.from);
        const Position next = make_move(p, m);
        EXPECT_EQ(next.at(m.to), mover);
        EXPECT_EQ(next.at(m.from), no_piece);
        EXPECT_EQ(next.piece_count(), p.piece_count() - 1);
        EXPECT_EQ(next.ply, p.ply + 1);
        EXPECT_EQ(parsed(format_position(next)), next);
        p = next;
    }
}

}  // namespace
}  // namespace core::sniderman
