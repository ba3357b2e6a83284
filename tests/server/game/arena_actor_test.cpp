// Arenas on a real server (issue 43, slice 2): players who are accounts join over the WebSocket,
// the tournament pairs them every pass, their games are ordinary rooms whose ends come back as
// results, the standings reach watchers as deltas and the HTTP API shows lichess's shapes; a
// restart resumes the arena with its standings and pairs no game twice; bad asks change nothing.
#include "server/game/arena_actor.h"
#include "server/game/tournaments.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "server/manual_time.h"
#include "server/test_stores.h"
#include "server/test_support.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::WsClient;

server::Limits arena_limits() {
    auto limits = test::fast_limits_without_lag();
    limits.password_ops = 1;
    limits.password_memory = 8192;
    return limits;
}

struct Entrant {
    std::unique_ptr<WsClient> ws;
    std::string id;
    std::string token;  // the session token (a bearer token for the HTTP API)
    std::string name;
};

Entrant registered(std::uint16_t port, const std::string& name) {
    Entrant p;
    p.ws = std::make_unique<WsClient>(port);
    p.ws->hello();
    p.ws->send(
        {{"type", "register"}, {"username", name}, {"password", "correct horse"}, {"id", "reg"}});
    const auto signed_in = p.ws->wait_type("signed_in");
    p.id = signed_in["player"]["id"];
    p.token = signed_in["token"];
    p.name = name;
    return p;
}

// `n` registered accounts named `prefix` + 0, 1, ….
std::vector<Entrant> entrants(std::uint16_t port, const std::string& prefix, int n) {
    std::vector<Entrant> players;
    for (int i = 0; i < n; ++i) {
        players.push_back(registered(port, prefix + std::to_string(i)));
    }
    return players;
}

// A POST with a form body; the answer's status and body.
test::HttpResult post_form(std::uint16_t port, const std::string& target, const std::string& token,
                           const std::string& body) {
    std::ostringstream request;
    request << "POST " << target << " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            << "Content-Type: application/x-www-form-urlencoded\r\n";
    if (!token.empty()) {
        request << "Authorization: Bearer " << token << "\r\n";
    }
    request << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    const auto raw = test::raw_http(port, request.str());
    return test::HttpResult{raw.status, "", raw.body};
}

std::string create_arena(std::uint16_t port, const Entrant& by, const std::string& extra = "") {
    const auto answer = post_form(port, "/api/tournament", by.token,
                                  "name=Test+Arena&clockTime=3&clockIncrement=2&minutes=20&"
                                  "waitMinutes=0&variant=chessence&rated=false" +
                                      extra);
    EXPECT_EQ(answer.status, 200) << answer.body;
    const auto body = json::parse(answer.body, nullptr, false);
    return body.is_object() ? body.value("id", "") : "";
}

json join(Entrant& p, const std::string& tournament, const std::string& code = "") {
    json ask = {{"type", "tournament_join"}, {"tournament_id", tournament}, {"id", "join"}};
    if (!code.empty()) {
        ask["code"] = code;
    }
    p.ws->send(ask);
    return p.ws->wait_for([](const json& m) { return m.value("id", json()) == "join"; });
}

// The results NDJSON as score by username.
std::map<std::string, int> results(std::uint16_t port, const std::string& tournament) {
    const auto answer = test::http_get(port, "/api/tournament/" + tournament + "/results");
    EXPECT_EQ(answer.status, 200) << answer.body;
    std::map<std::string, int> scores;
    std::istringstream lines(answer.body);
    std::string line;
    while (std::getline(lines, line)) {
        const auto row = json::parse(line);
        scores[row["username"]] = row["score"];
    }
    return scores;
}

