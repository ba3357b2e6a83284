#include "protocol/events.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "protocol/messages.h"
#include "protocol/schema_validator.h"

namespace {

using nlohmann::json;
namespace events = protocol::events;

events::ClockReading clock(std::array<std::int64_t, 2> left, std::optional<int> running,
                           bool by_player = false) {
    return events::ClockReading{left, running, by_player, std::nullopt};
}

// One event of every kind, with every optional field set somewhere.
std::vector<events::RoomEvent> one_of_each() {
    return {
        events::Move{"e3-e4", "white", std::nullopt, 1},
        events::Move{"a1xb2", "odd", "player1", 3},
        events::GameOver{{"black", "checkmate"}},
        events::GameOver{{std::nullopt, "agreement"}},
        events::DrawOffered{"white"},
        events::DrawDeclined{"black"},
        events::RematchOffered{"black"},
        events::RematchStarted{"g_0123456789abcdef0123456789abcdef"},
        events::Chat{"Ann", "p_1", "white", "good luck", "2026-11-23T10:00:00Z"},
        events::Chat{"Sam", "p_2", std::nullopt, "hi", "2026-11-23T10:00:01Z"},
        events::RoundStarted{2, "qbnr/rnbk/KBNR/RNBQ 1", "player0"},
        events::ObjectNamed{"player1", 4},
        events::SideChosen{"player0", "player0", "player1"},
        events::RoundOver{1, "even", "player1", {0, 1}},
        events::Move{"d2xb4", "white", std::nullopt, 9, clock({281400, 300000}, 1), 120},
        events::Move{"a1xb2", "even", "player0", 2, clock({59000, 60000}, 1, true)},
        events::GameOver{{"white", "timeout"}, clock({4100, 0}, std::nullopt)},
        events::GameOver{{std::nullopt, "aborted"}},
        events::GameOver{{"black", "abandoned"}, clock({100, 200}, std::nullopt)},
        events::ObjectNamed{"player1", 4, clock({60000, 60000}, std::nullopt, true)},
        events::SideChosen{"player0", "player0", "player1", clock({60000, 60000}, 1, true), 40},
        events::TakebackOffered{"white"},
        events::TakebackDeclined{"black"},
        events::Takeback{"white", 2, clock({290000, 295000}, 0)},
        events::Takeback{"black", 1},
        events::MoreTime{"black", 15000, clock({75000, 40000}, 0)},
        events::Berserk{"white", clock({150000, 300000}, std::nullopt)},
        events::Berserk{"player1", clock({60000, 30000}, 0, true)},
    };
}

class Events : public ::testing::Test {
protected:
    schema::Validator validator_{schema::protocol_schema_root()};
};

TEST_F(Events, EveryKindRoundTripsThroughItsStoredForm) {
    for (const auto& event : one_of_each()) {
        const auto text = events::encode_event_text(event);
        const auto back = events::decode_event_text(text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.error();
        EXPECT_EQ(events::encode_event_text(*back), text);
        EXPECT_EQ(events::kind_name(*back), events::kind_name(event));
    }
}

TEST_F(Events, TheStoredFormMatchesTheSchemaOfItsKind) {
    for (const auto& event : one_of_each()) {
        const auto stored = events::encode_event(event);
        const auto kind = std::string(events::kind_name(event));
        EXPECT_EQ(stored["kind"], kind);
        const auto errors = validator_.validate(stored, "events/" + kind + ".json");
        EXPECT_TRUE(errors.empty()) << stored.dump() << ": " << (errors.empty() ? "" : errors[0]);
        const auto united = validator_.validate(stored, "events/event.json");
        EXPECT_TRUE(united.empty()) << stored.dump();
    }
}

TEST_F(Events, ClocksAreWrittenBySeatWithTheRunningSeat) {
    const auto move = events::encode_event(
        events::Move{"e3-e4", "white", std::nullopt, 3, clock({299000, 300000}, 1), 80});
    EXPECT_EQ(move["clock"], (json{{"white", 299000}, {"black", 300000}, {"running", "black"}}));
    EXPECT_EQ(move["lag_ms"], 80);
    const auto round =
        events::encode_event(events::ObjectNamed{"player1", 4, clock({1, 2}, std::nullopt, true)});
    EXPECT_EQ(round["clock"], (json{{"player0", 1}, {"player1", 2}, {"running", nullptr}}));
    EXPECT_FALSE(round.contains("lag_ms")) << "no lag credited, none written";
    EXPECT_FALSE(
        events::encode_event(events::Move{"e3-e4", "white", std::nullopt, 1}).contains("clock"))
        << "unlimited games have no clocks";
    const auto bad = events::decode_event_text(
        R"({"kind":"move","move":"e3-e4","by":"white","ply":1,"clock":{"white":1,"running":null}})");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("black"), std::string::npos) << bad.error();
    EXPECT_FALSE(events::decode_event_text(R"({"kind":"moretime","by":"white","ms":15000})").ok());
    EXPECT_FALSE(events::decode_event_text(R"({"kind":"berserk","by":"white"})").ok())
        << "a berserk carries the clocks after it";
    EXPECT_FALSE(
        events::decode_event_text(
            R"({"kind":"takeback","by":"white","plies":1,"clock":{"white":1,"black":2,"running":"odd"}})")
            .ok());
}

TEST_F(Events, TheStoredFormKeepsOnlyWhatHappened) {
    EXPECT_EQ(events::encode_event(events::Move{"e3-e4", "white", std::nullopt, 1}),
              (json{{"kind", "move"}, {"move", "e3-e4"}, {"by", "white"}, {"ply", 1}}));
    EXPECT_EQ(events::encode_event(events::ObjectNamed{"player0", 7}),
              (json{{"kind", "object_named"}, {"by", "player0"}, {"object", 7}}));
}

TEST_F(Events, AnOlderFatterFormStillReads) {
    const auto old = json::parse(R"({"kind":"move","move":"d2xb4","by":"white","ply":9,
        "fen":"x","board":{"files":6},"to_move":"black","legal":["a"],"in_check":true})");
    const auto move = events::decode_event(old);
    ASSERT_TRUE(move.ok()) << move.error();
    EXPECT_EQ(std::get<events::Move>(*move).move, "d2xb4");
    EXPECT_EQ(events::encode_event(*move).size(), 4u);
}

