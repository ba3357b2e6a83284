// choose_move and Engine (core/engine/engine.h): errors, legality across many random positions,
// determinism for a seed and node limit, the node, depth and stop limits, the levels, the house
// rules in search, and Sniderman through the exact solver.
#include "core/engine/engine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "core/chessence/chessence_test_support.h"
#include "core/sniderman/puzzle.h"
#include "engine_test_support.h"

namespace {

using core::RuleSet;
using core::VariantId;
using core::engine::choose_move;
using core::engine::SearchLimits;
using core::engine::SearchResult;
using engine_test::game_of;
using engine_test::is_legal;
using engine_test::random_game;

SearchLimits node_limit(std::uint64_t nodes) {
    SearchLimits limits;
    limits.max_nodes = nodes;
    return limits;
}

TEST(ChooseMove, RejectsLevelsOutsideOneToEight) {
    const auto game = random_game(VariantId::chessence, 1, 0);
    EXPECT_FALSE(choose_move(*game, 0, node_limit(100), 1).ok());
    EXPECT_FALSE(choose_move(*game, 9, node_limit(100), 1).ok());
    EXPECT_TRUE(choose_move(*game, 1, node_limit(100), 1).ok());
}

TEST(ChooseMove, RejectsAFinishedGame) {
    // RULES.md: White has no legal move here and has lost.
    const auto game = game_of(VariantId::chessence, "k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1");
    ASSERT_TRUE(game->outcome().has_value());
    const auto result = choose_move(*game, 8, node_limit(100), 1);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("over"), std::string::npos);
}

TEST(ChooseMove, AlwaysLegalAcrossRandomPositions) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        for (std::uint64_t seed = 0; seed < 150; ++seed) {
            const auto game = random_game(variant, seed, static_cast<int>(seed % 90));
            if (game->outcome()) {
                continue;
            }
            const int level = 1 + static_cast<int>(seed % 8);
            const auto result = choose_move(*game, level, node_limit(1500 + seed * 7), seed);
            ASSERT_TRUE(result.ok()) << game->fen();
            EXPECT_TRUE(is_legal(*game, result->best_move))
                << core::variant_name(variant) << " " << game->fen() << ": " << result->best_move;
        }
    }
}

TEST(ChooseMove, SameSeedAndNodeLimitGiveTheSameResult) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        for (const int level : {3, 8}) {
            const auto game = random_game(variant, 7, 12);
            const auto first = choose_move(*game, level, node_limit(20000), 99);
            const auto second = choose_move(*game, level, node_limit(20000), 99);
            ASSERT_TRUE(first.ok() && second.ok());
            EXPECT_EQ(first->best_move, second->best_move);
            EXPECT_EQ(first->nodes, second->nodes);
            EXPECT_EQ(first->pv, second->pv);
            EXPECT_EQ(first->score_cp, second->score_cp);
        }
    }
}

TEST(ChooseMove, NeverSearchesMoreNodesThanAllowed) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        for (const std::uint64_t nodes : {1u, 10u, 1000u, 30000u}) {
            const auto game = random_game(variant, nodes, 10);
            const auto result = choose_move(*game, 8, node_limit(nodes), 5);
            ASSERT_TRUE(result.ok());
            EXPECT_LE(result->nodes, nodes);
            EXPECT_TRUE(is_legal(*game, result->best_move));
        }
    }
}

TEST(ChooseMove, HonoursTheDepthLimit) {
    const auto game = random_game(VariantId::chesica, 3, 6);
    SearchLimits limits;
    limits.max_depth = 3;
    const auto result = choose_move(*game, 8, limits, 1);
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->depth, 3);
}

TEST(ChooseMove, StopsAtOnceWhenTheStopFlagIsSet) {
    std::atomic<bool> stop{true};
    SearchLimits limits;
    limits.stop = &stop;
    const auto game = random_game(VariantId::chessence, 11, 8);
    const auto result = choose_move(*game, 8, limits, 1);
    ASSERT_TRUE(result.ok());
    EXPECT_TRUE(is_legal(*game, result->best_move));
    EXPECT_LT(result->nodes, 5000u);
}

TEST(ChooseMove, AnotherThreadCanStopAnUnlimitedSearch) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.stop = &stop;  // no time, node or depth limit: only the flag ends it
        int deepest = 0;
        limits.on_iteration = [&](const SearchResult& r) {
            deepest = r.depth;
            if (r.depth >= 4) {
                std::thread([&stop] { stop = true; }).join();
            }
        };
        const auto game = random_game(variant, 21, 10);
        const auto result = choose_move(*game, 8, limits, 1);
        ASSERT_TRUE(result.ok());
        EXPECT_TRUE(stop.load());
        EXPECT_GE(deepest, 4);
        EXPECT_TRUE(is_legal(*game, result->best_move));
    }
}

TEST(ChooseMove, LowLevelsVaryWithTheSeedAndLevelEightDoesNot) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        const auto game = random_game(variant, 5, 10);
        std::set<std::string> level_one, level_eight;
        for (std::uint64_t seed = 0; seed < 12; ++seed) {
            level_one.insert(choose_move(*game, 1, node_limit(5000), seed)->best_move);
            level_eight.insert(choose_move(*game, 8, node_limit(5000), seed)->best_move);
        }
        EXPECT_GE(level_one.size(), 3u) << core::variant_name(variant);
        EXPECT_EQ(level_eight.size(), 1u) << core::variant_name(variant);
    }
}

