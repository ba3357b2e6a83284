// Game analysis (issue 25): winning chances, judgements and accuracy as numbers, and the analysis
// of short real games of each variant — a Chessence win thrown away into a repetition, a Chesica
// game to its last capture, a Sniderman round whose first capture loses a won round.
#include "core/engine/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/engine/engine.h"
#include "engine_test_support.h"

namespace {

using core::Side;
using core::VariantId;
using core::engine::Evaluation;
using core::engine::Judgement;
using Kind = core::engine::Evaluation::Kind;

TEST(AnalysisNumbers, WinningChancesFollowTheCurveAndItsCaps) {
    using core::engine::win_percent;
    EXPECT_DOUBLE_EQ(win_percent(VariantId::chessence, {Kind::cp, 0}, Side::first), 50);
    // A Chessence man (257 units) is worth more than a Chesica bishop (100).
    const double man = win_percent(VariantId::chessence, {Kind::cp, 257}, Side::first);
    const double bishop = win_percent(VariantId::chesica, {Kind::cp, 100}, Side::first);
    EXPECT_GT(man, 75);
    EXPECT_LT(man, 90);
    EXPECT_GT(bishop, 55);
    EXPECT_LT(bishop, 65);
    EXPECT_NEAR(win_percent(VariantId::chesica, {Kind::cp, -100}, Side::first), 100 - bishop, 1e-9);
    // The other side sees the complement.
    EXPECT_NEAR(win_percent(VariantId::chessence, {Kind::cp, 257}, Side::second), 100 - man, 1e-9);
    // A forced mate counts as the cap, as a huge score does; a result is certain.
    const double mate = win_percent(VariantId::chessence, {Kind::mate, 3}, Side::first);
    EXPECT_NEAR(mate, 97.5, 0.1);
    EXPECT_DOUBLE_EQ(win_percent(VariantId::chessence, {Kind::cp, 30000}, Side::first), mate);
    EXPECT_NEAR(win_percent(VariantId::chesica, {Kind::mate, -2}, Side::first), 2.5, 0.1);
    EXPECT_DOUBLE_EQ(win_percent(VariantId::sniderman, {Kind::result, 1}, Side::first), 100);
    EXPECT_DOUBLE_EQ(win_percent(VariantId::sniderman, {Kind::result, 1}, Side::second), 0);
    EXPECT_DOUBLE_EQ(win_percent(VariantId::chesica, {Kind::result, 0}, Side::second), 50);
}

TEST(AnalysisNumbers, JudgementsAreDropsOfFiveTenAndFifteenPoints) {
    using core::engine::judge_move;
    EXPECT_EQ(judge_move(50, 45.1), Judgement::none);
    EXPECT_EQ(judge_move(50, 45), Judgement::inaccuracy);
    EXPECT_EQ(judge_move(60, 50.5), Judgement::inaccuracy);
    EXPECT_EQ(judge_move(60, 50), Judgement::mistake);
    EXPECT_EQ(judge_move(60, 45.1), Judgement::mistake);
    EXPECT_EQ(judge_move(60, 45), Judgement::blunder);
    EXPECT_EQ(judge_move(100, 0), Judgement::blunder);
    EXPECT_EQ(judge_move(20, 90), Judgement::none);  // a gain is never a mistake
    EXPECT_EQ(core::engine::judgement_name(Judgement::blunder), "blunder");
    EXPECT_EQ(core::engine::judgement_name(Judgement::none), "");
}

TEST(AnalysisNumbers, AccuracyOfMovesAndOfASide) {
    using core::engine::game_accuracy;
    using core::engine::move_accuracy;
    EXPECT_NEAR(move_accuracy(60, 60), 100, 0.01);
    EXPECT_NEAR(move_accuracy(40, 70), 100, 0.01);  // no drop
    EXPECT_NEAR(move_accuracy(60, 50), 103.1668 * std::exp(-0.4354) - 3.1669, 1e-9);
    EXPECT_DOUBLE_EQ(move_accuracy(100, 0), 0);  // clamped at 0
    EXPECT_FALSE(game_accuracy({}).has_value());
    EXPECT_NEAR(*game_accuracy({100, 100, 100}), 100, 1e-9);
    // One move at 0 weighs in the harmonic mean as 1: (50 + 2 / 1.01) / 2.
    EXPECT_NEAR(*game_accuracy({100, 0}), (50 + 2 / 1.01) / 2, 1e-9);
    EXPECT_LT(*game_accuracy({90, 90, 10}), *game_accuracy({70, 70, 70}));
}

// The moves judged from the positions' evaluations (no search): who moved, the evaluation after
// each move, the line before it, the judgement.
TEST(AnalysisNumbers, MovesAreJudgedFromThePositionsAroundThem) {
    std::vector<core::engine::PositionAnalysis> positions(4);
    positions[0] = {Side::first, {Kind::cp, 20}, "a3-b4", {"a3-b4", "b6-a5"}, 100};
    positions[1] = {Side::second, {Kind::cp, 10}, "b6-c5", {"b6-c5"}, 100};
    positions[2] = {Side::first, {Kind::cp, 640}, "b4xd6", {"b4xd6"}, 100};
    positions[3] = {Side::second, {Kind::mate, -1}, "h6-g5", {"h6-g5"}, 100};
    const auto moves =
        core::engine::judge_moves(VariantId::chesica, {"c3-b4", "f6-e5", "g3-h4"}, positions);
    ASSERT_EQ(moves.size(), 3u);
    EXPECT_EQ(moves[0].ply, 1);
    EXPECT_EQ(moves[0].mover, Side::first);
    EXPECT_EQ(moves[0].best, "a3-b4");
    EXPECT_EQ(moves[0].pv, (std::vector<std::string>{"a3-b4", "b6-a5"}));
    EXPECT_EQ(moves[0].eval, (Evaluation{Kind::cp, 10}));
    EXPECT_EQ(moves[0].judgement, Judgement::none);
    EXPECT_EQ(moves[1].mover, Side::second);
    EXPECT_EQ(moves[1].judgement, Judgement::blunder);  // Black gave away six bishops' worth
    EXPECT_EQ(moves[1].best, "b6-c5");
    EXPECT_LT(moves[1].accuracy, 50);
    // White turned +640 into being mated: from about 88 % to 2.5 %.
    EXPECT_EQ(moves[2].judgement, Judgement::blunder);
    EXPECT_NEAR(moves[2].win, 2.5, 0.1);
}

TEST(AnalysisPositions, AFinishedGameIsItsResultAndHasNoBestMove) {
    auto over =
        engine_test::game_of(VariantId::chessence, "k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[] w 0 1");
    const auto analysed = core::engine::analyse_position(*over, 1000);
    ASSERT_TRUE(analysed.ok()) << analysed.error();
    EXPECT_EQ(analysed->eval, (Evaluation{Kind::result, -1}));  // Black checkmated White
    EXPECT_TRUE(analysed->best.empty());
    EXPECT_TRUE(analysed->pv.empty());
}

TEST(AnalysisPositions, ASearchIsDeterministicAndFromTheFirstSidesView) {
    auto game = engine_test::random_game(VariantId::chessence, 3, 5);  // Black to move
    ASSERT_EQ(game->to_move(), Side::second);
    const auto once = core::engine::analyse_position(*game, 20000);
    const auto again = core::engine::analyse_position(*game, 20000);
    ASSERT_TRUE(once.ok() && again.ok());
    EXPECT_EQ(once->eval, again->eval);
    EXPECT_EQ(once->pv, again->pv);
    EXPECT_EQ(once->to_move, Side::second);
    EXPECT_TRUE(engine_test::is_legal(*game, once->best));
    EXPECT_EQ(once->pv.front(), once->best);
    // The engine's own score is the mover's: the analysis turns it to White's.
    core::engine::SearchLimits limits;
    limits.max_nodes = 20000;
    core::engine::Engine engine(4);  // the analysis's table: 4 MB
    const auto search = engine.choose(*game, core::engine::max_level, limits, 0);
    ASSERT_TRUE(search.ok());
    if (!search->mate_in) {
        EXPECT_EQ(once->eval, (Evaluation{Kind::cp, -search->score_cp}));
    }
    // A stop already set gives no answer rather than a partial one.
    const std::atomic<bool> stop{true};
    EXPECT_FALSE(core::engine::analyse_position(*game, 20000, &stop).ok());
}

// Three extra reserve men for White, who then shuffles into the house rules' repetition: a won
// game thrown away.
TEST(AnalysisGames, ChessenceWinThrownIntoARepetitionIsABlunder) {
    core::GameOptions options;
    options.fen = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMM] w 0 1";
    const std::vector<std::string> moves = {"e1-d1", "b9-c9", "d1-e1", "c9-b9",
                                            "e1-d1", "b9-c9", "d1-e1", "c9-b9"};
    const auto analysis = core::engine::analyse_game(VariantId::chessence, options, moves, 20000);
    ASSERT_TRUE(analysis.ok()) << analysis.error();
    ASSERT_EQ(analysis->positions.size(), 9u);
    ASSERT_EQ(analysis->moves.size(), 8u);
    EXPECT_GT(
        core::engine::win_percent(VariantId::chessence, analysis->positions[0].eval, Side::first),
        90);
    EXPECT_EQ(analysis->moves.back().eval, (Evaluation{Kind::result, 0}));  // the draw
    EXPECT_DOUBLE_EQ(analysis->moves.back().win, 50);
    const auto white_blunders = std::count_if(
        analysis->moves.begin(), analysis->moves.end(),
        [](const auto& m) { return m.mover == Side::first && m.judgement == Judgement::blunder; });
    EXPECT_EQ(white_blunders, 1);
    // The blunder is the move that lets Black make the third occurrence; the shuffles before it
    // cost nothing, since White could still have gone another way.
    EXPECT_EQ(analysis->moves[6].judgement, Judgement::blunder);
    for (const auto& move : analysis->moves) {
        EXPECT_EQ(move.mover, move.ply % 2 == 1 ? Side::first : Side::second);
        EXPECT_FALSE(move.best.empty());
        EXPECT_EQ(move.pv.front(), move.best);
        if (move.mover == Side::second) {
            EXPECT_EQ(move.judgement, Judgement::none) << move.ply;  // Black was lost anyway
        }
    }
    ASSERT_TRUE(analysis->accuracy[0] && analysis->accuracy[1]);
    EXPECT_LT(*analysis->accuracy[0], *analysis->accuracy[1]);
    // The same game at the same budget gives the same analysis.
    const auto again = core::engine::analyse_game(VariantId::chessence, options, moves, 20000);
    ASSERT_TRUE(again.ok());
    for (std::size_t k = 0; k < moves.size(); ++k) {
        EXPECT_EQ(again->moves[k].eval, analysis->moves[k].eval);
        EXPECT_EQ(again->moves[k].pv, analysis->moves[k].pv);
    }
}

