// End to end: live games on a real chessence-server backed by SQLite; the server is SIGKILLed in
// the middle of a game and restarted on the same database; every move a player saw acknowledged is
// still there, the players get their seats back with their tokens, and play goes on.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/game.h"
#include "core/record.h"
#include "server/live_game.h"
#include "server/live_server.h"
#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace {

using live_test::Client;
using live_test::hello;
using live_test::json;
using live_test::LiveGame;
using live_test::play_one;
using live_test::Player;
using live_test::ServerProcess;
using live_test::start_game;

// After the restart: every acknowledged event of `game` comes back in order, in one catch-up frame,
// from `watch` with `since: 0`, and the snapshot holds exactly the acknowledged moves (plus,
// perhaps, `in_flight`).
json expect_restored(Player& watcher, const LiveGame& game, const std::string& in_flight) {
    watcher.client->send({{"type", "watch"}, {"game_id", game.id}, {"since", 0}});
    std::vector<std::string> replayed;
    auto caught_up = watcher.client->next([&](const json& m) {
        return m.value("type", "") == "events" && m.value("game_id", "") == game.id;
    });
    if (!caught_up) {
        ADD_FAILURE() << "no catch-up for " << game.id;
        return json();
    }
    EXPECT_GE(caught_up->value("version", std::int64_t{0}), game.last_acked_version);
    std::int64_t version = 0;
    for (const auto& event : (*caught_up)["events"]) {
        EXPECT_EQ(event.value("version", std::int64_t{0}), version + 1) << "gapless, in order";
        version = event.value("version", std::int64_t{0});
        if (version <= game.last_acked_version && event["event"].value("kind", "") == "move") {
            replayed.push_back(event["event"].value("move", ""));
        }
    }
    EXPECT_EQ(replayed, game.acked_moves);

    watcher.client->send({{"type", "watch"}, {"game_id", game.id}});
    auto snapshot = watcher.client->next([&](const json& m) {
        return m.value("type", "") == "snapshot" && m.value("game_id", "") == game.id;
    });
    if (!snapshot) {
        ADD_FAILURE() << "no snapshot of " << game.id;
        return json();
    }
    std::vector<std::string> moves = (*snapshot)["moves"];
    EXPECT_GE(moves.size(), game.acked_moves.size());
    EXPECT_LE(moves.size(), game.acked_moves.size() + (in_flight.empty() ? 0 : 1));
    EXPECT_TRUE(moves.size() >= game.acked_moves.size() &&
                std::equal(game.acked_moves.begin(), game.acked_moves.end(), moves.begin()));
    if (moves.size() > game.acked_moves.size()) {
        EXPECT_EQ(moves.back(), in_flight);
    }
    return *snapshot;
}

// On each durable store: a SQLite file, and a PostgreSQL database (`--db postgresql://…`).
class ServerDurability : public ::testing::TestWithParam<std::string> {};

