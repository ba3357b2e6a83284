// The arena's chat as the machine sees it: anyone with an account may say a line (a player or
// not) until the end, the text within the room chat's limits; the state keeps the newest lines,
// oldest first, and the stored events replayed give the same lines.
#include "server/tournament/arena.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/limits.h"
#include "server/limits.h"
#include "server/tournament/arena_json.h"

namespace arena_chat_machine_test {

using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;

constexpr ArenaTime chat_start = 20'000'000;
constexpr std::int64_t chat_duration = 30 * 60'000;

ArenaState chat_arena() {
    ArenaConfig c;
    c.starts_at = chat_start;
    c.duration_ms = chat_duration;
    c.clock = TimeControl{ClockKind::real_time, 180, 0, 0};
    return new_arena(c);
}

// Decides `say` at `now` and applies its one event; the test fails unless it is a Said.
arena_event::Said say_line(ArenaState& state, const arena_input::Say& say, ArenaTime now) {
    const auto decision = decide(state, say, now);
    EXPECT_TRUE(decision.ok()) << (decision.refusal ? decision.refusal->message : "");
    EXPECT_EQ(decision.events.size(), 1u);
    if (decision.events.size() != 1 ||
        !std::holds_alternative<arena_event::Said>(decision.events.front())) {
        return {};
    }
    EXPECT_TRUE(apply(state, decision.events.front()).ok());
    return std::get<arena_event::Said>(decision.events.front());
}

// The refusal of `say` at `now`: no event, the state as it was.
ArenaRefusal say_refused(const ArenaState& state, const arena_input::Say& say, ArenaTime now) {
    const ArenaState before = state;
    const auto decision = decide(state, say, now);
    EXPECT_FALSE(decision.ok());
    EXPECT_TRUE(decision.events.empty());
    EXPECT_EQ(state, before);
    return decision.refusal.value_or(ArenaRefusal{});
}

std::string repeated(const std::string& piece, std::size_t times) {
    std::string out;
    for (std::size_t i = 0; i < times; ++i) {
        out += piece;
    }
    return out;
}

TEST(ArenaChat, AnyoneMayTalkBeforeAndDuringTheArenaAtTheTimeGiven) {
    ArenaState state = chat_arena();
    // Nobody has joined: a watcher with an account talks before the start.
    const auto early = say_line(state, {"p_watcher", "Wendy", "who is coming?"}, chat_start - 5);
    EXPECT_EQ(early, (arena_event::Said{"p_watcher", "Wendy", "who is coming?", chat_start - 5}));
    ASSERT_TRUE(apply(state, arena_event::Joined{"p_ann", 1500}).ok());
    say_line(state, {"p_ann", "ann", "good luck all"}, chat_start + 1'000);
    ASSERT_EQ(state.chat.size(), 2u);
    EXPECT_EQ(state.chat[0],
              (ArenaChatLine{"p_watcher", "Wendy", "who is coming?", chat_start - 5}));
    EXPECT_EQ(state.chat[1], (ArenaChatLine{"p_ann", "ann", "good luck all", chat_start + 1'000}));
    EXPECT_TRUE(state.players.count("p_ann"));
    EXPECT_FALSE(state.players.count("p_watcher"));  // talking is not joining
}

TEST(ArenaChat, AnEmptyOrTooLongLineIsABadFieldAndChangesNothing) {
    ArenaState state = chat_arena();
    EXPECT_EQ(say_refused(state, {"p_ann", "ann", ""}, chat_start).code, ArenaErrorCode::bad_field);
    EXPECT_EQ(say_refused(state, {"", "ann", "hi"}, chat_start).code, ArenaErrorCode::bad_field);
    // The limit counts characters, not bytes: 300 two-byte letters pass, one more does not.
    const auto longest = repeated("é", protocol::max_chat_length);
    EXPECT_EQ(say_line(state, {"p_ann", "ann", longest}, chat_start).text, longest);
    const auto refused = say_refused(state, {"p_ann", "ann", longest + "é"}, chat_start);
    EXPECT_EQ(refused.code, ArenaErrorCode::bad_field);
    EXPECT_EQ(refused.message, "a chat line has 1 to 300 characters");
}

TEST(ArenaChat, TheChatClosesAtTheEnd) {
    ArenaState state = chat_arena();
    const ArenaTime end = chat_start + chat_duration;
    say_line(state, {"p_ann", "ann", "last words"}, end - 1);
    // The end has come though it is not applied yet, then once it is.
    EXPECT_EQ(say_refused(state, {"p_ann", "ann", "too late"}, end).code,
              ArenaErrorCode::tournament_finished);
    for (const auto& event : decide_time(state, end)) {
        ASSERT_TRUE(apply(state, event).ok());
    }
    ASSERT_TRUE(state.finished);
    EXPECT_EQ(say_refused(state, {"p_ann", "ann", "too late"}, end + 60'000).code,
              ArenaErrorCode::tournament_finished);
    ASSERT_EQ(state.chat.size(), 1u);  // what was said stays
    EXPECT_EQ(state.chat.front().text, "last words");
}

TEST(ArenaChat, TheStateKeepsTheNewestLinesAndTheReplayGivesThemBack) {
    ArenaState state = chat_arena();
    std::vector<ArenaEvent> stored;
    const std::size_t said = server::chat_lines_kept + 5;
    for (std::size_t i = 0; i < said; ++i) {
        const auto decision =
            decide(state, arena_input::Say{"p_ann", "ann", "line " + std::to_string(i)},
                   chat_start + static_cast<ArenaTime>(i));
        ASSERT_TRUE(decision.ok());
        for (const auto& event : decision.events) {
            ASSERT_TRUE(apply(state, event).ok());
            stored.push_back(event);
        }
    }
    ASSERT_EQ(state.chat.size(), server::chat_lines_kept);
    EXPECT_EQ(state.chat.front().text, "line 5");  // the oldest five are gone
    EXPECT_EQ(state.chat.back().text, "line " + std::to_string(said - 1));
    // A restart: the stored form read back and applied to a new arena.
    ArenaState replayed = chat_arena();
    for (const auto& event : stored) {
        const auto decoded = decode_event(encode_event(event));
        ASSERT_TRUE(decoded.ok()) << decoded.error();
        ASSERT_TRUE(apply(replayed, *decoded).ok());
    }
    EXPECT_EQ(replayed, state);
}

}  // namespace arena_chat_machine_test
