// The tournament frames (issue 43): each built frame matches its schema and says what it was given.
#include "protocol/tournament_messages.h"

#include <gtest/gtest.h>

#include "protocol/schema_validator.h"

namespace {

using nlohmann::json;

class TournamentMessages : public ::testing::Test {
protected:
    json valid(const std::string& frame) {
        const auto message = json::parse(frame, nullptr, false);
        EXPECT_FALSE(message.is_discarded()) << frame;
        const auto errors = validator_.validate_message(message, "server");
        EXPECT_TRUE(errors.empty()) << frame << ": " << (errors.empty() ? "" : errors[0]);
        return message;
    }

    protocol::TournamentInfo info(const std::string& status) const {
        protocol::TournamentInfo i;
        i.id = "t_1";
        i.name = "Hourly Chesica Arena";
        i.variant = core::VariantId::chesica;
        i.clock.kind = protocol::ClockKind::real_time;
        i.clock.initial_seconds = 180;
        i.clock.increment_seconds = 2;
        i.minutes = 60;
        i.status = status;
        i.starts_at = 1'000'000;
        i.ends_at = 1'000'000 + 3'600'000;
        i.now = 1'000'000 + 600'000;
        i.players = 2;
        return i;
    }

    schema::Validator validator_{schema::protocol_schema_root()};
    const protocol::TournamentRow ann_{"p_1", "ann", 1, 6, 1612, 1780, 3, true, "active", "420"};
    const protocol::TournamentDuel duel_{"g_9", {"p_1", "ann", 1, 1612}, {"p_2", "bob", 2, 1540}};
    const protocol::TournamentRow bob_{"p_2", "bob", 2, 0, 1540, 1100, 3, false, "paused", "000"};
    const protocol::TournamentChatLine said_{"p_2", "bob", "gl hf", 1'795'809'600'999};
};

TEST_F(TournamentMessages, TheWatchAnswerCountsFromNow) {
    const auto started = valid(protocol::tournament_message(info("started"), {ann_, bob_}, {duel_},
                                                            3, ann_, "g_9", {said_}, "w1"));
    EXPECT_EQ(started["id"], "w1");
    EXPECT_EQ(started["tournament"]["seconds_to_finish"], 3000);
    EXPECT_FALSE(started["tournament"].contains("seconds_to_start"));
    EXPECT_EQ(started["tournament"]["variant"], "chesica");
    EXPECT_EQ(started["tournament"]["clock"], (json{{"initial", 180}, {"increment", 2}}));
    EXPECT_EQ(started["standings"][1]["status"], "paused");
    EXPECT_EQ(started["me"]["game_id"], "g_9");
    EXPECT_EQ(started["version"], 3);
    EXPECT_EQ(started["duels"][0]["game_id"], "g_9");
    EXPECT_EQ(started["duels"][0]["second"]["name"], "bob");
    EXPECT_EQ(started["chat"], (json::array({{{"player_id", "p_2"},
                                              {"from", "bob"},
                                              {"text", "gl hf"},
                                              {"at", "2026-11-27T20:00:00Z"}}})));

    auto early = info("created");
    early.now = early.starts_at - 90'000;
    const auto created =
        valid(protocol::tournament_message(early, {}, {}, 0, std::nullopt, "", {}, nullptr));
    EXPECT_EQ(created["tournament"]["seconds_to_start"], 90);
    EXPECT_EQ(created["chat"], json::array());
    EXPECT_FALSE(created.contains("me"));
}

TEST_F(TournamentMessages, PushesCarryTheirLines) {
    const auto delta =
        valid(protocol::tournament_standings_message("t_1", 4, 2, "started", {bob_}, {duel_}));
    EXPECT_EQ(delta["changed"].size(), 1u);
    EXPECT_EQ(delta["changed"][0]["sheet"], "000");
    EXPECT_EQ(delta["version"], 4);
    EXPECT_EQ(delta["duels"][0]["first"]["rank"], 1);
    const auto paired = valid(protocol::tournament_paired_message("t_1", "g_2", "black"));
    EXPECT_EQ(paired["game_id"], "g_2");
    EXPECT_EQ(paired["you"], "black");
    const auto finished = valid(protocol::tournament_finished_message("t_1", {ann_, bob_}));
    EXPECT_EQ(finished["podium"][0]["name"], "ann");
    const auto chat = valid(protocol::tournament_chat_message("t_1", said_));
    EXPECT_EQ(chat["tournament_id"], "t_1");
    EXPECT_EQ(chat["line"]["from"], "bob");
    EXPECT_EQ(chat["line"]["at"], "2026-11-27T20:00:00Z");  // to the second: the 999 ms dropped
}

}  // namespace
