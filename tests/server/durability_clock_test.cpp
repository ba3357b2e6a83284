// Clocks survive kill -9: a real chessence-server process on SQLite plays a timed game, is killed
// without warning in the middle of it and restarted on the same file. Every acknowledged move comes
// back with its clocks; the running clock resumes from the reading of the last accepted move (the
// time the server was down is charged to nobody); play goes on; the record carries the TimeControl
// tag and each move's %clk.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "core/record.h"
#include "server/live_server.h"
#include "server/storage_test_util.h"

namespace {

using live_test::Client;
using live_test::json;
using live_test::ServerProcess;
using namespace std::chrono_literals;

struct Seat {
    std::unique_ptr<Client> client;
    std::string token;
};

void hello(Seat& seat, const std::string& name) {
    json request{{"type", "hello"}, {"protocol", 1}, {"name", name}};
    if (!seat.token.empty()) {
        request["token"] = seat.token;
    }
    seat.client->send(request);
    const auto welcome = seat.client->next_of("welcome");
    ASSERT_TRUE(welcome.has_value());
    seat.token = welcome->value("token", seat.token);
}

// Plays legal[pick % n] for `mover` as the game's ply `ply` and returns its acknowledged move
// event (earlier broadcasts still queued for the mover are skipped).
json play(Seat& mover, const std::string& game_id, const json& legal, std::size_t pick, int ply) {
    mover.client->send({{"type", "move"},
                        {"game_id", game_id},
                        {"move", legal[pick % legal.size()]},
                        {"id", static_cast<int>(pick)}});
    const auto event = mover.client->next([&](const json& m) {
        return (m.value("type", "") == "event" && m["event"].value("kind", "") == "move" &&
                m["event"].value("ply", 0) == ply) ||
               m.value("type", "") == "error";
    });
    EXPECT_TRUE(event && event->value("type", "") == "event") << (event ? event->dump() : "none");
    return event ? (*event)["event"] : json();
}

TEST(ServerDurability, ClocksSurviveSigkillAndTheDowntimeIsChargedToNobody) {
    storage_test::TempDir dir;
    const auto db = dir.file("clocks.db");
    const auto web_root = dir.file("web");
    std::filesystem::create_directories(web_root);
    const auto log = dir.file("server.log");
    Seat white;
    Seat black;
    std::string game_id;
    std::vector<json> acked;  // every acknowledged move event, in order
    {
        ServerProcess server(db, web_root, log);
        ASSERT_NE(server.port(), 0) << "see " << log;
        white.client = std::make_unique<Client>(server.port());
        black.client = std::make_unique<Client>(server.port());
        hello(white, "Walter");
        hello(black, "Bella");
        white.client->send({{"type", "seek_create"},
                            {"variant", "chesica"},
                            {"side", "white"},
                            {"clock", {{"initial", 60}, {"increment", 1}}}});
        const auto created = white.client->next_of("seek_created");
        ASSERT_TRUE(created.has_value());
        black.client->send(
            {{"type", "seek_accept"}, {"seek_id", (*created)["seek"].value("seek_id", "")}});
        const auto snapshot = black.client->next_of("snapshot");
        ASSERT_TRUE(snapshot.has_value());
        game_id = snapshot->value("game_id", "");
        json legal = (*snapshot)["legal"];
        for (std::size_t ply = 0; ply < 6; ++ply) {
            std::this_thread::sleep_for(150ms);  // real thinking time, so the clocks move
            auto event = play(ply % 2 == 0 ? white : black, game_id, legal, ply * 3 + 1,
                              static_cast<int>(ply) + 1);
            ASSERT_TRUE(event.contains("clock")) << event.dump();
            legal = event["legal"];
            acked.push_back(std::move(event));
        }
        server.kill_now();
    }
    const auto last = acked.back()["clock"];
    ASSERT_EQ(last["running"], "white");
    EXPECT_LT(last["white"].get<int>(), 60000 + 2 * 1000) << "White paid for its two timed moves";
    std::this_thread::sleep_for(1500ms);  // the server stays down for a while

    const auto restarting = std::chrono::steady_clock::now();
    ServerProcess server(db, web_root, log);
    ASSERT_NE(server.port(), 0) << "see " << log;
    white.client = std::make_unique<Client>(server.port());
    hello(white, "Walter");
    white.client->send({{"type", "watch"}, {"game_id", game_id}, {"since", 0}});
    const auto caught_up = white.client->next_of("events");
    ASSERT_TRUE(caught_up.has_value());
    std::size_t move = 0;
    for (const auto& entry : (*caught_up)["events"]) {
        if (entry["event"].value("kind", "") == "move" && move < acked.size()) {
            EXPECT_EQ(entry["event"]["clock"], acked[move]["clock"]) << "move " << move;
            EXPECT_EQ(entry["event"].value("lag_ms", 0), acked[move].value("lag_ms", 0));
            ++move;
        }
    }
    EXPECT_EQ(move, acked.size());
    white.client->send({{"type", "watch"}, {"game_id", game_id}});
    const auto snapshot = white.client->next_of("snapshot");
    ASSERT_TRUE(snapshot.has_value());
    const auto since_restart = std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now() - restarting)
                                   .count();
    const auto& now = (*snapshot)["clock"];
    EXPECT_EQ(now["running"], "white");
    EXPECT_EQ(now["black"], last["black"]);
    const auto charged = last["white"].get<std::int64_t>() - now["white"].get<std::int64_t>();
    EXPECT_GE(charged, 0);
    EXPECT_LE(charged, since_restart) << "only the time since the restart runs, not the 1.5 s down";

