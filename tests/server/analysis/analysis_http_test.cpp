// Game analysis over real HTTP (issue 25): POST /api/games/<id>/analysis queues it once, GET reads
// it until it is done and its JSON has the documented shape; what is refused (a game still on, a
// private game to strangers, the limits, no bot threads) and with which code; Sniderman's exact
// results; a bot's move taken before the analysis's positions; a shutdown while it runs; a queued
// analysis surviving a restart. Issue 42: another node's live claim shown and answered here,
// nothing started; a dead node's claim taken over when asked; the running node's progress in its
// claim.
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "core/game.h"
#include "core/sniderman/sniderman_game.h"
#include "core/sniderman/solver.h"
#include "protocol/schema_validator.h"
#include "server/bots/bot_pool.h"
#include "server/game_table.h"
#include "server/test_stores.h"
#include "server/test_support.h"

namespace {

using test::json;
using namespace std::chrono_literals;

// Fast analyses (a few thousand nodes a position) and fast clients.
server::Limits analysis_test_limits() {
    auto limits = test::fast_limits_without_lag();
    limits.analysis_nodes = 3000;
    limits.bot_move_time = 20ms;
    return limits;
}

std::string analysis_path(const std::string& game_id) {
    return "/api/games/" + game_id + "/analysis";
}

// Chessence or Chesica between Ann (white) and Bob: `plies` moves, then Bob resigns.
std::vector<std::string> analysis_finish_game(test::Table& table, int plies) {
    const auto played = test::play_chess(table, test::capture_first, plies);
    EXPECT_TRUE(played.result.is_null());  // still on: it ends by resignation
    table.bob->send({{"type", "resign"}, {"game_id", table.game_id}});
    const auto over = table.event(++table.version);
    EXPECT_EQ(over.value("kind", ""), "game_over");
    return played.moves;
}

test::HttpResult analysis_post(std::uint16_t port, const std::string& game_id,
                               const std::string& token = "") {
    return test::http_get(port, analysis_path(game_id), "POST",
                          token.empty() ? "" : "Bearer " + token);
}

// GET …/analysis (as the player of `token`, if any) until it says done (or 60 s pass); its body.
json analysis_when_done(std::uint16_t port, const std::string& game_id,
                        const std::string& token = "") {
    json body;
    test::eventually(
        [&] {
            const auto got = test::http_get(port, analysis_path(game_id), "GET",
                                            token.empty() ? "" : "Bearer " + token);
            body = test::parse(got.body);
            return got.status == 200 && body.value("status", "") == "done";
        },
        60s);
    return body;
}

// Exactly one of {"cp": n}, {"mate": n}, {"result": "win"|"loss"|"draw"}.
void expect_evaluation(const json& eval) {
    ASSERT_TRUE(eval.is_object());
    ASSERT_EQ(eval.size(), 1u) << eval.dump();
    if (eval.contains("result")) {
        const auto result = eval["result"].get<std::string>();
        EXPECT_TRUE(result == "win" || result == "loss" || result == "draw") << result;
    } else {
        EXPECT_TRUE((eval.contains("cp") || eval.contains("mate")) &&
                    eval.begin()->is_number_integer())
            << eval.dump();
    }
}

// Problems of an analysis answer against docs/schema/http/analysis.json; empty when it conforms.
std::string analysis_schema_problems(const json& body) {
    static schema::Validator validator(schema::protocol_schema_root());
    std::string problems;
    for (const auto& problem : validator.validate(body, "http/analysis.json")) {
        problems += problem + "\n";
    }
    return problems;
}

// The documented shape of a done analysis of `moves`, the plies by `seats` in turn.
void expect_analysis_shape(const json& body, const std::vector<std::string>& moves,
                           const std::vector<std::string>& seats) {
    EXPECT_EQ(analysis_schema_problems(body), "") << body.dump();
    EXPECT_EQ(body["status"], "done");
    ASSERT_TRUE(body["plies"].is_array());
    ASSERT_EQ(body["plies"].size(), moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const auto& ply = body["plies"][i];
        EXPECT_EQ(ply["ply"], i + 1);
        EXPECT_EQ(ply["move"], moves[i]);
        EXPECT_EQ(ply["by"], seats[i % 2]);
        expect_evaluation(ply["eval"]);
        EXPECT_TRUE(ply["best"].is_string());
        ASSERT_TRUE(ply["pv"].is_array());
        ASSERT_FALSE(ply["pv"].empty());
        EXPECT_EQ(ply["pv"][0], ply["best"]);
        const auto& judgement = ply["judgement"];
        EXPECT_TRUE(judgement.is_null() || judgement == "inaccuracy" || judgement == "mistake" ||
                    judgement == "blunder")
            << judgement.dump();
        EXPECT_GE(ply["win"].get<double>(), 0);
        EXPECT_LE(ply["win"].get<double>(), 100);
    }
    for (const auto& seat : {seats[0], seats[1]}) {
        ASSERT_TRUE(body["accuracy"].contains(seat)) << body["accuracy"].dump();
        const auto& accuracy = body["accuracy"][seat];
        EXPECT_TRUE(accuracy.is_null() || (accuracy.get<double>() >= 0 && accuracy <= 100));
    }
}

TEST(AnalysisHttp, PostThenGetUntilDone) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "chessence");
    EXPECT_EQ(test::parse(analysis_post(server.port(), table.game_id).body)["code"],
              "game_not_finished");
    const auto moves = analysis_finish_game(table, 6);
    const auto before = test::http_get(server.port(), analysis_path(table.game_id));
    EXPECT_EQ(before.status, 404);
    EXPECT_EQ(test::parse(before.body)["code"], "not_analysed");
    const auto unknown = test::http_get(server.port(), analysis_path("g_nothing"));
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(test::parse(unknown.body)["code"], "no_such_game");

    const auto queued = analysis_post(server.port(), table.game_id, table.ann_token);
    EXPECT_EQ(queued.status, 202) << queued.body;
    const auto status = test::parse(queued.body)["status"];
    EXPECT_TRUE(status == "queued" || status == "running") << queued.body;
    EXPECT_EQ(analysis_schema_problems(test::parse(queued.body)), "") << queued.body;
    const auto body = analysis_when_done(server.port(), table.game_id);
    expect_analysis_shape(body, moves, {"white", "black"});
    auto broken = body;  // the schema check can fail
    broken["plies"][0]["judgement"] = "dubious";
    EXPECT_NE(analysis_schema_problems(broken), "");
    EXPECT_EQ(body["game_id"], table.game_id);
    EXPECT_EQ(body["variant"], "chessence");
    EXPECT_EQ(body["nodes"], 3000);
    expect_evaluation(body["start"]["eval"]);
    EXPECT_FALSE(body["accuracy"]["white"].is_null());
    EXPECT_FALSE(body["accuracy"]["black"].is_null());
}