// One pairing pass's games: each player's tournament_paired, by game id (white first).
std::map<std::string, std::pair<Entrant*, Entrant*>> paired_games(
    std::vector<Entrant>& players, const std::set<std::string>& seen) {
    std::map<std::string, std::pair<Entrant*, Entrant*>> games;
    for (auto& p : players) {
        const auto paired = p.ws->wait_for(
            [&](const json& m) {
                return m["type"] == "tournament_paired" && !seen.count(m["game_id"]);
            },
            10s);
        if (paired.is_null()) {
            ADD_FAILURE() << p.name << " was not paired";
            continue;
        }
        auto& game = games[paired["game_id"]];
        (paired["you"] == "white" ? game.first : game.second) = &p;
    }
    return games;
}

// White moves once, Black resigns: a win of one ply for White.
void white_wins(const std::string& game_id, Entrant& white, Entrant& black) {
    const auto snapshot = white.ws->wait_for(
        [&](const json& m) { return m["type"] == "snapshot" && m["game_id"] == game_id; });
    ASSERT_FALSE(snapshot["legal"].empty()) << snapshot.dump();
    white.ws->send(
        {{"type", "move"}, {"game_id", game_id}, {"move", snapshot["legal"][0]}, {"id", "m"}});
    black.ws->wait_for([&](const json& m) {
        return m["type"] == "event" && m["game_id"] == game_id && m["event"]["kind"] == "move";
    });
    black.ws->send({{"type", "resign"}, {"game_id", game_id}});
    black.ws->wait_for([&](const json& m) {
        return m["type"] == "event" && m["game_id"] == game_id && m["event"]["kind"] == "game_over";
    });
}

class Arenas : public ::testing::Test {
protected:
    std::shared_ptr<test::ManualTime> time_ = std::make_shared<test::ManualTime>();
    test::TestServer server_{arena_limits(), nullptr, time_};
};

