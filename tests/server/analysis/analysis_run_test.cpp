// What an analysis is made of, without a server (issue 25): the input read from stored events
// (takebacks undone, Sniderman rounds with their sides), the run's steps done one by one on the
// calling thread, the answer's JSON, and a stopped step that leaves the run unfinished.
#include "server/analysis/analysis_run.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/game.h"
#include "protocol/events.h"
#include "server/analysis/analysis_input.h"
#include "server/analysis/analysis_json.h"

namespace {

using nlohmann::json;
namespace events = protocol::events;

std::vector<server::StoredEvent> run_test_events(const std::vector<events::RoomEvent>& all) {
    std::vector<server::StoredEvent> stored;
    for (const auto& event : all) {
        stored.push_back(
            {static_cast<std::int64_t>(stored.size()) + 1, events::encode_event_text(event)});
    }
    return stored;
}

server::GameRecord run_test_game(const std::string& variant) {
    server::GameRecord game;
    game.id = "g_test";
    game.variant = variant;
    game.rules = "house";
    game.status = "finished";
    return game;
}

events::Move run_test_move(const std::string& move, const std::string& by, int ply) {
    events::Move m;
    m.move = move;
    m.by = by;
    m.ply = ply;
    return m;
}

TEST(AnalysisInput, MovesAsTheyStandAfterTakebacks) {
    events::Takeback takeback;
    takeback.by = "white";
    takeback.plies = 2;
    const auto input = server::analysis_input(
        run_test_game("chessence"),
        run_test_events({run_test_move("e1-d1", "white", 1), run_test_move("b9-c9", "black", 2),
                         run_test_move("d1-e1", "white", 3), run_test_move("c9-b9", "black", 4),
                         takeback, run_test_move("f2-f3", "white", 3),
                         events::GameOver{{"white", "resignation"}}}));
    ASSERT_TRUE(input.ok()) << input.error();
    ASSERT_EQ(input->lines.size(), 1u);
    const auto& line = input->lines[0];
    EXPECT_EQ(line.moves, (std::vector<std::string>{"e1-d1", "b9-c9", "f2-f3"}));
    EXPECT_EQ(line.seats, (std::array<std::string, 2>{"white", "black"}));
    EXPECT_EQ(line.positions.size(), 4u);
    EXPECT_EQ(line.positions.back()->moves(), line.moves);
}

TEST(AnalysisInput, SnidermanRoundsWithTheirSides) {
    events::RoundStarted first{1, "qb2/1nbk/KB1R/2BQ 1", "player0"};
    events::ObjectNamed named;
    named.by = "player0";
    named.object = 1;
    events::SideChosen chosen;
    chosen.by = "player1";
    chosen.odd = "player1";
    chosen.even = "player0";
    events::RoundStarted second{2, "qbnr/rnbk/KBNR/RNBQ 1", "player1"};
    core::GameOptions deal;
    deal.fen = first.fen;
    const auto capture =
        core::make_game(core::VariantId::sniderman, deal).value()->legal_moves().front();
    const auto input = server::analysis_input(
        run_test_game("sniderman"),
        run_test_events({first, named, chosen, run_test_move(capture, "odd", 1), second}));
    ASSERT_TRUE(input.ok()) << input.error();
    ASSERT_EQ(input->lines.size(), 1u);  // the second round had no capture
    const auto& round = input->lines[0];
    EXPECT_EQ(round.round, 1);
    EXPECT_EQ(round.object, 1);
    EXPECT_EQ(round.seats, (std::array<std::string, 2>{"player1", "player0"}));
    EXPECT_EQ(round.positions.size(), 2u);
}

TEST(AnalysisInput, AMoveThatCannotBeReplayedIsAnError) {
    const auto input = server::analysis_input(
        run_test_game("chesica"), run_test_events({run_test_move("a1-h8", "white", 1)}));
    ASSERT_FALSE(input.ok());
    EXPECT_NE(input.error().find("move 1 (a1-h8)"), std::string::npos) << input.error();
}

// Every step taken and run here, in order; `done` once, with the documented JSON.
TEST(AnalysisRun, StepsThenOneAnswer) {
    auto input = server::analysis_input(
        run_test_game("chesica"),
        run_test_events({run_test_move("c3-d4", "white", 1), run_test_move("f6-e5", "black", 2)}));
    ASSERT_TRUE(input.ok()) << input.error();
    int answers = 0;
    std::string text;
    auto run = std::make_shared<server::AnalysisRun>(std::move(*input), 2000,
                                                     [&](core::Expected<std::string> answer) {
                                                         ++answers;
                                                         ASSERT_TRUE(answer.ok());
                                                         text = *answer;
                                                     });
    EXPECT_FALSE(run->started());
    EXPECT_EQ(run->positions_total(), 3u);
    std::vector<server::BackgroundWork::Step> steps;
    while (auto step = run->next_step()) {
        steps.push_back(std::move(step));
    }
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_TRUE(run->started());
    const std::atomic<bool> no_stop{false};
    // In any order: the last one to finish answers.
    steps[2](no_stop);
    steps[0](no_stop);
    EXPECT_EQ(answers, 0);
    EXPECT_EQ(run->positions_done(), 2u);
    steps[1](no_stop);
    EXPECT_EQ(answers, 1);
    const auto body = json::parse(text);
    EXPECT_EQ(body["status"], "done");
    EXPECT_EQ(body["game_id"], "g_test");
    EXPECT_EQ(body["nodes"], 2000);
    ASSERT_EQ(body["plies"].size(), 2u);
    EXPECT_EQ(body["plies"][0]["move"], "c3-d4");
    EXPECT_EQ(body["plies"][0]["by"], "white");
    EXPECT_EQ(body["plies"][1]["by"], "black");
    EXPECT_TRUE(body["accuracy"]["white"].is_number());
    EXPECT_TRUE(body["accuracy"]["black"].is_number());
}

TEST(AnalysisRun, AStoppedStepLeavesItUnfinished) {
    auto input = server::analysis_input(run_test_game("chessence"), run_test_events({}));
    ASSERT_TRUE(input.ok());
    int answers = 0;
    auto run = std::make_shared<server::AnalysisRun>(
        std::move(*input), 2000, [&](core::Expected<std::string>) { ++answers; });
    auto step = run->next_step();
    ASSERT_TRUE(step);
    EXPECT_FALSE(run->next_step());  // one position only
    const std::atomic<bool> stop{true};
    step(stop);
    EXPECT_EQ(answers, 0);
    EXPECT_EQ(run->positions_done(), 0u);
}

TEST(AnalysisJson, EvaluationsAreTheFirstSides) {
    using core::engine::Evaluation;
    EXPECT_EQ(server::evaluation_json({Evaluation::Kind::cp, -31}), (json{{"cp", -31}}));
    EXPECT_EQ(server::evaluation_json({Evaluation::Kind::mate, 2}), (json{{"mate", 2}}));
    EXPECT_EQ(server::evaluation_json({Evaluation::Kind::result, 1}), (json{{"result", "win"}}));
    EXPECT_EQ(server::evaluation_json({Evaluation::Kind::result, -1}), (json{{"result", "loss"}}));
    EXPECT_EQ(server::evaluation_json({Evaluation::Kind::result, 0}), (json{{"result", "draw"}}));
}

}  // namespace