// Asked for twice while it waits, and once more when it is done: it runs once, and then it is
// only read.
TEST(AnalysisHttp, PostIsIdempotent) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "chesica");
    const auto moves = analysis_finish_game(table, 4);
    auto& state_pool = server.server()->bots();
    state_pool.hold(true);
    const auto first = analysis_post(server.port(), table.game_id, table.ann_token);
    const auto second = analysis_post(server.port(), table.game_id, table.bob_token);
    EXPECT_EQ(first.status, 202);
    EXPECT_EQ(second.status, 202);
    EXPECT_EQ(test::parse(second.body)["status"], "queued");
    EXPECT_EQ(test::parse(second.body)["positions"], (json{{"done", 0}, {"total", 5}}));
    EXPECT_EQ(state_pool.background_queued(), 1u);  // one analysis, not two
    const auto waiting =
        test::parse(test::http_get(server.port(), analysis_path(table.game_id)).body);
    EXPECT_EQ(waiting["status"], "queued");
    state_pool.hold(false);
    const auto done = analysis_when_done(server.port(), table.game_id);
    expect_analysis_shape(done, moves, {"white", "black"});
    const auto again = analysis_post(server.port(), table.game_id, table.ann_token);
    EXPECT_EQ(again.status, 200);
    EXPECT_EQ(test::parse(again.body), (json{{"status", "done"}}));
    EXPECT_EQ(state_pool.background_queued(), 0u);
    EXPECT_EQ(test::parse(test::http_get(server.port(), analysis_path(table.game_id)).body), done);
}

