// The puzzle finder (core/puzzles/finder.h): hand-picked positions that are puzzles and that are
// not, in each game; the verdicts are deterministic and the solution lines legal; Sniderman's
// verdicts agree with a full solve.
#include "core/puzzles/finder.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/sniderman/deal.h"
#include "core/sniderman/position.h"
#include "core/sniderman/solver.h"

namespace {

using core::RuleSet;
using core::Side;
using core::VariantId;
using core::puzzles::Candidate;
using core::puzzles::Finder;
using core::puzzles::FinderSettings;
using core::puzzles::Rejection;

// Small budgets, so the suite stays quick: the positions below are clear at these.
FinderSettings quick_settings() {
    FinderSettings settings;
    settings.nodes = 200'000;
    settings.screen_nodes = 10'000;
    settings.hash_megabytes = 8;
    settings.solver_bucket_bits = 16;
    return settings;
}

// Plays the whole solution from the puzzle's position; every move must be legal.
void expect_line_plays(const core::puzzles::Puzzle& puzzle) {
    core::GameOptions options;
    options.rules = puzzle.rules;
    options.fen = puzzle.fen;
    options.object = puzzle.object;
    auto game = std::move(core::make_game(puzzle.game, options).value());
    EXPECT_EQ(game->to_move(), puzzle.to_move);
    ASSERT_FALSE(puzzle.solution.empty());
    for (const auto& move : puzzle.solution) {
        const auto played = game->play(move);
        ASSERT_TRUE(played.ok()) << move << ": " << played.error();
        EXPECT_EQ(*played, move);
    }
    EXPECT_TRUE(puzzle.solution.size() % 2 == 1 || game->outcome()) << puzzle.solution.size();
}

// Chessence: Black's c7xd5 mates by force (the knight powers around White's king); every other
// move lets White off.
constexpr const char* chessence_puzzle = "km4/5*/1mm1*1/2*3/m*1M*1/3*2/1*2M1/*3M1/5K[] b 1 26";
// Chesica: White's e3xf3 takes the promoted queen; every other move leaves it to Black.
constexpr const char* chesica_puzzle = "1q4q1/4Q3/8/8/8/Q3Q+q2/8/8 w 0 38";
// Sniderman, object 2 (ODD wins if the last piece captured stood on a red square): only c1xb2
// wins on this deal.
constexpr const char* sniderman_deal = "bRnn/BQBr/NRKq/krbN 1";

TEST(PuzzleFinder, FindsTheChessencePuzzle) {
    Finder finder(quick_settings());
    const auto verdict = finder.examine({VariantId::chessence, RuleSet::house, chessence_puzzle});
    ASSERT_TRUE(verdict.ok()) << verdict.error();
    ASSERT_TRUE(verdict->puzzle) << static_cast<int>(verdict->rejection) << " best "
                                 << verdict->proof.best_cp << " second "
                                 << verdict->proof.second_cp;
    const auto& puzzle = *verdict->puzzle;
    EXPECT_EQ(puzzle.solution.front(), "c7xd5");
    EXPECT_EQ(puzzle.to_move, Side::second);
    EXPECT_GE(puzzle.proof.best_cp, core::puzzles::default_win_cp(VariantId::chessence));
    EXPECT_LT(puzzle.proof.second_cp, core::puzzles::default_win_cp(VariantId::chessence));
    EXPECT_TRUE(puzzle.proof.mate_in.has_value());
    EXPECT_EQ(puzzle.proof.nodes, 200'000u);
    EXPECT_EQ(puzzle.id,
              core::puzzles::puzzle_id(VariantId::chessence, RuleSet::house, chessence_puzzle, 0));
    expect_line_plays(puzzle);
}

TEST(PuzzleFinder, FindsTheChesicaPuzzle) {
    Finder finder(quick_settings());
    const auto verdict = finder.examine({VariantId::chesica, RuleSet::house, chesica_puzzle});
    ASSERT_TRUE(verdict.ok()) << verdict.error();
    ASSERT_TRUE(verdict->puzzle) << static_cast<int>(verdict->rejection) << " best "
                                 << verdict->proof.best_cp << " second "
                                 << verdict->proof.second_cp;
    EXPECT_EQ(verdict->puzzle->solution.front(), "e3xf3");
    EXPECT_EQ(verdict->puzzle->to_move, Side::first);
    expect_line_plays(*verdict->puzzle);
}

TEST(PuzzleFinder, TheStartPositionsAreNotPuzzles) {
    Finder finder(quick_settings());
    for (const auto game : {VariantId::chessence, VariantId::chesica}) {
        const auto start = core::make_game(game).value()->fen();
        const auto verdict = finder.examine({game, RuleSet::house, start});
        ASSERT_TRUE(verdict.ok()) << verdict.error();
        EXPECT_FALSE(verdict->puzzle);
        EXPECT_EQ(verdict->rejection, Rejection::not_winning) << start;
    }
}

TEST(PuzzleFinder, SeveralWinningMovesAreNoPuzzle) {
    // Chesica: White has two promoted queens against a lone bishop; many moves win.
    Finder finder(quick_settings());
    const auto verdict =
        finder.examine({VariantId::chesica, RuleSet::house, "8/8/8/8/3b4/8/1+Q3+Q2/8 w 0 40"});
    ASSERT_TRUE(verdict.ok()) << verdict.error();
    EXPECT_FALSE(verdict->puzzle);
    EXPECT_EQ(verdict->rejection, Rejection::several_winning)
        << verdict->proof.best_cp << " " << verdict->proof.second_cp;
}

TEST(PuzzleFinder, OverAndForcedPositionsAreNoPuzzles) {
    Finder finder(quick_settings());
    // White has no legal move: the game is over.
    const auto over = finder.examine(
        {VariantId::chessence, RuleSet::house, "k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1"});
    ASSERT_TRUE(over.ok()) << over.error();
    EXPECT_EQ(over->rejection, Rejection::game_over);
    // One legal move (a drop out of check).
    const auto forced = finder.examine(
        {VariantId::chessence, RuleSet::house, "k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[MMM] w 0 1"});
    ASSERT_TRUE(forced.ok()) << forced.error();
    EXPECT_EQ(forced->rejection, Rejection::forced);
}

TEST(PuzzleFinder, TheSameCandidateGivesTheSameVerdict) {
    Finder first(quick_settings());
    Finder second(quick_settings());
    const Candidate candidate{VariantId::chessence, RuleSet::house, chessence_puzzle};
    const auto a = first.examine(candidate);
    (void)first.examine({VariantId::chesica, RuleSet::house, chesica_puzzle});
    const auto b = first.examine(candidate);
    const auto c = second.examine(candidate);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    ASSERT_TRUE(a->puzzle && b->puzzle && c->puzzle);
    EXPECT_EQ(*a->puzzle, *b->puzzle);
    EXPECT_EQ(*a->puzzle, *c->puzzle);
}

TEST(PuzzleFinder, RefusesBadCandidates) {
    Finder finder(quick_settings());
    EXPECT_FALSE(finder.examine({VariantId::chessence, RuleSet::house, "not a position"}).ok());
    EXPECT_FALSE(finder.examine({VariantId::chessence, RuleSet::house, chessence_puzzle, 3}).ok());
    EXPECT_FALSE(finder.examine({VariantId::sniderman, RuleSet::house, sniderman_deal, 0}).ok());
    EXPECT_FALSE(finder.examine({VariantId::sniderman, RuleSet::house, sniderman_deal, 11}).ok());
    EXPECT_FALSE(finder.examine({VariantId::sniderman, RuleSet::house, "qbnr/rnbk 1", 2}).ok());
}

// The exact solver without stop_after: every winning first move of the side to move.
core::sniderman::Solution full_solve(const char* fen, int object) {
    core::sniderman::Solver solver(19);
    return solver.solve(core::sniderman::parse_position(fen).value(), {},
                        *core::sniderman::to_object(object));
}

TEST(PuzzleFinder, FindsTheSnidermanPuzzleTheSolverProves) {
    Finder finder(quick_settings());
    const auto verdict = finder.examine({VariantId::sniderman, RuleSet::house, sniderman_deal, 2});
    ASSERT_TRUE(verdict.ok()) << verdict.error();
    ASSERT_TRUE(verdict->puzzle) << static_cast<int>(verdict->rejection);
    const auto& puzzle = *verdict->puzzle;
    EXPECT_EQ(puzzle.object, 2);
    EXPECT_EQ(puzzle.to_move, Side::first);
    EXPECT_TRUE(puzzle.proof.exact);
    const auto solution = full_solve(sniderman_deal, 2);
    ASSERT_EQ(solution.winning_moves.size(), 1u);
    EXPECT_EQ(puzzle.solution.front(), core::sniderman::move_name(solution.winning_moves.front()));
    EXPECT_EQ(puzzle.solution.front(), "c1xb2");
    expect_line_plays(puzzle);
}

// A position of `pieces` pieces reached from a seeded deal by seeded random captures.
core::sniderman::Position small_round(std::uint64_t seed, int pieces) {
    namespace sn = core::sniderman;
    sn::Rng rng(seed);
    for (;;) {
        sn::Position p = sn::deal(rng);
        while (p.piece_count() > pieces) {
            const sn::MoveList captures = sn::generate_captures(p);
            if (captures.size == 0) {
                break;
            }
            p = sn::make_move(
                p,
                captures[static_cast<int>(rng.below(static_cast<std::uint64_t>(captures.size)))]);
        }
        if (p.piece_count() == pieces && sn::has_capture(p)) {
            return p;
        }
    }
}

// On small rounds, for every object, the finder's verdict is what plain minimax says of each
// capture: a puzzle exactly when one capture wins, and then that capture first.
TEST(PuzzleFinder, SnidermanVerdictsAgreeWithBruteForce) {
    namespace sn = core::sniderman;
    Finder finder(quick_settings());
    std::set<Rejection> seen;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        const sn::Position p = small_round(seed, 8);
        for (int object = 1; object <= sn::object_count; ++object) {
            const auto fen = sn::format_position(p);
            const auto verdict =
                finder.examine({VariantId::sniderman, RuleSet::house, fen, object});
            ASSERT_TRUE(verdict.ok()) << verdict.error();
            std::vector<std::string> winners;
            const sn::MoveList captures = sn::generate_captures(p);
            for (const sn::Move m : captures) {
                sn::CaptureHistory history;
                history.record(m, p.at(m.to), p.ply);
                const bool odd_wins =
                    sn::brute_force_odd_wins(sn::make_move(p, m), history, *sn::to_object(object));
                if (odd_wins == p.odd_to_move()) {
                    winners.push_back(sn::move_name(m));
                }
            }
            const Rejection expected = captures.size == 1    ? Rejection::forced
                                       : winners.empty()     ? Rejection::not_winning
                                       : winners.size() == 1 ? Rejection::none
                                                             : Rejection::several_winning;
            EXPECT_EQ(verdict->rejection, expected) << fen << " object " << object;
            seen.insert(verdict->rejection);
            if (verdict->puzzle) {
                EXPECT_EQ(verdict->puzzle->solution.front(), winners.front());
                expect_line_plays(*verdict->puzzle);
            }
        }
    }
    EXPECT_TRUE(seen.count(Rejection::none) && seen.count(Rejection::not_winning) &&
                seen.count(Rejection::several_winning));
}

TEST(PuzzleIds, AreStableAndKeyedOnThePosition) {
    // A golden value: a changed hash would change every id in the shipped bank.
    EXPECT_NE(core::puzzles::puzzle_id(VariantId::chesica, RuleSet::house, chesica_puzzle, 0),
              core::puzzles::puzzle_id(VariantId::chesica, RuleSet::strict, chesica_puzzle, 0));
    EXPECT_NE(core::puzzles::puzzle_id(VariantId::sniderman, RuleSet::house, sniderman_deal, 1),
              core::puzzles::puzzle_id(VariantId::sniderman, RuleSet::house, sniderman_deal, 2));
    EXPECT_EQ(core::puzzles::puzzle_id(VariantId::sniderman, RuleSet::house, sniderman_deal, 2),
              "e63f40c7a204");
    EXPECT_EQ(
        core::puzzles::puzzle_id(VariantId::chesica, RuleSet::house, chesica_puzzle, 0).size(),
        12u);
}

TEST(PuzzleIds, DuplicateKeysIgnoreTheMoveCounters) {
    EXPECT_EQ(core::puzzles::duplicate_key(VariantId::chesica, "8/8/8/8/8/8/8/Q6q w 0 38", 0),
              core::puzzles::duplicate_key(VariantId::chesica, "8/8/8/8/8/8/8/Q6q w 7 52", 0));
    EXPECT_NE(core::puzzles::duplicate_key(VariantId::chesica, "8/8/8/8/8/8/8/Q6q w 0 38", 0),
              core::puzzles::duplicate_key(VariantId::chesica, "8/8/8/8/8/8/8/Q6q b 0 38", 0));
    EXPECT_NE(core::puzzles::duplicate_key(VariantId::sniderman, sniderman_deal, 1),
              core::puzzles::duplicate_key(VariantId::sniderman, sniderman_deal, 2));
}

}  // namespace
