#include "server/bots/bot_think.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/sniderman/objects.h"
#include "core/sniderman/puzzle.h"
#include "core/sniderman/solver.h"

namespace {

namespace bot_sn = core::sniderman;

// A Sniderman round in the middle of a real deal (a puzzle's position, small enough to solve in
// milliseconds), with `object` named (0: not yet).
std::unique_ptr<core::Game> think_test_round(const bot_sn::Puzzle& puzzle, int object) {
    core::GameOptions options;
    options.fen = bot_sn::format_position(puzzle.start);
    options.object = object;
    auto game = core::make_game(core::VariantId::sniderman, options);
    EXPECT_TRUE(game.ok()) << game.error();
    for (const auto move : puzzle.moves) {
        EXPECT_TRUE((*game)->play(bot_sn::move_name(move)).ok());
    }
    return std::move(*game);
}

// At level 8 the chooser takes the side the solver says wins, whatever the object.
TEST(BotThink, SnidermanChooserTakesTheWinningSide) {
    const auto puzzle = bot_sn::make_puzzle(11);
    bot_sn::Solver solver;
    for (int object = 1; object <= bot_sn::object_count; ++object) {
        server::BotJob job;
        job.task = server::BotTask::choose_side;
        job.level = 8;
        job.game = think_test_round(puzzle, object);
        const std::atomic<bool> stop{false};
        const auto answer = server::think(job, stop);
        ASSERT_FALSE(answer.error.has_value()) << *answer.error;
        EXPECT_EQ(answer.odd,
                  solver.odd_wins(puzzle.position, puzzle.history, *bot_sn::to_object(object)))
            << "object " << object;
    }
}

// At level 8 the namer names an object whose winning line is narrowest: the side to move wins
// with a single first capture (the puzzle's object is one, so there is one to find).
TEST(BotThink, SnidermanNamerNamesANarrowObject) {
    const auto puzzle = bot_sn::make_puzzle(11);
    server::BotJob job;
    job.task = server::BotTask::name_object;
    job.level = 8;
    job.move_time = std::chrono::minutes(1);
    job.objects = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    job.game = think_test_round(puzzle, 0);
    const std::atomic<bool> stop{false};
    const auto answer = server::think(job, stop);
    ASSERT_FALSE(answer.error.has_value()) << *answer.error;
    ASSERT_GE(answer.object, 1);
    ASSERT_LE(answer.object, 10);
    bot_sn::Solver solver;
    const auto solution =
        solver.solve(puzzle.position, puzzle.history, *bot_sn::to_object(answer.object), 2);
    EXPECT_EQ(solution.odd_wins, puzzle.position.odd_to_move()) << "object " << answer.object;
    EXPECT_EQ(solution.winning_moves.size(), 1u) << "object " << answer.object;
}

TEST(BotThink, AMoveIsLegal) {
    server::BotJob job;
    job.game = *core::make_game(core::VariantId::chesica);
    job.level = 3;
    job.move_time = std::chrono::milliseconds(20);
    const std::atomic<bool> stop{false};
    const auto answer = server::think(job, stop);
    ASSERT_FALSE(answer.error.has_value());
    const auto legal = job.game->legal_moves();
    EXPECT_NE(std::find(legal.begin(), legal.end(), answer.move), legal.end()) << answer.move;
}

}  // namespace