TEST(AnalysisHttp, PrivateGameOnlyForItsPlayers) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "chessence", 1, true);
    analysis_finish_game(table, 2);
    EXPECT_EQ(analysis_post(server.port(), table.game_id).status, 403);
    test::WsClient stranger(server.port());
    const auto token = stranger.hello().value("token", "");
    EXPECT_EQ(analysis_post(server.port(), table.game_id, token).status, 403);
    EXPECT_EQ(test::http_get(server.port(), analysis_path(table.game_id), "GET", "Bearer " + token)
                  .status,
              403);
    EXPECT_EQ(analysis_post(server.port(), table.game_id, table.bob_token).status, 202);
    const auto done = analysis_when_done(server.port(), table.game_id, table.ann_token);
    EXPECT_EQ(done["status"], "done");
    EXPECT_EQ(test::http_get(server.port(), analysis_path(table.game_id)).status, 403);
}

TEST(AnalysisHttp, LimitsPerPlayerPerAddressAndInAll) {
    auto limits = analysis_test_limits();
    limits.analyses_per_player = 1;
    limits.analyses_per_ip = 2;
    limits.analysis_queue = 3;
    limits.trusted_proxies = "127.0.0.1";  // so that a request may come from elsewhere
    test::TestServer server(limits);
    std::vector<std::unique_ptr<test::Table>> tables;
    for (int i = 0; i < 4; ++i) {
        tables.push_back(std::make_unique<test::Table>(server.port(), "chesica"));
        analysis_finish_game(*tables.back(), 2);
    }
    server.server()->bots().hold(true);
    const auto& ann = tables[0]->ann_token;
    EXPECT_EQ(analysis_post(server.port(), tables[0]->game_id, ann).status, 202);
    const auto player_limit = analysis_post(server.port(), tables[1]->game_id, ann);
    EXPECT_EQ(player_limit.status, 429);
    EXPECT_EQ(test::parse(player_limit.body)["code"], "too_many_analyses");
    // Without a token only the address counts: its second is taken, its third is not.
    EXPECT_EQ(analysis_post(server.port(), tables[1]->game_id).status, 202);
    const auto address_limit = analysis_post(server.port(), tables[2]->game_id);
    EXPECT_EQ(address_limit.status, 429);
    EXPECT_EQ(test::parse(address_limit.body)["code"], "too_many_analyses");
    const auto from = [&](const std::string& address, const std::string& game_id) {
        return test::raw_http(server.port(), "POST " + analysis_path(game_id) +
                                                 " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                 "X-Forwarded-For: " +
                                                 address +
                                                 "\r\nContent-Length: 0\r\nConnection: "
                                                 "close\r\n\r\n");
    };
    EXPECT_EQ(from("10.0.0.7", tables[2]->game_id).status, 202);
    const auto full = from("10.0.0.8", tables[3]->game_id);
    EXPECT_EQ(full.status, 429);
    EXPECT_NE(full.body.find("analysis_queue_full"), std::string::npos) << full.body;
    // Asking again for one that waits is no new analysis: never refused.
    EXPECT_EQ(analysis_post(server.port(), tables[0]->game_id, ann).status, 202);
    server.server()->bots().hold(false);
    EXPECT_EQ(analysis_when_done(server.port(), tables[0]->game_id)["status"], "done");
    // Once done, the player may ask for another.
    EXPECT_TRUE(test::eventually(
        [&] { return analysis_post(server.port(), tables[3]->game_id, ann).status == 202; }));
}

TEST(AnalysisHttp, RefusedWithoutBotThreads) {
    auto limits = analysis_test_limits();
    limits.bot_threads = 0;
    test::TestServer server(limits);
    test::Table table(server.port(), "chessence");
    analysis_finish_game(table, 2);
    const auto refused = analysis_post(server.port(), table.game_id);
    EXPECT_EQ(refused.status, 503);
    EXPECT_EQ(test::parse(refused.body)["code"], "analysis_unavailable");
}

// A store that cannot be read is a 500, never "not analysed".
TEST(AnalysisHttp, FailedReadIsAServerError) {
    auto store = std::make_unique<test::ReadFailingStore>();
    auto* failing = store.get();
    test::TestServer server(analysis_test_limits(), std::move(store));
    test::Table table(server.port(), "chessence");
    analysis_finish_game(table, 2);
    failing->fail_only = "analysis";
    failing->fail_reads = true;
    const auto got = test::http_get(server.port(), analysis_path(table.game_id));
    EXPECT_EQ(got.status, 500) << got.body;
    EXPECT_EQ(analysis_post(server.port(), table.game_id).status, 500);
    failing->fail_only = nullptr;
    EXPECT_EQ(test::http_get(server.port(), analysis_path(table.game_id)).status, 500);
    failing->fail_reads = false;
    EXPECT_EQ(test::http_get(server.port(), analysis_path(table.game_id)).status, 404);
}

