#include "server/tournament/arena.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/tournament/arena_standings.h"

namespace arena_machine_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;

constexpr ArenaTime start = 10'000'000;
constexpr std::int64_t thirty_minutes = 30 * 60'000;
constexpr ArenaTime end = start + thirty_minutes;

ArenaConfig config(int initial_s = 180, int increment_s = 0, bool berserkable = true) {
    ArenaConfig c;
    c.starts_at = start;
    c.duration_ms = thirty_minutes;
    c.clock = TimeControl{ClockKind::real_time, initial_s, increment_s, 0};
    c.berserkable = berserkable;
    return c;
}

struct Arena {
    ArenaState state;

    explicit Arena(const ArenaConfig& c = config()) : state(new_arena(c)) {}

    // Decides `input` at `now` and applies its events; the test fails on a refusal.
    std::vector<ArenaEvent> run(const ArenaInput& input, ArenaTime now) {
        const ArenaDecision decision = decide(state, input, now);
        EXPECT_TRUE(decision.ok()) << (decision.refusal ? decision.refusal->message : "");
        for (const auto& event : decision.events) {
            const core::Status applied = apply(state, event);
            EXPECT_TRUE(applied.ok()) << (applied.ok() ? "" : applied.error());
        }
        return decision.events;
    }
    // The refusal of `input` at `now`; the test fails unless it is refused with no event and
    // the state is as it was.
    ArenaRefusal refused(const ArenaInput& input, ArenaTime now) {
        const ArenaState before = state;
        const ArenaDecision decision = decide(state, input, now);
        EXPECT_FALSE(decision.ok());
        EXPECT_TRUE(decision.events.empty());
        EXPECT_EQ(state, before);
        return decision.refusal.value_or(ArenaRefusal{});
    }
    void join(const std::string& id, int rating, ArenaTime now = start - 60'000) {
        run(arena_input::Join{id, rating}, now);
    }
    // Pairs the players of `present` at `now`; the games' numbers.
    std::vector<arena_event::Paired> pass(const std::vector<std::string>& present, ArenaTime now) {
        std::vector<arena_event::Paired> pairs;
        for (const auto& event : run(arena_input::PairingPass{present}, now)) {
            pairs.push_back(std::get<arena_event::Paired>(event));
        }
        return pairs;
    }
    // Pairs `a` and `b` (alone in the pass) and returns the game.
    arena_event::Paired pair(const std::string& a, const std::string& b, ArenaTime now) {
        const auto pairs = pass({a, b}, now);
        EXPECT_EQ(pairs.size(), 1u);
        return pairs.empty() ? arena_event::Paired{} : pairs.front();
    }
    void finish(int game, std::optional<Side> winner, int plies, ArenaTime now) {
        run(arena_input::GameFinished{game, winner, plies, false, false}, now);
    }
    int points(const std::string& id) const {
        for (const auto& s : standings(state)) {
            if (s.id == id) {
                return s.points;
            }
        }
        return -1;
    }
    int rank(const std::string& id) const { return ranks(state).at(id); }
};

Side side_of(const arena_event::Paired& p, const std::string& id) {
    return p.first == id ? Side::first : Side::second;
}

TEST(ArenaMachine, ConfigsOutsideTwentyToOneHundredEightyMinutesOrWithoutAClockAreRefused) {
    EXPECT_TRUE(check_config(config()).ok());
    ArenaConfig c = config();
    c.duration_ms = 19 * 60'000;
    EXPECT_FALSE(check_config(c).ok());
    c.duration_ms = 181 * 60'000;
    EXPECT_FALSE(check_config(c).ok());
    c = config();
    c.clock = TimeControl{};
    EXPECT_FALSE(check_config(c).ok());
}