TEST_F(Arenas, SixteenPlayersArePairedPlayAndAreScored) {
    auto players = entrants(server_.port(), "arena_p", 16);
    const auto tournament = create_arena(server_.port(), players[0]);
    ASSERT_FALSE(tournament.empty());
    for (auto& p : players) {
        EXPECT_EQ(join(p, tournament)["type"], "ack");
        EXPECT_EQ(p.ws->wait_type("tournament")["tournament"]["id"], tournament);
    }
    // A watcher who plays not: the standings reach it as deltas.
    WsClient watcher(server_.port());
    watcher.hello();
    watcher.send({{"type", "tournament_watch"}, {"tournament_id", tournament}, {"id", "w"}});
    const auto first = watcher.wait_type("tournament");
    EXPECT_EQ(first["tournament"]["players"], 16);
    EXPECT_EQ(first["standings"].size(), 16u);

    // Each game is played as soon as it is paired (White moves, Black resigns), until 16 games
    // have been played; the arena pairs whoever is free at each pass.
    std::set<std::string> seen;
    std::map<std::string, int> wins;
    std::map<std::string, std::string> last_opponent;
    int played = 0;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (played < 16 && std::chrono::steady_clock::now() < deadline) {
        std::map<std::string, std::pair<Entrant*, Entrant*>> games;
        for (auto& p : players) {
            p.ws->sync();
            for (const auto& paired : p.ws->history_of("tournament_paired")) {
                if (!seen.count(paired["game_id"])) {
                    auto& game = games[paired["game_id"]];
                    (paired["you"] == "white" ? game.first : game.second) = &p;
                }
            }
        }
        for (auto& [game_id, seats] : games) {
            if (!seats.first || !seats.second || played >= 16) {
                continue;  // the other player's frame is still on its way
            }
            seen.insert(game_id);
            for (auto [me, other] :
                 {std::pair{seats.first, seats.second}, std::pair{seats.second, seats.first}}) {
                EXPECT_NE(last_opponent[me->id], other->id) << "an immediate rematch";
                last_opponent[me->id] = other->id;
            }
            white_wins(game_id, *seats.first, *seats.second);
            ++wins[seats.first->name];
            ++played;
        }
        std::this_thread::sleep_for(50ms);
    }
    ASSERT_EQ(played, 16);
    // Every result counted: the standings say so (the API reads the live arena). White always
    // wins and nobody has White three times in a row, so nobody wins three in a row: no fire.
    ASSERT_TRUE(test::eventually(
        [&] {
            int total = 0;
            for (const auto& [name, score] : results(server_.port(), tournament)) {
                total += score;
            }
            return total == 2 * 16;
        },
        10s));
    const auto scores = results(server_.port(), tournament);
    for (const auto& p : players) {
        EXPECT_EQ(scores.at(p.name), 2 * wins[p.name]) << p.name;
    }
    // The watcher heard standings deltas, each with the next version.
    const auto delta = watcher.wait_for(
        [](const json& m) { return m["type"] == "tournament_standings" && m["version"] >= 1; });
    EXPECT_FALSE(delta["changed"].empty());
    // The games in progress reached it too: the best placed, each with both players.
    const auto with_duels = watcher.wait_for(
        [](const json& m) { return m["type"] == "tournament_standings" && !m["duels"].empty(); });
    EXPECT_EQ(with_duels["duels"][0]["game_id"].get<std::string>().rfind("g_", 0), 0u);
    EXPECT_NE(with_duels["duels"][0]["first"]["player_id"],
              with_duels["duels"][0]["second"]["player_id"]);
    EXPECT_EQ(watcher.schema_violations(), 0u);

    // The full view: lichess's fields.
    const auto full =
        json::parse(test::http_get(server_.port(), "/api/tournament/" + tournament).body);
    EXPECT_EQ(full["nbPlayers"], 16);
    EXPECT_EQ(full["status"], 20);
    EXPECT_EQ(full["system"], "arena");
    EXPECT_EQ(full["clock"], (json{{"limit", 180}, {"increment", 2}}));
    EXPECT_EQ(full["standing"]["players"].size(), 10u);
    EXPECT_EQ(full["standing"]["players"][0]["rank"], 1);
    EXPECT_GE(full["stats"]["games"], 16);

    // The end: the games still running (a third round) do not count.
    time_->advance(21min);
    ASSERT_TRUE(test::eventually(
        [&] {
            const auto shown =
                json::parse(test::http_get(server_.port(), "/api/tournament/" + tournament).body);
            return shown.value("isFinished", false);
        },
        10s));
    EXPECT_EQ(results(server_.port(), tournament), scores);
    const auto finished = watcher.wait_type("tournament_finished");
    EXPECT_EQ(finished["podium"].size(), 3u);
    const auto listed = json::parse(test::http_get(server_.port(), "/api/tournament").body);
    ASSERT_EQ(listed["finished"].size(), 1u);
    EXPECT_EQ(listed["finished"][0]["id"], tournament);
    EXPECT_EQ(listed["finished"][0]["status"], 30);
    EXPECT_EQ(listed["finished"][0]["createdBy"], "arena_p0");  // lichess's: a username
    EXPECT_EQ(full["createdBy"], "arena_p0");
    EXPECT_TRUE(listed["finished"][0].contains("winner"));
    // Every paired game is a stored game of the tournament, once.
    const auto games = server_.store().tournament_games(tournament).value();
    std::set<std::string> stored;
    for (const auto& game : games) {
        EXPECT_TRUE(stored.insert(game.id).second);
    }
    for (const auto& id : seen) {
        EXPECT_TRUE(stored.count(id)) << id;
    }
}