// A one-round match: every evaluation is the solver's exact result, from ODD's side.
TEST(AnalysisHttp, SnidermanGivesExactResults) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "sniderman", 1);
    const auto played = test::play_sniderman(table);
    ASSERT_FALSE(played.result.is_null());
    ASSERT_EQ(analysis_post(server.port(), table.game_id, table.ann_token).status, 202);
    const auto body = analysis_when_done(server.port(), table.game_id);
    EXPECT_EQ(body["status"], "done");
    EXPECT_EQ(body["exact"], true);
    ASSERT_EQ(body["rounds"].size(), 1u);
    const auto& round = body["rounds"][0];
    const std::string odd = round["odd"];
    const std::string even = round["even"];
    EXPECT_NE(odd, even);
    ASSERT_EQ(body["plies"].size(), played.moves.size());
    expect_analysis_shape(body, played.moves, {odd, even});
    EXPECT_TRUE(body["accuracy"].contains("player0") && body["accuracy"].contains("player1"));
    // The solver, position by position, agrees.
    core::GameOptions options;
    options.fen = round["fen"].get<std::string>();
    options.object = round["object"];
    auto game = core::make_game(core::VariantId::sniderman, options).value();
    const auto exact = [&](const core::Game& now) -> std::string {
        const auto& r = dynamic_cast<const core::sniderman::SnidermanGame&>(now);
        core::sniderman::Solver solver;
        const bool odd_wins =
            solver.odd_wins(r.position(), r.history(), *core::sniderman::to_object(r.object()));
        return odd_wins ? "win" : "loss";
    };
    EXPECT_EQ(round["start"]["eval"]["result"], exact(*game));
    for (const auto& ply : body["plies"]) {
        EXPECT_EQ(ply["round"], 1);
        ASSERT_TRUE(game->play(ply["move"].get<std::string>()).ok());
        EXPECT_EQ(ply["eval"]["result"], exact(*game)) << ply.dump();
        const auto& judgement = ply["judgement"];
        EXPECT_TRUE(judgement.is_null() || judgement == "blunder");
    }
}

// With the pool held, a bot's move and an analysis both wait; released, the move is taken first,
// while the analysis (a huge budget a position) has not finished one position. Then the server
// stops with it running, and does not hang.
TEST(AnalysisHttp, BotMoveGoesBeforeAnalysisAndShutdownDoesNotHang) {
    auto limits = analysis_test_limits();
    limits.analysis_nodes = 2'000'000'000;
    limits.bot_threads = 1;
    auto server = std::make_unique<test::TestServer>(limits);
    test::Table table(server->port(), "chessence");
    analysis_finish_game(table, 4);
    auto& pool = server->server()->bots();
    pool.hold(true);
    ASSERT_EQ(analysis_post(server->port(), table.game_id).status, 202);
    test::WsClient me(server->port());
    me.hello();
    me.send({{"type", "seek_create"},
             {"variant", "chesica"},
             {"opponent", "computer"},
             {"level", 1},
             {"side", "black"},
             {"id", "bot"}});
    const auto started = me.wait_type("game_started");
    ASSERT_TRUE(started.is_object());
    const std::string bot_game = started["game_id"];
    ASSERT_TRUE(test::eventually([&] { return pool.queued() == 1; }));
    EXPECT_EQ(pool.background_queued(), 1u);
    pool.hold(false);
    const auto move = me.wait_for(
        [&](const json& m) {
            return m.value("type", "") == "event" && m.value("game_id", "") == bot_game &&
                   m["event"].value("kind", "") == "move";
        },
        20s);
    EXPECT_EQ(move["event"]["by"], "white");
    ASSERT_TRUE(test::eventually([&] {
        return test::parse(test::http_get(server->port(), analysis_path(table.game_id)).body)
                   .value("status", "") == "running";
    }));
    const auto running =
        test::parse(test::http_get(server->port(), analysis_path(table.game_id)).body);
    EXPECT_EQ(running["positions"]["done"], 0);
    auto stopped = std::async(std::launch::async, [&server] { server->stop(); });
    // Not a timing assertion: a position of two billion nodes would be a hang.
    EXPECT_EQ(stopped.wait_for(60s), std::future_status::ready);
}