TEST(AnalysisGames, ChesicaGameToItsLastCapture) {
    // A short opening, then (separately) an ending where White's jump takes the last piece.
    auto opening = engine_test::random_game(VariantId::chesica, 11, 6);
    const auto moves = opening->moves();
    const auto analysis = core::engine::analyse_game(VariantId::chesica, {}, moves, 20000);
    ASSERT_TRUE(analysis.ok()) << analysis.error();
    ASSERT_EQ(analysis->moves.size(), moves.size());
    auto replay = std::move(core::make_game(VariantId::chesica).value());
    for (const auto& move : analysis->moves) {
        EXPECT_TRUE(engine_test::is_legal(*replay, move.best)) << move.ply << " " << move.best;
        ASSERT_TRUE(replay->play(move.move).ok());
        EXPECT_GE(move.accuracy, 0);
        EXPECT_LE(move.accuracy, 100);
    }
    core::GameOptions ending;
    ending.fen = "8/8/8/8/3r4/2B5/8/8 w 0 1";
    const auto last = core::engine::analyse_game(VariantId::chesica, ending, {"c3xe5"}, 20000);
    ASSERT_TRUE(last.ok()) << last.error();
    EXPECT_EQ(last->positions[0].eval, (Evaluation{Kind::mate, 1}));
    EXPECT_EQ(last->moves[0].eval, (Evaluation{Kind::result, 1}));
    EXPECT_EQ(last->moves[0].best, "c3xe5");
    EXPECT_EQ(last->moves[0].judgement, Judgement::none);
    EXPECT_FALSE(last->accuracy[1].has_value());  // Black never moved
    // A move that cannot be played is named.
    const auto bad = core::engine::analyse_game(VariantId::chesica, ending, {"c3-d4"}, 20000);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("move 1 (c3-d4)"), std::string::npos) << bad.error();
}