TEST_F(Arenas, ARestartResumesTheStandingsAndPairsNoGameTwice) {
    auto players = entrants(server_.port(), "resume_p", 4);
    const auto tournament = create_arena(server_.port(), players[0]);
    ASSERT_FALSE(tournament.empty());
    for (auto& p : players) {
        ASSERT_EQ(join(p, tournament)["type"], "ack");
    }
    auto games = paired_games(players, {});
    ASSERT_EQ(games.size(), 2u);
    auto finished = games.begin();
    auto running = std::next(games.begin());
    white_wins(finished->first, *finished->second.first, *finished->second.second);
    ASSERT_TRUE(test::eventually(
        [&] { return results(server_.port(), tournament)[finished->second.first->name] == 2; },
        10s));

    server_.restart();
    // The standings as they were; the game in progress goes on and counts when it ends.
    EXPECT_EQ(results(server_.port(), tournament)[finished->second.first->name], 2);
    for (auto& p : players) {
        p.ws = std::make_unique<WsClient>(server_.port());
        p.ws->hello(p.token);
        p.ws->send({{"type", "tournament_watch"}, {"tournament_id", tournament}});
        p.ws->wait_type("tournament");
    }
    Entrant* white = running->second.first;
    Entrant* black = running->second.second;
    white->ws->send({{"type", "watch"}, {"game_id", running->first}});
    black->ws->send({{"type", "watch"}, {"game_id", running->first}});
    black->ws->wait_for([&](const json& m) { return m["type"] == "snapshot"; });
    white_wins(running->first, *white, *black);
    ASSERT_TRUE(test::eventually(
        [&] { return results(server_.port(), tournament)[white->name] >= 2; }, 10s));
    // The winners of round one are paired again after the restart; nothing was paired twice.
    std::set<std::string> ids;
    for (const auto& game : server_.store().tournament_games(tournament).value()) {
        EXPECT_TRUE(ids.insert(game.id).second) << game.id;
    }
    EXPECT_TRUE(ids.count(finished->first));
    EXPECT_TRUE(ids.count(running->first));
}

TEST_F(Arenas, BadAsksAreRefusedWithTheirCodesAndChangeNothing) {
    auto ann = registered(server_.port(), "bad_ann");
    auto bob = registered(server_.port(), "bad_bob");
    // A guest creates nothing; bad clocks and durations are bad_field.
    EXPECT_EQ(
        post_form(server_.port(), "/api/tournament", "", "clockTime=3&clockIncrement=2&minutes=30")
            .status,
        401);
    for (const std::string bad :
         {"clockTime=3&clockIncrement=2&minutes=10", "clockTime=3&clockIncrement=2&minutes=200",
          "clockTime=x&clockIncrement=2&minutes=30", "clockTime=0&clockIncrement=0&minutes=30",
          "clockTime=3&clockIncrement=2&minutes=30&variant=chess"}) {
        const auto answer = post_form(server_.port(), "/api/tournament", ann.token, bad);
        EXPECT_EQ(answer.status, 400) << bad << ": " << answer.body;
        EXPECT_EQ(json::parse(answer.body)["code"], "bad_field") << bad;
    }
    EXPECT_TRUE(server_.store().tournaments({"created", "", 50}).value().empty());
    EXPECT_TRUE(server_.store().tournaments({"started", "", 50}).value().empty());

    const auto open = create_arena(server_.port(), ann);
    ASSERT_EQ(join(ann, open)["type"], "ack");
    EXPECT_EQ(join(ann, open)["code"], "already_joined");
    bob.ws->send({{"type", "tournament_withdraw"}, {"tournament_id", open}, {"id", "w"}});
    EXPECT_EQ(bob.ws->wait_error("w")["code"], "not_joined");
    EXPECT_EQ(join(bob, "t_nothing_here")["code"], "no_such_tournament");
    WsClient guest(server_.port());
    guest.hello();
    guest.send({{"type", "tournament_join"}, {"tournament_id", open}, {"id", "g"}});
    EXPECT_EQ(guest.wait_error("g")["code"], "account_required");

    const auto closed = create_arena(server_.port(), ann, "&password=s3cret");
    EXPECT_EQ(join(bob, closed)["code"], "wrong_code");
    EXPECT_EQ(join(bob, closed, "wrong")["code"], "wrong_code");
    EXPECT_EQ(join(bob, closed, "s3cret")["type"], "ack");
    // Over HTTP the same codes.
    const auto twice = post_form(server_.port(), "/api/tournament/" + closed + "/join", bob.token,
                                 "password=s3cret");
    EXPECT_EQ(twice.status, 400);
    EXPECT_EQ(json::parse(twice.body)["code"], "already_joined");
    EXPECT_EQ(post_form(server_.port(), "/api/tournament/" + open + "/join", bob.token, "").status,
              200);
    EXPECT_EQ(
        post_form(server_.port(), "/api/tournament/" + open + "/withdraw", bob.token, "").status,
        200);

    // The limit of creations a day.
    for (int i = 2; i < server::tournaments_per_day; ++i) {
        ASSERT_FALSE(create_arena(server_.port(), ann).empty());
    }
    const auto over = post_form(server_.port(), "/api/tournament", ann.token,
                                "clockTime=3&clockIncrement=2&minutes=30");
    EXPECT_EQ(over.status, 429);
    EXPECT_EQ(json::parse(over.body)["code"], "rate_limited");
    EXPECT_EQ(results(server_.port(), open).size(), 2u);  // ann, and bob withdrawn
}

}  // namespace