// Asked for, then the server restarts before a thread took it: the next run queues it again.
TEST(AnalysisHttp, QueuedAnalysisSurvivesARestart) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "chessence");
    const auto moves = analysis_finish_game(table, 4);
    server.server()->bots().hold(true);
    ASSERT_EQ(analysis_post(server.port(), table.game_id).status, 202);
    const auto stored = server.store().analysis(table.game_id);
    ASSERT_TRUE(stored.ok() && stored->has_value());
    EXPECT_EQ((*stored)->status, "queued");
    server.restart();
    expect_analysis_shape(analysis_when_done(server.port(), table.game_id), moves,
                          {"white", "black"});
    EXPECT_EQ((*server.store().analysis(table.game_id))->status, "done");
}

// Issue 42: now in Unix milliseconds, as the runs are stored.
std::int64_t analysis_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Stores a claim of game `game_id`'s analysis by node "node-b"'s run `run`, last alive at
// `alive_at`, which has analysed 2 of 5 positions.
void analysis_claim_elsewhere(server::Store& store, const std::string& game_id, std::int64_t run,
                              std::int64_t alive_at) {
    server::AnalysisRecord claim{game_id, "queued", "", 1};
    claim.node = "node-b";
    claim.run = run;
    claim.positions_done = 2;
    claim.positions_total = 5;
    ASSERT_TRUE(
        store.commit_sync({server::RecordRun{{run, alive_at}}, server::SaveAnalysis{claim}}).ok());
}

// Another node's run, alive, holds the claim: GET here shows its progress (not "not analysed"),
// and a POST here answers the same and starts no second run.
TEST(AnalysisHttp, AnotherNodesLiveClaimIsShownAndNothingStartsHere) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "chesica");
    analysis_finish_game(table, 4);
    const auto now = analysis_now_ms();
    ASSERT_NO_FATAL_FAILURE(
        analysis_claim_elsewhere(server.store(), table.game_id, now - 100000, now));
    const json running = {{"status", "running"}, {"positions", {{"done", 2}, {"total", 5}}}};
    const auto got = test::http_get(server.port(), analysis_path(table.game_id));
    EXPECT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(test::parse(got.body), running);
    auto& pool = server.server()->bots();
    pool.hold(true);
    const auto posted = analysis_post(server.port(), table.game_id, table.ann_token);
    EXPECT_EQ(posted.status, 202) << posted.body;
    EXPECT_EQ(test::parse(posted.body), running);
    EXPECT_EQ(pool.background_queued(), 0u);  // nothing runs here
    EXPECT_EQ((*server.store().analysis(table.game_id))->node, "node-b");
    pool.hold(false);
}

// The claim's run has not been heard of for a minute (its node died): a GET takes it over, and
// the analysis is done here.
TEST(AnalysisHttp, ADeadNodesClaimIsTakenOverWhenAsked) {
    test::TestServer server(analysis_test_limits());
    test::Table table(server.port(), "chessence");
    const auto moves = analysis_finish_game(table, 4);
    const auto now = analysis_now_ms();
    ASSERT_NO_FATAL_FAILURE(
        analysis_claim_elsewhere(server.store(), table.game_id, now - 100000, now - 60000));
    expect_analysis_shape(analysis_when_done(server.port(), table.game_id), moves,
                          {"white", "black"});
}

// The running node writes its progress to its claim (about once a second), so that every node
// can show it.
TEST(AnalysisHttp, TheRunningNodeWritesItsProgressToItsClaim) {
    auto limits = analysis_test_limits();
    limits.analysis_nodes = 3000000;  // slow enough to be seen running
    limits.bot_threads = 1;
    test::TestServer server(limits);
    test::Table table(server.port(), "chessence");
    analysis_finish_game(table, 16);
    ASSERT_EQ(analysis_post(server.port(), table.game_id).status, 202);
    std::optional<server::AnalysisRecord> seen;
    test::eventually(
        [&] {
            auto stored = server.store().analysis(table.game_id);
            if (stored.ok() && stored->has_value()) {
                seen = **stored;
            }
            return seen && (seen->status == "done" || seen->positions_done > 0);
        },
        30s);
    ASSERT_TRUE(seen.has_value());
    EXPECT_EQ(seen->status, "queued") << "done before any progress was written: make it slower";
    EXPECT_GT(seen->positions_done, 0);
    EXPECT_GT(seen->positions_total, seen->positions_done);
    EXPECT_NE(seen->run, 0);
}

}  // namespace
