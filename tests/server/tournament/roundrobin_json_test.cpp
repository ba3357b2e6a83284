// The round robin's stored form: every event and the settings read back as they were written,
// bad text is refused with a message naming what is wrong, and stored events replayed from the
// stored settings give the live state.
#include "server/tournament/roundrobin_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace roundrobin_json_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;
namespace ev = roundrobin_event;

constexpr RoundRobinTime json_start = 1'767'225'600'000;  // 2026-01-01, in milliseconds

// One event of every kind, with the values easiest to lose (no winner, the second side, a name
// outside ASCII).
std::vector<RoundRobinEvent> rr_one_of_each() {
    return {
        ev::Joined{"ana", 1500, false},
        ev::Joined{"bot_1", 2210, true},
        ev::Left{"cy"},
        ev::Started{{"ana", "Zoë", "bot_1"}, json_start},
        ev::Withdrew{"Zoë"},
        ev::Paired{3, json_start + 2'000},
        ev::GameStarted{3, "g-8xYz"},
        ev::GameFinished{3, std::nullopt},
        ev::GameFinished{4, Side::second},
        ev::GameCancelled{5},
        ev::Forfeited{6, Side::second},
        ev::Unplayed{7},
        ev::Finished{json_start + 9'000, false},
        ev::Finished{json_start, true},
    };
}

RoundRobinConfig rr_sample_config() {
    RoundRobinConfig c;
    c.starts_at = json_start;
    c.double_round = true;
    c.game_deadline_ms = 7LL * 24 * 3'600'000;
    c.clock = TimeControl{ClockKind::correspondence, 0, 0, 3};
    c.variant = core::VariantId::chessence;
    c.rules = core::RuleSet::strict;
    c.rated = false;
    c.bots_allowed = true;
    c.max_players = 10;
    return c;
}

TEST(TournamentRoundRobinJson, EveryEventKindRoundTrips) {
    for (const auto& event : rr_one_of_each()) {
        const std::string text = encode_roundrobin_event(event);
        SCOPED_TRACE(text);
        const auto back = decode_roundrobin_event(text);
        ASSERT_TRUE(back) << back.error();
        EXPECT_EQ(*back, event);
        EXPECT_EQ(roundrobin_event_kind(*back), roundrobin_event_kind(event));
    }
}

TEST(TournamentRoundRobinJson, StoredFormIsCompactWithSortedKeys) {
    EXPECT_EQ(encode_roundrobin_event(ev::Started{{"a", "b", "c"}, 1'000}),
              R"({"at":1000,"kind":"started","players":["a","b","c"]})");
    EXPECT_EQ(encode_roundrobin_event(ev::GameFinished{3, std::nullopt}),
              R"({"game":3,"kind":"game_finished","winner":null})");
    EXPECT_EQ(encode_roundrobin_event(ev::Forfeited{4, Side::first}),
              R"({"game":4,"kind":"forfeited","winner":"first"})");
    EXPECT_EQ(encode_roundrobin_config(rr_sample_config()),
              R"({"bots_allowed":true,"clock":{"days":3},"double_round":true,)"
              R"("game_deadline_ms":604800000,"max_players":10,"rated":false,"rules":"strict",)"
              R"("starts_at":1767225600000,"variant":"chessence"})");
}

TEST(TournamentRoundRobinJson, ConfigRoundTripsAndUnknownFieldsAreIgnored) {
    const auto back = decode_roundrobin_config(encode_roundrobin_config(rr_sample_config()));
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(*back, rr_sample_config());
    const auto event = decode_roundrobin_event(R"({"kind":"unplayed","game":2,"why":"late"})");
    ASSERT_TRUE(event) << event.error();
    EXPECT_EQ(*event, (RoundRobinEvent{ev::Unplayed{2}}));
}

TEST(TournamentRoundRobinJson, BadTextIsRefusedWithWhatIsWrong) {
    const auto error_of = [](std::string_view text) {
        const auto event = decode_roundrobin_event(text);
        return event ? std::string("read") : event.error();
    };
    EXPECT_EQ(error_of("not json"), "a round-robin event must be JSON");
    EXPECT_EQ(error_of("[1]"), "a round-robin event must be a JSON object");
    EXPECT_EQ(error_of(R"({"game":1})"), "a round-robin event needs a `kind` string");
    EXPECT_EQ(error_of(R"({"kind":"paused"})"), "unknown round-robin event kind `paused`");
    EXPECT_EQ(error_of(R"({"kind":"started","players":["a",2],"at":1})"),
              "started event: `players` must be an array of strings");
    EXPECT_EQ(error_of(R"({"kind":"forfeited","game":1,"winner":null})"),
              "forfeited event: `winner` must be \"first\" or \"second\"");
    EXPECT_EQ(error_of(R"({"kind":"game_finished","game":1})"),
              "game_finished event: `winner` is missing");
    EXPECT_EQ(error_of(R"({"kind":"finished","at":1.5,"cancelled":false})"),
              "finished event: `at` must be whole milliseconds");
    const auto config_error = [](std::string text) {
        const auto config = decode_roundrobin_config(text);
        return config ? std::string("read") : config.error();
    };
    std::string text = encode_roundrobin_config(rr_sample_config());
    EXPECT_EQ(config_error(text.replace(text.find("\"strict\""), 8, "\"loose\"")),
              "round-robin settings: `rules` must be house or strict");
    text = encode_roundrobin_config(rr_sample_config());
    EXPECT_EQ(config_error(text.replace(text.find("\"max_players\":10,"), 17, "")),
              "round-robin settings: `max_players` is missing");
}

// What a restart does: the stored settings and events, read back and replayed, give the state
// the live machine reached.
TEST(TournamentRoundRobinJson, StoredEventsReplayedFromStoredConfigGiveTheLiveState) {
    RoundRobinConfig c = rr_sample_config();
    c.double_round = false;
    RoundRobinState live = new_round_robin(c);
    std::vector<std::string> stored;
    const auto keep = [&](const std::vector<RoundRobinEvent>& events) {
        for (const auto& event : events) {
            ASSERT_TRUE(apply(live, event).ok());
            stored.push_back(encode_roundrobin_event(event));
        }
    };
    const auto run = [&](const RoundRobinInput& input, RoundRobinTime now) {
        const auto decision = decide(live, input, now);
        ASSERT_TRUE(decision.ok()) << decision.refusal->message;
        keep(decision.events);
    };
    run(roundrobin_input::Join{"ana", 1500, false}, json_start - 5);
    run(roundrobin_input::Join{"bo", 1700, true}, json_start - 4);
    run(roundrobin_input::Join{"cy", 1600, false}, json_start - 3);
    run(roundrobin_input::Join{"dee", 1400, false}, json_start - 2);
    keep(decide_time(live, json_start));
    run(roundrobin_input::ReadyPass{{"ana", "bo", "cy", "dee"}}, json_start + 1);
    run(roundrobin_input::GameStarted{1, "room-1"}, json_start + 2);
    run(roundrobin_input::GameFinished{1, Side::first}, json_start + 3);
    run(roundrobin_input::Withdraw{"cy"}, json_start + 4);

    auto config = decode_roundrobin_config(encode_roundrobin_config(c));
    ASSERT_TRUE(config) << config.error();
    RoundRobinState replayed = new_round_robin(*config);
    for (const auto& text : stored) {
        const auto event = decode_roundrobin_event(text);
        ASSERT_TRUE(event) << event.error();
        ASSERT_TRUE(apply(replayed, *event).ok()) << text;
    }
    EXPECT_EQ(replayed, live);
    EXPECT_TRUE(replayed.players.at("cy").withdrawn);
    EXPECT_EQ(replayed.games.at(0).state, RoundRobinGameState::finished);
}

}  // namespace roundrobin_json_test
