#include "core/chesica/perft.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/chesica/fen.h"
#include "tests/core/chesica/chesica_test_helpers.h"

namespace {

// The non-comment lines of a file in tests/data.
std::vector<std::string> data_lines(const std::string& name) {
    std::ifstream in(std::string(CHESSENCE_TEST_DATA_DIR) + "/" + name);
    EXPECT_TRUE(in.good()) << name;
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line[0] != '#') {
            lines.push_back(line);
        }
    }
    return lines;
}

// perft by playing every legal move through the Game interface: slow, but independent of the
// bulk counting and the move stack of the fast perft.
std::uint64_t slow_perft(const core::Game& game, int depth) {
    if (depth == 0) {
        return 1;
    }
    std::uint64_t leaves = 0;
    for (const auto& move : game.legal_moves()) {
        auto child = game.clone();
        EXPECT_TRUE(child->play(move).ok()) << move;
        leaves += slow_perft(*child, depth - 1);
    }
    return leaves;
}

}  // namespace

TEST(ChesicaPerft, FromTheStartMatchesTheReference) {
    const auto lines = data_lines("chesica_perft.txt");
    ASSERT_EQ(lines.size(), 5u);
    const std::vector<core::chesica::Position> start{core::chesica::start_position()};
    for (const auto& line : lines) {
        std::istringstream fields(line);
        int depth = 0;
        std::uint64_t nodes = 0;
        fields >> depth >> nodes;
        EXPECT_EQ(core::chesica::perft(start, depth, core::RuleSet::house), nodes)
            << "depth " << depth;
    }
}

TEST(ChesicaPerft, ReferencePositionsHaveExactlyTheirLegalMoves) {
    const auto lines = data_lines("chesica_reference_positions.txt");
    ASSERT_EQ(lines.size(), 6u);
    for (const auto& line : lines) {
        const auto bar = line.find(" |");
        ASSERT_NE(bar, std::string::npos) << line;
        const std::string fen = line.substr(0, bar);
        std::istringstream rest(line.substr(bar + 2));
        chesica_test::Moves expected;
        for (std::string move; rest >> move;) {
            expected.push_back(move);
        }
        auto game = chesica_test::game_from(fen);
        EXPECT_EQ(game->legal_moves(), expected) << fen;
        EXPECT_EQ(game->perft(1), expected.size()) << fen;
    }
}

TEST(ChesicaPerft, AgreesWithPlayingEveryLegalMove) {
    for (const char* fen : {"8/8/1r1r4/8/1r1r4/2+R5/8/7q w 0 1", "7+r/8/8/2b5/8/8/1B6/+R7 w 0 1",
                            "8/2r1r3/1+R6/8/3b4/2Q5/8/3+q4 w 0 1"}) {
        auto game = chesica_test::game_from(fen);
        for (int depth = 1; depth <= 3; ++depth) {
            EXPECT_EQ(game->perft(depth), slow_perft(*game, depth)) << fen << " depth " << depth;
        }
    }
    auto start = chesica_test::game_from("");
    EXPECT_EQ(slow_perft(*start, 3), 23983u);
}

TEST(ChesicaPerft, DivideSumsToPerftInLegalMoveOrder) {
    auto game = chesica_test::game_from("");
    const auto parts = game->divide(3);
    std::uint64_t sum = 0;
    chesica_test::Moves order;
    for (const auto& [move, leaves] : parts) {
        sum += leaves;
        order.push_back(move);
    }
    EXPECT_EQ(sum, game->perft(3));
    EXPECT_EQ(order, game->legal_moves());
}

TEST(ChesicaPerft, TakesTheBanFromTheGameHistory) {
    // Both promoted Rooks shuffle; after 7 plies Black's return to h8 would be the start
    // position's third occurrence, so perft from there leaves it out.
    auto game = chesica_test::game_from("7+r/8/8/8/8/8/8/+R7 w 0 1");
    chesica_test::play_all(*game, {"a1-a2", "h8-h7", "a2-a1", "h7-h8", "a1-a2", "h8-h7", "a2-a1"});
    const auto fresh = chesica_test::game_from(game->fen());
    EXPECT_EQ(fresh->perft(1), game->perft(1) + 1);
    EXPECT_EQ(game->perft(1), game->legal_moves().size());
    EXPECT_EQ(game->perft(2), slow_perft(*game, 2));
    EXPECT_EQ(game->perft(3), slow_perft(*game, 3));
}

TEST(ChesicaPerft, HouseDrawEndsTheTreeButStrictGoesOn) {
    const std::string fen = "7+r/8/8/8/8/8/8/+R7 w 99 80";
    auto house = chesica_test::game_from(fen);
    auto strict = chesica_test::game_from(fen, core::RuleSet::strict);
    EXPECT_EQ(house->perft(2), 0u);  // every move reaches 100 plies without a capture
    EXPECT_EQ(house->perft(1), strict->perft(1));
    EXPECT_GT(strict->perft(2), 0u);
    EXPECT_EQ(strict->perft(2), slow_perft(*strict, 2));
    EXPECT_EQ(house->perft(2), slow_perft(*house, 2));
}
