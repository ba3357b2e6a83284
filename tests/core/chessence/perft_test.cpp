#include "core/chessence/perft.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "chessence_test_support.h"

namespace {

using namespace chessence_test;

struct PerftCase {
    int depth;
    std::uint64_t nodes;
    std::string fen;
};

std::vector<PerftCase> read_perft_table() {
    std::ifstream in(std::string(CHESSENCE_TEST_DATA_DIR) + "/chessence_perft.txt");
    std::vector<PerftCase> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        PerftCase c;
        fields >> c.depth >> c.nodes >> std::ws;
        std::getline(fields, c.fen);
        cases.push_back(c);
    }
    return cases;
}

// perft without bulk counting: every leaf is made.
std::uint64_t slow_perft(const Position& p, int depth) {
    if (depth == 0) {
        return 1;
    }
    MoveList list;
    generate_legal(p, list);
    std::uint64_t nodes = 0;
    for (const Move move : list) {
        Position next = p;
        make_move(next, move);
        nodes += slow_perft(next, depth - 1);
    }
    return nodes;
}

TEST(ChessencePerft, ReferenceTableMatches) {
    const auto cases = read_perft_table();
    ASSERT_EQ(cases.size(), 8u);
    for (const auto& c : cases) {
        EXPECT_EQ(perft(position_of(c.fen), c.depth), c.nodes) << c.fen << " depth " << c.depth;
    }
}

TEST(ChessencePerft, StartPerftOneToFour) {
    const Position start = start_position();
    EXPECT_EQ(perft(start, 0), 1u);
    EXPECT_EQ(perft(start, 1), 36u);
    EXPECT_EQ(perft(start, 2), 1294u);
    EXPECT_EQ(perft(start, 3), 46194u);
    EXPECT_EQ(perft(start, 4), 1646909u);
}

TEST(ChessencePerft, DepthThreeIncludes1294Drops) {
    const Position start = start_position();
    std::uint64_t drops = 0;
    MoveList first;
    generate_legal(start, first);
    for (const Move a : first) {
        Position p1 = start;
        make_move(p1, a);
        MoveList second;
        generate_legal(p1, second);
        for (const Move b : second) {
            Position p2 = p1;
            make_move(p2, b);
            MoveList third;
            generate_legal(p2, third);
            for (const Move c : third) {
                drops += c.is_drop() ? 1 : 0;
            }
        }
    }
    EXPECT_EQ(drops, 1294u);
}

TEST(ChessencePerft, BulkCountingAgreesWithMakingEveryLeaf) {
    for (const auto& c : read_perft_table()) {
        const Position p = position_of(c.fen);
        EXPECT_EQ(perft(p, 3), slow_perft(p, 3)) << c.fen;
    }
}

TEST(ChessencePerft, ReferencePositionsHaveTheListedMoves) {
    EXPECT_EQ(legal_names(position_of("k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[MMM] w 0 1")),
              (Names{"@e1"}));
    EXPECT_EQ(legal_names(position_of("k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1")),
              (Names{"c3xb2", "d2-c1", "d2-e1"}));
    EXPECT_EQ(legal_names(position_of("k5/m4*/4*1/2*3/1*M1*1/3*2/1*1M2/*5/5K[] w 0 1")),
              (Names{"c5-a4", "c5-a6", "c5-b7", "c5-d7", "c5-e4", "c5-e6", "d3-b2", "d3-b4",
                     "d3-c1", "d3-e1", "d3-f2", "d3-f4"}));
    EXPECT_TRUE(legal_names(position_of("k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1")).empty());
}

}  // namespace