    // Play goes on with the clocks as they were.
    auto next = play(white, game_id, (*snapshot)["legal"], 0, static_cast<int>(acked.size()) + 1);
    EXPECT_EQ(next["clock"]["black"], last["black"]);
    EXPECT_EQ(next["clock"]["running"], "black");

    const auto [status, pgn] = live_test::http_get(server.port(), "/api/games/" + game_id + ".pgn");
    ASSERT_EQ(status, 200) << pgn;
    const auto records = core::parse_records(pgn);
    ASSERT_TRUE(records.ok()) << records.error() << "\n" << pgn;
    const auto& record = records->front();
    EXPECT_EQ(record.tag("TimeControl"), "60+1");
    ASSERT_EQ(record.clocks.size(), acked.size() + 1) << pgn;
    for (std::size_t i = 0; i < acked.size(); ++i) {
        const auto mover = i % 2 == 0 ? "white" : "black";
        EXPECT_EQ(record.clocks[i], acked[i]["clock"][mover].get<std::int64_t>() / 100 * 100);
    }
}

// Issue 42, finding 11: after a crash the time the player to move used before it stays used, but
// for at most one heartbeat (1 s) after its last one, which counts as the end of the run.
TEST(ServerDurability, TimeUsedBeforeACrashIsChargedButForAtMostOneHeartbeat) {
    storage_test::TempDir dir;
    const auto db = dir.file("crash.db");
    const auto web_root = dir.file("web");
    std::filesystem::create_directories(web_root);
    const auto log = dir.file("server.log");
    Seat white;
    Seat black;
    std::string game_id;
    json last;
    std::chrono::steady_clock::time_point killed;
    std::chrono::steady_clock::time_point last_move;
    constexpr auto thinking = 3200ms;  // White's, between Black's move and the crash
    {
        ServerProcess server(db, web_root, log);
        ASSERT_NE(server.port(), 0) << "see " << log;
        white.client = std::make_unique<Client>(server.port());
        black.client = std::make_unique<Client>(server.port());
        hello(white, "Wanda");
        hello(black, "Boris");
        white.client->send({{"type", "seek_create"},
                            {"variant", "chesica"},
                            {"side", "white"},
                            {"clock", {{"initial", 60}, {"increment", 0}}}});
        const auto created = white.client->next_of("seek_created");
        ASSERT_TRUE(created.has_value());
        black.client->send(
            {{"type", "seek_accept"}, {"seek_id", (*created)["seek"].value("seek_id", "")}});
        const auto snapshot = black.client->next_of("snapshot");
        ASSERT_TRUE(snapshot.has_value());
        game_id = snapshot->value("game_id", "");
        auto first = play(white, game_id, (*snapshot)["legal"], 1, 1);
        auto second = play(black, game_id, first["legal"], 2, 2);
        last_move = std::chrono::steady_clock::now();
        last = second["clock"];
        ASSERT_EQ(last["running"], "white");
        std::this_thread::sleep_for(thinking);
        killed = std::chrono::steady_clock::now();
        server.kill_now();
    }
    ServerProcess server(db, web_root, log);
    ASSERT_NE(server.port(), 0) << "see " << log;
    white.client = std::make_unique<Client>(server.port());
    hello(white, "Wanda");
    white.client->send({{"type", "watch"}, {"game_id", game_id}});
    const auto snapshot = white.client->next_of("snapshot");
    ASSERT_TRUE(snapshot.has_value());
    const auto since_kill = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - killed)
                                .count();
    const auto used =
        std::chrono::duration_cast<std::chrono::milliseconds>(killed - last_move).count();
    const auto& now = (*snapshot)["clock"];
    ASSERT_EQ(now["running"], "white");
    const auto charged = last["white"].get<std::int64_t>() - now["white"].get<std::int64_t>();
    // Charged: what White used up to its run's last heartbeat (at most 1 s before the crash; 300
    // ms for the readings' rounding and the time a beat takes), and the time since the restart.
    EXPECT_GE(charged, used - 1000 - 300)
        << "White used " << used << " ms before the crash and got back more than a heartbeat";
    EXPECT_LE(charged, used + since_kill) << "the downtime itself is charged to nobody";
}

}  // namespace