// ODD wins this deal under object 1 with exactly one of its ten first captures (the solver, in
// docs/sniderman-solver.md's terms): any other loses the round.
TEST(AnalysisGames, SnidermanRoundIsJudgedByExactResults) {
    core::GameOptions options;
    options.fen = "qb2/1nbk/KB1R/2BQ 1";
    options.object = 1;
    auto round = std::move(core::make_game(VariantId::sniderman, options).value());
    const auto first = core::engine::analyse_position(*round, 0);
    ASSERT_TRUE(first.ok()) << first.error();
    EXPECT_EQ(first->eval, (Evaluation{Kind::result, 1}));  // ODD wins with best play
    ASSERT_FALSE(first->best.empty());
    std::vector<std::string> moves;
    for (const auto& capture : round->legal_moves()) {
        if (capture != first->best) {
            moves.push_back(capture);  // a losing first capture
            break;
        }
    }
    ASSERT_TRUE(round->play(moves.front()).ok());
    while (!round->outcome()) {
        moves.push_back(round->legal_moves().front());
        ASSERT_TRUE(round->play(moves.back()).ok());
    }
    const auto analysis = core::engine::analyse_game(VariantId::sniderman, options, moves);
    ASSERT_TRUE(analysis.ok()) << analysis.error();
    ASSERT_EQ(analysis->moves.size(), moves.size());
    EXPECT_EQ(analysis->moves[0].judgement, Judgement::blunder);
    EXPECT_EQ(analysis->moves[0].eval, (Evaluation{Kind::result, -1}));
    EXPECT_EQ(analysis->moves[0].best, first->best);
    EXPECT_DOUBLE_EQ(analysis->moves[0].accuracy, 0);
    const auto outcome = round->outcome();
    for (const auto& move : analysis->moves) {
        EXPECT_EQ(move.eval.kind, Kind::result);
        if (move.judgement == Judgement::none) {
            EXPECT_EQ(move.best, move.move);  // nothing was better
        } else {
            EXPECT_EQ(move.judgement, Judgement::blunder);  // exact: won or lost, nothing between
        }
    }
    EXPECT_EQ(analysis->moves.back().eval,
              (Evaluation{Kind::result, outcome->winner == Side::first ? 1 : -1}));
    // A round without an object cannot be analysed.
    options.object = 0;
    auto unnamed = std::move(core::make_game(VariantId::sniderman, options).value());
    EXPECT_FALSE(core::engine::analyse_position(*unnamed, 0).ok());
}

}  // namespace