TEST(ArenaMachine, JoiningTwiceIsRefusedAndChangesNothing) {
    Arena arena;
    arena.join("a", 1500);
    EXPECT_EQ(arena.refused(arena_input::Join{"a", 1500}, start).code,
              ArenaErrorCode::already_joined);
    arena.run(arena_input::Pause{"a"}, start + 1'000);
    EXPECT_EQ(arena.refused(arena_input::Join{"a", 1500}, start + 2'000).code,
              ArenaErrorCode::already_joined);
    EXPECT_EQ(arena_error_name(ArenaErrorCode::already_joined), "already_joined");
}

TEST(ArenaMachine, BadInputsAreRefusedWithTheirCodeAndChangeNothing) {
    Arena arena;
    arena.join("a", 1500);
    arena.join("b", 1600);
    EXPECT_EQ(arena.refused(arena_input::Join{"c", -1}, start).code, ArenaErrorCode::bad_field);
    EXPECT_EQ(arena.refused(arena_input::Join{"c", 4001}, start).code, ArenaErrorCode::bad_field);
    EXPECT_EQ(arena.refused(arena_input::Join{"", 1500}, start).code, ArenaErrorCode::bad_field);
    EXPECT_EQ(arena.refused(arena_input::Withdraw{"z"}, start).code, ArenaErrorCode::not_joined);
    EXPECT_EQ(arena.refused(arena_input::Pause{"a"}, start - 1).code, ArenaErrorCode::not_started);
    EXPECT_EQ(arena.refused(arena_input::ComeBack{"a"}, start).code, ArenaErrorCode::not_paused);
    EXPECT_EQ(arena.refused(arena_input::Berserk{"a", false}, start).code,
              ArenaErrorCode::not_in_game);
    EXPECT_EQ(arena.refused(arena_input::Berserk{"z", false}, start).code,
              ArenaErrorCode::not_joined);
    EXPECT_EQ(arena.refused(arena_input::GameStarted{7, "g7"}, start).code,
              ArenaErrorCode::no_such_game);
    EXPECT_EQ(
        arena.refused(arena_input::GameFinished{7, std::nullopt, 30, false, false}, start).code,
        ArenaErrorCode::no_such_game);
    EXPECT_EQ(arena.refused(arena_input::FirstMoveMissed{7, Side::first}, start).code,
              ArenaErrorCode::no_such_game);
    EXPECT_EQ(arena.refused(arena_input::GameCancelled{7}, start).code,
              ArenaErrorCode::no_such_game);
    const auto game = arena.pair("a", "b", start + 20'000);
    arena.run(arena_input::GameStarted{game.game, "room1"}, start + 20'100);
    EXPECT_EQ(arena.refused(arena_input::GameStarted{game.game, "room1"}, start + 20'200).code,
              ArenaErrorCode::game_already_started);
    EXPECT_EQ(arena.refused(arena_input::GameStarted{game.game, ""}, start + 20'200).code,
              ArenaErrorCode::bad_field);
    EXPECT_EQ(arena
                  .refused(arena_input::GameFinished{game.game, std::nullopt, -1, false, false},
                           start + 30'000)
                  .code,
              ArenaErrorCode::bad_field);
    arena.run(arena_input::Pause{"a"}, start + 30'000);
    EXPECT_EQ(arena.refused(arena_input::Pause{"a"}, start + 31'000).code,
              ArenaErrorCode::already_paused);
    // After the end, every request.
    EXPECT_EQ(arena.refused(arena_input::Join{"c", 1500}, end).code,
              ArenaErrorCode::tournament_finished);
    EXPECT_EQ(arena.refused(arena_input::Withdraw{"b"}, end).code,
              ArenaErrorCode::tournament_finished);
    EXPECT_EQ(arena.refused(arena_input::ComeBack{"a"}, end + 1).code,
              ArenaErrorCode::tournament_finished);
    EXPECT_EQ(arena_error_name(ArenaErrorCode::tournament_finished), "tournament_finished");
    EXPECT_EQ(arena_error_name(ArenaErrorCode::berserk_after_first_move),
              "berserk_after_first_move");
}

TEST(ArenaMachine, WithdrawingBeforeTheStartLeavesAndAfterItKeepsTheStanding) {
    Arena arena;
    arena.join("a", 1500);
    arena.join("b", 1600);
    arena.join("c", 1700);
    const auto left = arena.run(arena_input::Withdraw{"c"}, start - 1);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<arena_event::Left>(left[0]));
    EXPECT_FALSE(arena.state.players.count("c"));
    const auto game = arena.pair("a", "b", start + 20'000);
    arena.finish(game.game, side_of(game, "a"), 40, start + 100'000);
    const auto withdrew = arena.run(arena_input::Withdraw{"a"}, start + 101'000);
    ASSERT_EQ(withdrew.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<arena_event::Withdrew>(withdrew[0]));
    EXPECT_EQ(arena.points("a"), 2);
    EXPECT_EQ(arena.rank("a"), 1);
    EXPECT_EQ(arena.refused(arena_input::Withdraw{"a"}, start + 102'000).code,
              ArenaErrorCode::not_joined);
}

TEST(ArenaMachine, AWithdrawnPlayerIsNotPairedAndMayJoinAgain) {
    Arena arena;
    for (const char* id : {"a", "b", "c"}) {
        arena.join(id, 1500);
    }
    arena.run(arena_input::Withdraw{"c"}, start + 1'000);
    const auto pairs = arena.pass({"a", "b", "c"}, start + 20'000);
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_NE(pairs[0].first, "c");
    EXPECT_NE(pairs[0].second, "c");
    const auto back = arena.run(arena_input::Join{"c", 1650}, start + 21'000);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<arena_event::Rejoined>(back[0]));
    EXPECT_EQ(arena.state.players.at("c").rating, 1650);
    EXPECT_EQ(arena.state.players.at("c").status, PlayerStatus::active);
}

TEST(ArenaMachine, ATopSevenPlayerWhoPausesWaitsTenSecondsThenLonger) {
    Arena arena;  // 3+0: a game of 180 s, so a step of 12 s
    const std::vector<std::pair<std::string, int>> players = {{"a", 1500}, {"b", 1490}, {"c", 1480},
                                                              {"d", 1470}, {"e", 1460}, {"f", 1450},
                                                              {"g", 1440}, {"h", 900}};
    for (const auto& [id, rating] : players) {
        arena.join(id, rating);
    }
    const auto game = arena.pair("a", "b", start + 20'000);
    arena.finish(game.game, side_of(game, "a"), 40, start + 60'000);
    ASSERT_EQ(arena.rank("a"), 1);
    ASSERT_EQ(arena.rank("h"), 8);

    const ArenaTime t = start + 100'000;
    const auto paused = arena.run(arena_input::Pause{"a"}, t);
    ASSERT_EQ(paused.size(), 1u);
    EXPECT_TRUE(std::get<arena_event::Paused>(paused[0]).counted);
    const auto wait = arena.refused(arena_input::ComeBack{"a"}, t + 5'000);
    EXPECT_EQ(wait.code, ArenaErrorCode::pause_wait);
    EXPECT_NE(wait.message.find("5 s"), std::string::npos) << wait.message;
    EXPECT_TRUE(arena.pass({"a", "c"}, t + 6'000).empty());  // a paused: not waiting
    arena.run(arena_input::ComeBack{"a"}, t + 9'000);        // 1 s left: rounding
    EXPECT_EQ(arena.state.players.at("a").status, PlayerStatus::active);

    // The second pause waits 12 s; withdrawing does not go round it.
    arena.run(arena_input::Pause{"a"}, t + 20'000);
    EXPECT_EQ(arena.refused(arena_input::ComeBack{"a"}, t + 30'500).code,
              ArenaErrorCode::pause_wait);
    arena.run(arena_input::Withdraw{"a"}, t + 30'600);
    EXPECT_EQ(arena.refused(arena_input::Join{"a", 1500}, t + 30'700).code,
              ArenaErrorCode::pause_wait);
    arena.run(arena_input::Join{"a", 1500}, t + 31'000);

    // The last player's pause is not counted: back at once.
    const auto low = arena.run(arena_input::Pause{"h"}, t + 40'000);
    EXPECT_FALSE(std::get<arena_event::Paused>(low[0]).counted);
    arena.run(arena_input::ComeBack{"h"}, t + 40'001);
    EXPECT_FALSE(arena.state.players.at("h").pause.has_value());
}

TEST(ArenaMachine, BerserkIsRefusedWhenNotAllowedWithoutABaseOrAfterTheFirstMove) {
    for (const auto& [c, code] : std::vector<std::pair<ArenaConfig, ArenaErrorCode>>{
             {config(180, 0, false), ArenaErrorCode::berserk_not_allowed},
             {config(0, 3), ArenaErrorCode::berserk_no_base_time}}) {
        Arena arena(c);
        arena.join("a", 1500);
        arena.join("b", 1500);
        arena.pair("a", "b", start + 20'000);
        EXPECT_EQ(arena.refused(arena_input::Berserk{"a", false}, start + 20'100).code, code);
    }
    Arena arena;
    arena.join("a", 1500);
    arena.join("b", 1500);
    const auto game = arena.pair("a", "b", start + 20'000);
    EXPECT_EQ(arena.refused(arena_input::Berserk{"a", true}, start + 20'100).code,
              ArenaErrorCode::berserk_after_first_move);
    const auto events = arena.run(arena_input::Berserk{"a", false}, start + 20'200);
    ASSERT_EQ(events.size(), 1u);
    const auto& berserked = std::get<arena_event::Berserked>(events[0]);
    EXPECT_EQ(berserked.game, game.game);
    EXPECT_EQ(berserked.side, side_of(game, "a"));
    EXPECT_EQ(arena.refused(arena_input::Berserk{"a", false}, start + 20'300).code,
              ArenaErrorCode::already_berserk);
    // a's berserk win of 20 plies: 2 + 1.
    arena.finish(game.game, side_of(game, "a"), 20, start + 60'000);
    EXPECT_EQ(arena.points("a"), 3);
    EXPECT_TRUE(arena.state.players.at("a").sheet.back().berserk);
    EXPECT_FALSE(arena.state.players.at("b").sheet.back().berserk);
    // A berserk the room reports counts too.
    const auto next = arena.pair("a", "b", start + 70'000);  // the only two: they meet again
    const bool b_first = next.first == "b";
    arena.run(arena_input::GameFinished{next.game, side_of(next, "b"), 30, b_first, !b_first},
              start + 90'000);
    EXPECT_EQ(arena.points("b"), 3);
}

TEST(ArenaMachine, AMissedFirstMoveLosesTheGameAndWithdraws) {
    Arena arena;
    for (const char* id : {"a", "b", "c"}) {
        arena.join(id, 1500);
    }
    const auto game = arena.pair("a", "b", start + 20'000);
    const Side a_side = side_of(game, "a");
    const auto events = arena.run(arena_input::FirstMoveMissed{game.game, a_side}, start + 50'000);
    ASSERT_EQ(events.size(), 2u);
    const auto& done = std::get<arena_event::GameFinished>(events[0]);
    EXPECT_EQ(done.winner, core::opposite(a_side));
    EXPECT_EQ(std::get<arena_event::Withdrew>(events[1]).player, "a");
    EXPECT_EQ(arena.state.players.at("a").status, PlayerStatus::withdrawn);
    EXPECT_EQ(arena.state.players.at("a").sheet.back().outcome, Outcome::loss);
    EXPECT_EQ(arena.points("b"), 2);
    EXPECT_TRUE(arena.state.games.empty());
    EXPECT_TRUE(arena.pass({"a", "c"}, start + 51'000).empty());
}

TEST(ArenaMachine, GamesStillRunningAtTheEndDoNotCount) {
    Arena arena;
    for (const char* id : {"a", "b", "c", "d"}) {
        arena.join(id, 1500);
    }
    const auto first = arena.pair("a", "b", start + 20'000);
    const auto second = arena.pair("c", "d", start + 20'000);
    arena.finish(first.game, side_of(first, "a"), 40, end - 1);
    EXPECT_TRUE(decide_time(arena.state, end - 1).empty());
    EXPECT_EQ(next_deadline(arena.state), end);
    // The news of the second game comes at the end: too late, before or after Finished.
    EXPECT_EQ(
        arena
            .refused(arena_input::GameFinished{second.game, side_of(second, "c"), 40, false, false},
                     end)
            .code,
        ArenaErrorCode::tournament_finished);
    const auto ended = decide_time(arena.state, end);
    ASSERT_EQ(ended.size(), 1u);
    ASSERT_TRUE(apply(arena.state, ended[0]).ok());
    EXPECT_TRUE(arena.state.finished);
    EXPECT_TRUE(arena.state.games.empty());
    EXPECT_FALSE(arena.state.players.at("c").game.has_value());
    EXPECT_TRUE(decide_time(arena.state, end + 1).empty());
    EXPECT_FALSE(next_deadline(arena.state).has_value());
    EXPECT_EQ(
        arena
            .refused(arena_input::GameFinished{second.game, side_of(second, "c"), 40, false, false},
                     end + 5'000)
            .code,
        ArenaErrorCode::tournament_finished);
    EXPECT_EQ(arena.points("a"), 2);
    EXPECT_EQ(arena.points("c"), 0);
    EXPECT_TRUE(arena.state.players.at("c").sheet.empty());
    EXPECT_TRUE(arena.pass({"a", "b", "c", "d"}, end + 6'000).empty());
}

TEST(ArenaMachine, PairingRunsFromTheStartUntilTheStopBeforeTheEnd) {
    Arena arena;  // 3+0: pairing stops 90 s before the end
    for (const char* id : {"a", "b", "c", "d"}) {
        arena.join(id, 1500);
    }
    EXPECT_TRUE(arena.pass({"a", "b"}, start - 1).empty());
    const auto early = arena.pair("a", "b", start);
    arena.finish(early.game, std::nullopt, 40, start + 100'000);
    EXPECT_TRUE(arena.pass({"c", "d"}, end - 90'000).empty());
    EXPECT_EQ(arena.pass({"c", "d"}, end - 90'001).size(), 1u);
}

TEST(ArenaMachine, OnlyWaitingPlayersWithAConnectionArePaired) {
    Arena arena;
    for (const char* id : {"a", "b", "c", "d", "e"}) {
        arena.join(id, 1500);
    }
    const auto pairs = arena.pass({"a", "b", "c", "zz", "a"}, start + 20'000);
    ASSERT_EQ(pairs.size(), 1u);
    for (const auto& id : {pairs[0].first, pairs[0].second}) {
        EXPECT_TRUE(id == "a" || id == "b" || id == "c") << id;
    }
    // The two in a game are not waiting: the third waits with d.
    const auto next = arena.pass({"a", "b", "c", "d"}, start + 22'000);
    ASSERT_EQ(next.size(), 1u);
    EXPECT_TRUE(next[0].first == "d" || next[0].second == "d");
}

TEST(ArenaMachine, TheOnlyTwoPlayAgainButNotWhileOthersCouldComeBack) {
    Arena arena;
    for (const char* id : {"a", "b", "c", "d"}) {
        arena.join(id, 1500);
    }
    const auto ab = arena.pair("a", "b", start + 20'000);
    const auto cd = arena.pair("c", "d", start + 20'000);
    arena.finish(ab.game, std::nullopt, 40, start + 60'000);
    // a and b wait alone, but c and d will be free soon.
    EXPECT_TRUE(arena.pass({"a", "b", "c", "d"}, start + 62'000).empty());
    arena.finish(cd.game, std::nullopt, 40, start + 63'000);
    const auto four = arena.pass({"a", "b", "c", "d"}, start + 64'000);
    ASSERT_EQ(four.size(), 2u);
    for (const auto& p : four) {
        EXPECT_FALSE((p.first == "a" && p.second == "b") || (p.first == "b" && p.second == "a"));
    }
    // Two players only: they meet again.
    Arena two;
    two.join("a", 1500);
    two.join("b", 1500);
    const auto game = two.pair("a", "b", start + 20'000);
    two.finish(game.game, std::nullopt, 40, start + 60'000);
    EXPECT_EQ(two.pass({"a", "b"}, start + 62'000).size(), 1u);
}

TEST(ArenaMachine, TheFirstFifteenSecondsPairByRating) {
    Arena arena;
    for (const auto& [id, rating] : std::vector<std::pair<std::string, int>>{
             {"a", 1000}, {"b", 2000}, {"c", 1100}, {"d", 1900}}) {
        arena.join(id, rating);
    }
    const auto pairs = arena.pass({"a", "b", "c", "d"}, start + 14'999);
    ASSERT_EQ(pairs.size(), 2u);
    const auto together = [&](const std::string& x, const std::string& y) {
        for (const auto& p : pairs) {
            if ((p.first == x && p.second == y) || (p.first == y && p.second == x)) {
                return true;
            }
        }
        return false;
    };
    EXPECT_TRUE(together("b", "d"));
    EXPECT_TRUE(together("a", "c"));
}

TEST(ArenaMachine, ACancelledGameFreesBothAndScoresNothing) {
    Arena arena;
    arena.join("a", 1500);
    arena.join("b", 1500);
    const auto game = arena.pair("a", "b", start + 20'000);
    arena.run(arena_input::GameCancelled{game.game}, start + 20'500);
    EXPECT_TRUE(arena.state.games.empty());
    EXPECT_TRUE(arena.state.players.at("a").sheet.empty());
    EXPECT_FALSE(arena.state.players.at("b").game.has_value());
}

}  // namespace arena_machine_test