TEST_P(ServerDurability, AcknowledgedMovesSurviveSigkillAndPlayContinues) {
    storage_test::TempDir dir;
    std::string db = dir.file("games.db");
    if (GetParam() == "postgresql") {
        auto uri = test::fresh_postgres_uri();
        ASSERT_TRUE(uri.ok()) << uri.error();
        db = *uri;
    }
    const auto web_root = dir.file("web");
    std::filesystem::create_directories(web_root);
    const auto log = dir.file("server.log");

    Player walter;
    Player bella;
    LiveGame chessence;
    LiveGame chesica;
    std::string in_flight;
    {
        ServerProcess server(db, web_root, log);
        ASSERT_NE(server.port(), 0) << "the server did not start; see " << log;
        walter.client = std::make_unique<Client>(server.port());
        bella.client = std::make_unique<Client>(server.port());
        hello(walter, "Walter");
        hello(bella, "Bella");
        ASSERT_FALSE(walter.token.empty() || bella.token.empty());
        chessence = start_game(walter, bella, "chessence");
        chesica = start_game(bella, walter, "chesica");
        ASSERT_FALSE(chessence.id.empty() || chesica.id.empty());

        // Both games move along side by side.
        for (std::size_t ply = 0; ply < 12; ++ply) {
            ASSERT_TRUE(chessence.play(ply * 7 + 2));
            ASSERT_TRUE(chesica.play(ply * 5 + 1));
        }
        // One more move is sent and the server dies before anyone can see its fate.
        in_flight = chessence.legal[0].get<std::string>();
        chessence.mover().client->send(
            {{"type", "move"}, {"game_id", chessence.id}, {"move", in_flight}});
        server.kill_now();
    }
    walter.client.reset();
    bella.client.reset();

    ServerProcess server(db, web_root, log);
    ASSERT_NE(server.port(), 0) << "the server did not restart on its database; see " << log;
    walter.client = std::make_unique<Client>(server.port());
    bella.client = std::make_unique<Client>(server.port());
    const auto walter_id = walter.id;
    const auto welcome = hello(walter, "Walter");
    EXPECT_EQ(walter.id, walter_id) << "the token restores the identity";
    ASSERT_TRUE(welcome.contains("games"));
    for (const auto* game : {&chessence, &chesica}) {
        EXPECT_NE(std::find(welcome["games"].begin(), welcome["games"].end(), game->id),
                  welcome["games"].end())
            << game->id << " is listed: " << welcome.dump();
    }
    hello(bella, "Bella");

    // Each player catches up on each game, as a reconnecting client does.
    const auto chessence_now = expect_restored(walter, chessence, in_flight);
    const auto chesica_now = expect_restored(bella, chesica, "");
    EXPECT_EQ(expect_restored(bella, chessence, in_flight).value("fen", ""),
              chessence_now.value("fen", ""));
    EXPECT_EQ(expect_restored(walter, chesica, "").value("fen", ""), chesica_now.value("fen", ""));
    ASSERT_TRUE(chessence_now.is_object() && chesica_now.is_object());

    // The game's record, served from the same database, has the same moves.
    const auto [status, pgn] =
        live_test::http_get(server.port(), "/api/games/" + chessence.id + ".pgn");
    ASSERT_EQ(status, 200) << pgn;
    auto records = core::parse_records(pgn);
    ASSERT_TRUE(records.ok()) << records.error() << "\n" << pgn;
    ASSERT_EQ(records->size(), 1u);
    EXPECT_EQ(records->front().moves, chessence_now["moves"].get<std::vector<std::string>>());
    EXPECT_EQ(records->front().tag("White"), "Walter");
    EXPECT_EQ(records->front().tag("Black"), "Bella");
    EXPECT_EQ(records->front().result, "*");

    // Play continues in both games from the restored positions, seen by both players.
    for (const auto& entry :
         {std::pair{&chesica, chesica_now}, std::pair{&chessence, chessence_now}}) {
        // Named, not a structured binding: the lambda below captures `game` (clang 14 cannot).
        auto* game = entry.first;
        const auto& now = entry.second;
        game->legal = now["legal"];
        game->to_move = now.value("to_move", "");
        game->last_acked_version = now.value("version", std::int64_t{0});
        Player& other = game->to_move == "white" ? *game->black : *game->white;
        ASSERT_TRUE(game->play(3));
        EXPECT_EQ(game->last_acked_version, now.value("version", std::int64_t{0}) + 1);
        const auto version = game->last_acked_version;
        auto seen = other.client->next([&](const json& m) {
            return m.value("type", "") == "event" && m.value("game_id", "") == game->id &&
                   m.value("version", std::int64_t{0}) == version;
        });
        EXPECT_TRUE(seen.has_value()) << "the opponent sees the move in " << game->id;
    }
}