TEST(ChooseMove, HigherLevelsSearchDeeper) {
    const auto game = random_game(VariantId::chessence, 8, 10);
    SearchLimits limits;
    limits.max_nodes = 2'000'000;
    const auto low = choose_move(*game, 2, limits, 1);
    const auto high = choose_move(*game, 6, limits, 1);
    ASSERT_TRUE(low.ok() && high.ok());
    EXPECT_LT(low->depth, high->depth);
}

// Level 7 uses half of what level 8 may, of a node limit as of the time.
TEST(ChooseMove, LevelSevenUsesHalfTheNodeLimit) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        const auto game = random_game(variant, 3, 8);
        const auto seven = choose_move(*game, 7, node_limit(20'000), 1);
        const auto eight = choose_move(*game, 8, node_limit(20'000), 1);
        ASSERT_TRUE(seven.ok() && eight.ok()) << core::variant_name(variant);
        EXPECT_LE(seven->nodes, 10'000u) << core::variant_name(variant);
        EXPECT_GT(eight->nodes, 10'000u) << core::variant_name(variant);
    }
}

// White is far behind and has only quiet moves; at 99 plies without a capture or drop, every
// move ends the game by the 100-ply rule under the house rules, but not under the strict ones.
TEST(ChooseMove, HundredPlyRuleIsADrawInSearch) {
    const std::string fen =
        chessence_test::fen_of("Kf1 ka9 Me1 Me2 ma8 mb8 mb9 mb7 mc8 mc7", "mmm", 'w', 99, 60);
    const auto house =
        choose_move(*game_of(VariantId::chessence, fen, RuleSet::house), 8, node_limit(200000), 1);
    const auto strict =
        choose_move(*game_of(VariantId::chessence, fen, RuleSet::strict), 8, node_limit(200000), 1);
    ASSERT_TRUE(house.ok() && strict.ok());
    EXPECT_EQ(house->score_cp, 0);
    EXPECT_LT(strict->score_cp, -300);
}

// Rule 5: after two round trips of both promoted queens, Black's return g7-h8 would make the
// third occurrence of the position; the engine never plays it.
TEST(ChooseMove, NeverPlaysAChesicaThirdOccurrence) {
    auto game = game_of(VariantId::chesica, "7+q/8/8/8/8/8/8/+Q7 w 0 1");
    for (const char* move : {"a1-b2", "h8-g7", "b2-a1", "g7-h8", "a1-b2", "h8-g7", "b2-a1"}) {
        ASSERT_TRUE(game->play(move).ok()) << move;
    }
    ASSERT_FALSE(is_legal(*game, "g7-h8"));
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        for (const int level : {1, 8}) {
            const auto result = choose_move(*game, level, node_limit(20000), seed);
            ASSERT_TRUE(result.ok());
            EXPECT_TRUE(is_legal(*game, result->best_move)) << result->best_move;
        }
    }
}

TEST(ChooseMove, SnidermanNeedsAnObject) {
    const auto game = std::move(core::make_game(VariantId::sniderman).value());
    const auto result = choose_move(*game, 8, node_limit(100), 1);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("object"), std::string::npos);
}

TEST(ChooseMove, SnidermanLevelEightPlaysThePuzzleAnswer) {
    namespace sn = core::sniderman;
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const sn::Puzzle puzzle = sn::make_puzzle(seed);
        core::GameOptions options;
        options.fen = sn::format_position(puzzle.start);
        options.object = sn::object_number(puzzle.object);
        auto game = std::move(core::make_game(VariantId::sniderman, options).value());
        for (const sn::Move m : puzzle.moves) {
            ASSERT_TRUE(game->play(sn::move_name(m)).ok());
        }
        const auto result = choose_move(*game, 8, node_limit(100), seed);
        ASSERT_TRUE(result.ok());
        EXPECT_EQ(result->best_move, sn::move_name(puzzle.answer));
        EXPECT_GT(result->score_cp, 0);
    }
}

// search_moves (issue 25, the puzzle finder's "every move but the best"): only those root moves
// are searched, a single one is searched deeper than depth 1, and none legal is an error.
TEST(ChooseMove, SearchMovesLimitTheRoot) {
    for (const auto variant : {VariantId::chessence, VariantId::chesica}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const auto game = random_game(variant, seed, 12);
            const auto legal = game->legal_moves();
            if (legal.size() < 3) {
                continue;
            }
            const auto best = choose_move(*game, 8, node_limit(20000), 1);
            ASSERT_TRUE(best.ok());
            auto others = legal;
            others.erase(std::find(others.begin(), others.end(), best->best_move));
            SearchLimits limits = node_limit(20000);
            limits.search_moves = others;
            const auto second = choose_move(*game, 8, limits, 1);
            ASSERT_TRUE(second.ok()) << second.error();
            EXPECT_NE(second->best_move, best->best_move) << game->fen();
            EXPECT_TRUE(is_legal(*game, second->best_move));
            EXPECT_LE(second->score_cp, best->score_cp + 60) << game->fen();

            limits.search_moves = {legal.back()};
            const auto single = choose_move(*game, 8, limits, 1);
            ASSERT_TRUE(single.ok());
            EXPECT_EQ(single->best_move, legal.back());
            EXPECT_GT(single->depth, 1);
        }
    }
}

TEST(ChooseMove, SearchMovesNoneOfWhichIsLegalAreAnError) {
    const auto game = random_game(VariantId::chessence, 3, 6);
    SearchLimits limits = node_limit(1000);
    limits.search_moves = {"a1-a1"};
    const auto result = choose_move(*game, 8, limits, 1);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("search moves"), std::string::npos);
}

}  // namespace