namespace {

// Two players paired in an arena of `extra` settings: the game's id and (white, black).
struct ArenaPair {
    std::string tournament;
    std::string game_id;
    Entrant* white = nullptr;
    Entrant* black = nullptr;
};

ArenaPair pair_two(std::uint16_t port, std::vector<Entrant>& two) {
    ArenaPair pair;
    pair.tournament = create_arena(port, two[0]);
    for (auto& p : two) {
        EXPECT_EQ(join(p, pair.tournament)["type"], "ack");
    }
    auto games = paired_games(two, {});
    EXPECT_EQ(games.size(), 1u);
    if (games.size() == 1) {
        pair.game_id = games.begin()->first;
        pair.white = games.begin()->second.first;
        pair.black = games.begin()->second.second;
    }
    return pair;
}

// The line of `name` in the full view's first standings page.
json standing_of(std::uint16_t port, const std::string& tournament, const std::string& name) {
    const auto full = json::parse(test::http_get(port, "/api/tournament/" + tournament).body);
    for (const auto& line : full["standing"]["players"]) {
        if (line["name"] == name) {
            return line;
        }
    }
    return nullptr;
}

TEST_F(Arenas, AFirstMoveThatDoesNotComeLosesTheGameAndWithdrawsThePlayer) {
    auto two = entrants(server_.port(), "late_", 2);
    const auto pair = pair_two(server_.port(), two);
    ASSERT_TRUE(pair.white && pair.black);
    time_->advance(31s);  // the first-move window passes: White loses, reason no_start
    const auto over = pair.black->ws->wait_for([&](const json& m) {
        return m["type"] == "event" && m["game_id"] == pair.game_id &&
               m["event"]["kind"] == "game_over";
    });
    EXPECT_EQ(over["event"]["result"]["reason"], "no_start");
    ASSERT_TRUE(test::eventually(
        [&] {
            const auto line = standing_of(server_.port(), pair.tournament, pair.black->name);
            return line.is_object() && line["score"] == 2;
        },
        10s));
    const auto white = standing_of(server_.port(), pair.tournament, pair.white->name);
    EXPECT_EQ(white["score"], 0);
    EXPECT_EQ(white.value("withdraw", false), true) << white.dump();
    // Coming back is joining again.
    EXPECT_EQ(join(*pair.white, pair.tournament)["type"], "ack");
    EXPECT_TRUE(test::eventually(
        [&] {
            return !standing_of(server_.port(), pair.tournament, pair.white->name)
                        .contains("withdraw");
        },
        5s));
}

TEST_F(Arenas, ABerserkInTheRoomReachesTheArenasSheet) {
    auto two = entrants(server_.port(), "berserk_", 2);
    const auto pair = pair_two(server_.port(), two);
    ASSERT_TRUE(pair.white && pair.black);
    pair.white->ws->send({{"type", "berserk"}, {"game_id", pair.game_id}, {"id", "b"}});
    const auto cut = pair.white->ws->wait_for(
        [&](const json& m) { return m["type"] == "event" && m["event"]["kind"] == "berserk"; });
    EXPECT_EQ(cut["event"]["clock"]["white"], 90'000);  // 3 minutes halved
    white_wins(pair.game_id, *pair.white, *pair.black);
    ASSERT_TRUE(test::eventually(
        [&] {
            const auto full = json::parse(
                test::http_get(server_.port(), "/api/tournament/" + pair.tournament).body);
            return full["stats"]["berserks"] == 1;
        },
        10s));
    // One ply: a berserk win under 14 plies has no bonus.
    EXPECT_EQ(standing_of(server_.port(), pair.tournament, pair.white->name)["score"], 2);
}

}  // namespace

namespace {

// The end may come first through a game's news (a flag falls when the time jumps past the end):
// the watchers still hear the podium, and the finished arena is read from the store after.
TEST_F(Arenas, AnEndThatAGamesNewsBringsStillFinishesTheArena) {
    auto two = entrants(server_.port(), "end_", 2);
    const auto pair = pair_two(server_.port(), two);
    ASSERT_TRUE(pair.white && pair.black);
    time_->advance(21min);  // the room ends its game at once (no_start); the arena is over
    const auto finished = pair.black->ws->wait_type("tournament_finished");
    EXPECT_EQ(finished["tournament_id"], pair.tournament);
    const auto full =
        json::parse(test::http_get(server_.port(), "/api/tournament/" + pair.tournament).body);
    EXPECT_EQ(full["isFinished"], true);
    EXPECT_EQ(full["stats"]["games"], 0);  // the game ended after the end: it does not count
    EXPECT_EQ(join(*pair.white, pair.tournament)["code"], "tournament_finished");
}

}  // namespace

namespace {

// The store refuses the arena's batches: a join is internal_error and changes nothing, a pass
// that cannot store its pairing pairs nobody and creates no game; once the store writes again,
// the same asks and the next pass go through.
TEST(ArenaStore, AFailedWriteChangesNothingAndTheNextOneGoesThrough) {
    auto owned = std::make_unique<test::ControlledStore>();
    auto* store = owned.get();
    auto time = std::make_shared<test::ManualTime>();
    test::TestServer server(arena_limits(), std::move(owned), time);
    auto two = entrants(server.port(), "fail_", 2);
    // It starts in a minute: the joins are not paired before the test lets them be.
    const auto created = post_form(server.port(), "/api/tournament", two[0].token,
                                   "clockTime=3&clockIncrement=2&minutes=20&waitMinutes=1");
    ASSERT_EQ(created.status, 200) << created.body;
    const std::string tournament = json::parse(created.body)["id"];

    store->fail_all = true;
    const auto refused = join(two[0], tournament);
    EXPECT_EQ(refused["code"], "internal_error") << refused.dump();
    EXPECT_TRUE(results(server.port(), tournament).empty());
    store->fail_all = false;
    ASSERT_EQ(join(two[0], tournament)["type"], "ack");
    ASSERT_EQ(join(two[1], tournament)["type"], "ack");
    EXPECT_EQ(results(server.port(), tournament).size(), 2u);

    // The start is stored by one pass, the pairing by the next (2 s later): that one fails.
    time->advance(61s);
    ASSERT_TRUE(test::eventually(
        [&] {
            const auto stored = server.store().tournament(tournament);
            return stored.ok() && *stored && (*stored)->status == "started";
        },
        10s));
    store->fail_all = true;
    std::this_thread::sleep_for(5s);  // two passes at least, each refused by the store
    two[0].ws->sync();
    EXPECT_TRUE(two[0].ws->history_of("tournament_paired").empty());
    EXPECT_TRUE(server.store().tournament_games(tournament).value().empty());
    store->fail_all = false;
    const auto paired =
        two[0].ws->wait_for([](const json& m) { return m["type"] == "tournament_paired"; }, 10s);
    ASSERT_FALSE(paired.is_null());
    EXPECT_EQ(server.store().tournament_games(tournament).value().size(), 1u);
}

}  // namespace