INSTANTIATE_TEST_SUITE_P(DurableStores, ServerDurability,
                         ::testing::ValuesIn(test::durable_store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace

namespace {

// A live Sniderman match through the protocol; its exported record replays with the rules.
TEST(ServerRecords, SnidermanRoundRecordReplaysWithTheRules) {
    storage_test::TempDir dir;
    const auto web_root = dir.file("web");
    std::filesystem::create_directories(web_root);
    const auto log = dir.file("server.log");
    ServerProcess server(dir.file("games.db"), web_root, log);
    ASSERT_NE(server.port(), 0) << "the server did not start; see " << log;
    Player ann;
    Player bob;
    ann.client = std::make_unique<Client>(server.port());
    bob.client = std::make_unique<Client>(server.port());
    hello(ann, "Ann");
    hello(bob, "Bob");
    ann.client->send({{"type", "seek_create"}, {"variant", "sniderman"}, {"rounds", 1}});
    auto created = ann.client->next_of("seek_created");
    ASSERT_TRUE(created.has_value());
    bob.client->send(
        {{"type", "seek_accept"}, {"seek_id", (*created)["seek"].value("seek_id", "")}});
    auto bob_started = bob.client->next_of("game_started");
    auto ann_started = ann.client->next_of("game_started");
    ASSERT_TRUE(bob_started && ann_started);
    const auto game_id = bob_started->value("game_id", "");
    std::map<std::string, Player*> seat{{ann_started->value("you", ""), &ann},
                                        {bob_started->value("you", ""), &bob}};
    auto snapshot = bob.client->next_of("snapshot");
    ASSERT_TRUE(snapshot.has_value());
    ASSERT_TRUE(ann.client->next_of("snapshot").has_value());
    const auto namer_seat = (*snapshot)["match"].value("namer", "");
    ASSERT_EQ(seat.count(namer_seat), 1u) << snapshot->dump();
    Player& namer = *seat[namer_seat];
    Player& chooser = &namer == &ann ? bob : ann;

    namer.client->send({{"type", "name_object"}, {"game_id", game_id}, {"object", 5}});
    ASSERT_TRUE(namer.client->next_of("event", "object_named").has_value());
    chooser.client->send({{"type", "choose_side"}, {"game_id", game_id}, {"side", "odd"}});
    auto chosen = chooser.client->next_of("event", "side_chosen");
    ASSERT_TRUE(chosen.has_value());
    const auto odd = (*chosen)["event"].value("odd", "");
    const auto even = (*chosen)["event"].value("even", "");
    ASSERT_TRUE(seat.count(odd) && seat.count(even)) << chosen->dump();
    json legal = (*chosen)["event"]["legal"];
    std::string to_move = (*chosen)["event"].value("to_move", "");
    std::int64_t version = chosen->value("version", std::int64_t{0});
    std::vector<std::string> played;
    for (std::size_t ply = 0; ply < 15 && !legal.empty(); ++ply) {
        Player& mover = *seat[to_move == "odd" ? odd : even];
        auto event = play_one(mover, game_id, legal, ply * 3 + 1, version);
        ASSERT_TRUE(event.has_value());
        played.push_back((*event)["event"].value("move", ""));
        version = event->value("version", std::int64_t{0});
        legal = (*event)["event"].value("legal", json::array());
        const auto& next = (*event)["event"]["to_move"];
        to_move = next.is_string() ? next.get<std::string>() : "";
    }
    auto round_over = ann.client->next_of("event", "round_over");
    ASSERT_TRUE(round_over.has_value());
    ASSERT_TRUE(ann.client->next_of("event", "game_over").has_value());

    const auto [status, pgn] = live_test::http_get(server.port(), "/api/games/" + game_id + ".pgn");
    ASSERT_EQ(status, 200) << pgn;
    auto records = core::parse_records(pgn);
    ASSERT_TRUE(records.ok()) << records.error() << "\n" << pgn;
    ASSERT_EQ(records->size(), 1u) << pgn;
    const auto& record = records->front();
    EXPECT_EQ(record.moves, played);
    EXPECT_EQ(record.tag("Object"), "5");
    EXPECT_EQ(record.tag("Odd"), seat[odd] == &ann ? "Ann" : "Bob");
    EXPECT_EQ(record.tag("Winner"), (*round_over)["event"].value("winner", ""));
    EXPECT_EQ(record.tag("Termination"), "match_won");

    core::GameOptions options;
    options.fen = record.tag("FEN");
    options.object = 5;
    auto round = core::make_game(core::VariantId::sniderman, options);
    ASSERT_TRUE(round.ok()) << round.error();
    for (const auto& move : record.moves) {
        ASSERT_TRUE((*round)->play(move).ok()) << move;
    }
    ASSERT_TRUE((*round)->outcome().has_value());
    EXPECT_EQ(core::side_name(core::VariantId::sniderman, *(*round)->outcome()->winner),
              record.tag("Winner").value_or(""));
    EXPECT_EQ(record.result, record.tag("Winner") == "odd" ? "1-0" : "0-1");
}

}  // namespace
