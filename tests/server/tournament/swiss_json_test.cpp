#include "server/tournament/swiss_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace swiss_json_test {

using core::Side;
using namespace server::tournament;

TEST(SwissJson, EveryEventKindRoundTrips) {
    const std::vector<SwissEvent> events{
        swiss_event::Joined{"ann", 1520, false},
        swiss_event::Joined{"bot", 2000, true},
        swiss_event::Left{"cid"},
        swiss_event::Withdrew{"dan"},
        swiss_event::RoundPaired{2, {{3, "ann", "bob"}, {4, "cat", "dan"}}, "eve", 1234567},
        swiss_event::RoundPaired{3, {}, std::nullopt, 7},
        swiss_event::GameStarted{3, "g-77"},
        swiss_event::GameFinished{3, Side::second, false, 99},
        swiss_event::GameFinished{4, std::nullopt, false, 100},
        swiss_event::GameFinished{5, Side::first, true, 101},
        swiss_event::GameCancelled{6, 102},
        swiss_event::Finished{103, true},
    };
    for (const auto& event : events) {
        const std::string text = encode_swiss_event(event);
        const auto back = decode_swiss_event(text);
        ASSERT_TRUE(back) << text << ": " << back.error();
        EXPECT_EQ(*back, event) << text;
    }
    EXPECT_EQ(encode_swiss_event(swiss_event::Finished{5, false}),
              R"({"at":5,"early":false,"kind":"finished"})");
    EXPECT_EQ(encode_swiss_event(swiss_event::RoundPaired{1, {{1, "a", "b"}}, std::nullopt, 9}),
              R"({"at":9,"bye":null,"games":[{"first":"a","game":1,"second":"b"}],)"
              R"("kind":"round_paired","round":1})");
}

TEST(SwissJson, BadEventsAreErrorsNamingWhatIsWrong) {
    EXPECT_FALSE(decode_swiss_event("not json"));
    EXPECT_FALSE(decode_swiss_event("[1]"));
    EXPECT_FALSE(decode_swiss_event(R"({"player":"a"})"));
    const auto unknown = decode_swiss_event(R"({"kind":"exploded"})");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().find("exploded"), std::string::npos);
    const auto missing = decode_swiss_event(R"({"kind":"joined","player":"a","bot":false})");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("rating"), std::string::npos);
    const auto side = decode_swiss_event(
        R"({"kind":"game_finished","game":1,"winner":"white","forfeit":false,"at":1})");
    ASSERT_FALSE(side);
    EXPECT_NE(side.error().find("winner"), std::string::npos);
    const auto game = decode_swiss_event(
        R"({"kind":"round_paired","round":1,"games":[{"game":1,"first":"a"}],"bye":null,"at":1})");
    ASSERT_FALSE(game);
    EXPECT_NE(game.error().find("second"), std::string::npos);
    // Unknown fields are ignored.
    EXPECT_TRUE(decode_swiss_event(R"({"kind":"left","player":"a","extra":1})"));
}

TEST(SwissJson, ConfigRoundTrips) {
    SwissConfig config;
    config.starts_at = 1'700'000'000'000;
    config.rounds = 7;
    config.round_interval_ms = 3'600'000;
    config.clock = protocol::TimeControl{protocol::ClockKind::correspondence, 0, 0, 3};
    config.variant = core::VariantId::sniderman;
    config.rules = core::RuleSet::strict;
    config.rated = false;
    config.bots_allowed = true;
    const auto back = decode_swiss_config(encode_swiss_config(config));
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(*back, config);
    config.clock = protocol::TimeControl{protocol::ClockKind::real_time, 300, 3, 0};
    config.variant = core::VariantId::chesica;
    EXPECT_EQ(*decode_swiss_config(encode_swiss_config(config)), config);
    const auto bad = decode_swiss_config(R"({"starts_at":1,"rounds":"five"})");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("rounds"), std::string::npos);
    EXPECT_FALSE(decode_swiss_config("[]"));
}

}  // namespace swiss_json_test