TEST_F(Events, BadEventsAreErrorsThatNameTheField) {
    const auto error_of = [](const char* text) {
        auto decoded = events::decode_event_text(text);
        return decoded.ok() ? std::string() : decoded.error();
    };
    EXPECT_NE(error_of("not json").find("JSON"), std::string::npos);
    EXPECT_NE(error_of("[1]").find("object"), std::string::npos);
    EXPECT_NE(error_of(R"({"by":"white"})").find("kind"), std::string::npos);
    EXPECT_NE(error_of(R"({"kind":"teleport"})").find("teleport"), std::string::npos);
    EXPECT_NE(error_of(R"({"kind":"move","move":"e3-e4","by":"white"})").find("ply"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"kind":"move","move":7,"by":"white","ply":1})").find("move"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"kind":"game_over","result":{"winner":1,"reason":"x"}})").find("winner"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"kind":"round_over","round":1,"winner":"odd","winner_player":"player0",
                          "score":[1]})")
                  .find("score"),
              std::string::npos);
}

TEST_F(Events, ALiveBroadcastAddsTheDerivedFieldsToTheStoredObject) {
    const auto stored = events::encode_event_text(events::ObjectNamed{"player0", 7});
    const auto frame = protocol::event_message("g_1", 3, stored, {{"text", "seven"}});
    const auto m = json::parse(frame);
    EXPECT_EQ(
        m["event"],
        (json{{"kind", "object_named"}, {"by", "player0"}, {"object", 7}, {"text", "seven"}}));
    EXPECT_TRUE(validator_.validate_message(m, "server").empty()) << frame;
}

TEST_F(Events, ACatchUpIsOneFrameWithThePositionAtTheEnd) {
    const std::vector<protocol::VersionedEvent> missed = {
        {4, events::encode_event_text(events::DrawOffered{"white"})},
        {5, events::encode_event_text(events::DrawDeclined{"black"})}};
    const json position = {
        {"fen", "8/8/8/8/8/8/8/8 w 0 1"},
        {"board", {{"files", 8}, {"ranks", 8}, {"squares", json::array()}, {"reserves", {0, 0}}}},
        {"to_move", "white"},
        {"legal", json::array()},
        {"in_check", false}};
    const auto m = json::parse(protocol::events_message("g_1", 5, missed, position, "w"));
    EXPECT_EQ(m["type"], "events");
    EXPECT_EQ(m["version"], 5);
    EXPECT_EQ(m["id"], "w");
    ASSERT_EQ(m["events"].size(), 2u);
    EXPECT_EQ(m["events"][1]["event"]["kind"], "draw_declined");
    EXPECT_TRUE(validator_.validate_message(m, "server").empty()) << m.dump();
}

}  // namespace

namespace {

// A move's text, written without the tree, is the tree's text byte for byte: over moves with and
// without a player, a clock (by side or by player, running or not, with or without its time) and
// a lag credit, and with characters that need escaping.
TEST(EventText, AMovesTextIsTheTreesText) {
    std::mt19937 rng(5);
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const std::vector<std::string> moves = {"e3-e4", "a1xb2", "N@c3", "q\"\\\n", "é-x", ""};
    for (int i = 0; i < 3000; ++i) {
        events::Move move{moves[static_cast<std::size_t>(pick(6))], pick(2) ? "white" : "odd",
                          std::nullopt, pick(400)};
        if (pick(2)) {
            move.player = pick(2) ? "player0" : "player1";
        }
        if (pick(3)) {
            events::ClockReading reading{{pick(1'000'000) - 1000, pick(1'000'000)},
                                         std::nullopt,
                                         pick(2) == 0,
                                         std::nullopt};
            if (pick(3)) {
                reading.running = pick(2);
            }
            if (pick(2)) {
                reading.at = 1'700'000'000'000 + pick(1'000'000);
            }
            move.clock = reading;
        }
        move.lag_ms = pick(3) ? pick(500) : 0;
        const events::RoomEvent event = move;
        ASSERT_EQ(events::encode_event_text(event), protocol::to_text(events::encode_event(event)))
            << "case " << i;
    }
}

}  // namespace
