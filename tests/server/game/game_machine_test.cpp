// The game machine without a room: decisions on hand-made states, and the property that a replay
// of the stored events is the live state (and that a decision on a state's scratch copy is the
// same decision), over random games of all three variants with draws, takebacks, more time,
// Sniderman's phases and clocks.
#include "server/game/game_machine.h"

#include <gtest/gtest.h>

#include <random>

#include "server/game/game_views.h"

namespace {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
using server::Command;
using server::GameRecord;
using server::GameState;
using server::ServerTime;
namespace events = protocol::events;

GameRecord record_of(const std::string& variant, const std::string& time_control,
                     std::uint64_t seed = 7) {
    GameRecord record;
    record.id = "g_test";
    record.variant = variant;
    record.rules = "house";
    record.seats = {"p_ann", "p_bob"};
    record.time_control = time_control;
    if (variant == "sniderman") {
        record.seed = seed;
        record.rounds = 3;
    } else {
        auto game = core::make_game(*core::parse_variant(variant), {});
        record.start_fen = (*game)->start_fen();
    }
    return record;
}

Command command(RequestType type, int seat) {
    Command c;
    c.request.type = type;
    c.seat = seat;
    c.player_id = seat == 0 ? "p_ann" : "p_bob";
    c.name = seat == 0 ? "Ann" : "Bob";
    return c;
}

// The live side of a game: decisions applied as a room applies them, with their stored texts.
struct Live {
    GameState state;
    std::vector<server::StoredEvent> stored;

    // As a room does: time first (a flag, a missed first move), then the request's decision;
    // the events of each are applied and stored unless the decision is an error. Any request but
    // a takeback is decided the same on the state's scratch copy, which has no history.
    server::Decision run(const Command& c, ServerTime now) {
        commit(server::decide_time(state, now), now);
        auto decision = server::decide(state, c, now);
        if (!is_takeback(c.request.type)) {
            expect_same(server::decide(state.scratch(), c, now), decision);
        }
        if (!decision.error) {
            commit(decision.events, now);
        }
        return decision;
    }
    static bool is_takeback(RequestType type) {
        return type == RequestType::takeback_offer || type == RequestType::takeback_accept ||
               type == RequestType::takeback_decline;
    }
    static void expect_same(const server::Decision& a, const server::Decision& b) {
        ASSERT_EQ(a.error.has_value(), b.error.has_value());
        if (a.error) {
            EXPECT_EQ(a.error->code, b.error->code);
            EXPECT_EQ(a.error->message, b.error->message);
        }
        ASSERT_EQ(a.events.size(), b.events.size());
        for (std::size_t i = 0; i < a.events.size(); ++i) {
            EXPECT_EQ(events::encode_event_text(a.events[i]),
                      events::encode_event_text(b.events[i]));
        }
    }
    void commit(std::vector<events::RoomEvent> decided, ServerTime now) {
        for (auto& event : decided) {
            const auto text = events::encode_event_text(event);
            ASSERT_TRUE(server::apply(state, event, now)) << text;
            stored.push_back({static_cast<std::int64_t>(stored.size()) + 1, text});
        }
    }
};

// The state as the snapshot shows it, and what decides the future without showing: each seat's
// lag grace (its quota), when time next decides, the more time each seat gave, the clocks a
// takeback would go back to.
json view(const GameState& state, ServerTime now) {
    auto view = server::snapshot_json(state, {}, 0, nullptr, now);
    const auto deadline = server::next_deadline(state);
    view["hidden"] = {
        {"grace", {state.clock.grace(0), state.clock.grace(1)}},
        {"next_deadline", deadline ? json(server::unix_ms(*deadline)) : json(nullptr)},
        {"moretime_given", state.moretime_given},
        {"increment", {state.clock.increment_ms(0), state.clock.increment_ms(1)}},
        {"clock_history", state.clock_history.size()}};
    return view;
}

TEST(GameMachine, MoveOutOfTurnIsRefusedAndChangesNothing) {
    const auto t = ServerTime{} + std::chrono::hours(1);
    auto state = server::replay(record_of("chessence", "300+2"), {}, t);
    ASSERT_TRUE(state);
    auto c = command(RequestType::move, 1);
    c.request.move = state->game->legal_moves().front();
    const auto decision = server::decide(*state, c, t);
    ASSERT_TRUE(decision.error);
    EXPECT_EQ(decision.error->code, ErrorCode::not_your_turn);
    EXPECT_EQ(state->version, 0);
}

TEST(GameMachine, IllegalMoveIsRefused) {
    const auto t = ServerTime{} + std::chrono::hours(1);
    auto state = server::replay(record_of("chesica", "-"), {}, t);
    ASSERT_TRUE(state);
    auto c = command(RequestType::move, 0);
    c.request.move = "a1-a8";
    const auto decision = server::decide(*state, c, t);
    ASSERT_TRUE(decision.error);
    EXPECT_EQ(decision.error->code, ErrorCode::illegal_move);
}

TEST(GameMachine, DecideDoesNotChangeTheState) {
    const auto t = ServerTime{} + std::chrono::hours(1);
    auto state = server::replay(record_of("chessence", "60+0"), {}, t);
    ASSERT_TRUE(state);
    const auto before = view(*state, t);
    auto c = command(RequestType::move, 0);
    c.request.move = state->game->legal_moves().front();
    const auto decision = server::decide(*state, c, t);
    ASSERT_FALSE(decision.error);
    ASSERT_EQ(decision.events.size(), 1u);
    EXPECT_EQ(view(*state, t), before);
}

// 60+0: the lag quota gains 390 ms per move, so White's flag falls 390 ms after zero and a move in
// between is saved only by a lag credit that covers what it is late.
TEST(GameMachine, AScratchCopyHasNoHistoriesAndGrowsNone) {
    const auto t = ServerTime{} + std::chrono::hours(1);
    auto state = server::replay(record_of("chesica", "180+2"), {}, t);
    ASSERT_TRUE(state);
    for (int ply = 0; ply < 6; ++ply) {
        auto c = command(RequestType::move, ply % 2);
        c.request.move = state->game->legal_moves().front();
        auto decision = server::decide(*state, c, t);
        ASSERT_FALSE(decision.error);
        for (auto& event : decision.events) {
            ASSERT_TRUE(server::apply(*state, event, t));
        }
    }
    ASSERT_EQ(state->fens.size(), 7u);
    ASSERT_EQ(state->clock_history.size(), 7u);
    auto scratch = state->scratch();
    EXPECT_TRUE(scratch.fens.empty());
    EXPECT_TRUE(scratch.clock_history.empty());
    EXPECT_EQ(scratch.version, state->version);
    EXPECT_EQ(scratch.game->fen(), state->game->fen());
    EXPECT_NE(&*scratch.game, &*state->game) << "the game is a copy";
    // Applying a move to it changes the position and the clocks but extends no history.
    auto c = command(RequestType::move, 0);
    c.request.move = scratch.game->legal_moves().front();
    auto decision = server::decide(scratch, c, t);
    ASSERT_FALSE(decision.error);
    ASSERT_TRUE(server::apply(scratch, decision.events.front(), t));
    EXPECT_EQ(scratch.version, state->version + 1);
    EXPECT_TRUE(scratch.fens.empty());
    EXPECT_TRUE(scratch.clock_history.empty());
}

TEST(GameMachine, FlagFallsAfterTheLagGraceAndAMoveInsideItIsSavedByItsCredit) {
    const auto t0 = ServerTime{} + std::chrono::hours(1);
    Live live{*server::replay(record_of("chessence", "60+0"), {}, t0), {}};
    const auto first_legal = [&] { return live.state.game->legal_moves().front(); };
    auto white = command(RequestType::move, 0);
    auto black = command(RequestType::move, 1);
    white.request.move = first_legal();
    ASSERT_FALSE(live.run(white, t0).error);
    black.request.move = first_legal();
    const auto t1 = t0 + std::chrono::seconds(1);
    ASSERT_FALSE(live.run(black, t1).error);  // White's clock runs from here, 60 s
    const auto late = t1 + std::chrono::milliseconds(60200);
    EXPECT_TRUE(server::decide_time(live.state, late).empty()) << "inside the grace";
    EXPECT_EQ(live.state.clock.flag_time(), t1 + std::chrono::milliseconds(60390));

    white.request.move = first_legal();
    white.lag_ms = 100;  // credits 100 ms of the 200 ms it is late: too little
    const auto refused = server::decide(live.state, white, late);
    ASSERT_TRUE(refused.error);
    EXPECT_EQ(refused.error->code, ErrorCode::game_over);

    white.lag_ms = 300;  // credits 300 ms: the move arrived with 100 ms to spare
    const auto saved = live.run(white, late);
    ASSERT_FALSE(saved.error) << saved.error->message;
    EXPECT_FALSE(live.state.result);
    const auto& move = std::get<events::Move>(saved.events.front());
    EXPECT_EQ(move.lag_ms, 300);
    EXPECT_EQ(move.clock->left[0], 100);
    EXPECT_EQ(move.clock->at, server::unix_ms(late));
}

TEST(GameMachine, FlagFallsOnceTheGraceIsUsedUp) {
    const auto t0 = ServerTime{} + std::chrono::hours(1);
    Live live{*server::replay(record_of("chesica", "60+0"), {}, t0), {}};
    auto white = command(RequestType::move, 0);
    auto black = command(RequestType::move, 1);
    white.request.move = live.state.game->legal_moves().front();
    ASSERT_FALSE(live.run(white, t0).error);
    black.request.move = live.state.game->legal_moves().front();
    ASSERT_FALSE(live.run(black, t0).error);
    const auto ending = server::decide_time(live.state, t0 + std::chrono::milliseconds(60390));
    ASSERT_EQ(ending.size(), 1u);
    const auto& over = std::get<events::GameOver>(ending.front());
    EXPECT_EQ(over.result.reason, "timeout");
    EXPECT_EQ(over.result.winner, live.state.seat_name(1));
}

TEST(GameMachine, ResignationEndsTheGameForTheOpponent) {
    const auto t = ServerTime{} + std::chrono::hours(1);
    Live live{*server::replay(record_of("chesica", "-"), {}, t), {}};
    ASSERT_FALSE(live.run(command(RequestType::resign, 0), t).error);
    ASSERT_TRUE(live.state.result);
    EXPECT_EQ(live.state.result->reason, "resignation");
    EXPECT_EQ(live.state.result->winner, live.state.seat_name(1));
    const auto again = live.run(command(RequestType::resign, 1), t);
    ASSERT_TRUE(again.error);
    EXPECT_EQ(again.error->code, ErrorCode::game_over);
}

// A random request of a player who may act, as a person could send it.
Command random_command(const GameState& state, std::mt19937& rng) {
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const int seat = state.acting_seat().value_or(pick(2));
    const int roll = pick(100);
    if (roll < 4) {
        return command(pick(2) ? RequestType::draw_offer : RequestType::draw_decline, pick(2));
    }
    if (roll < 10) {
        static const std::array types = {RequestType::takeback_offer, RequestType::takeback_accept,
                                         RequestType::takeback_decline};
        return command(types[static_cast<std::size_t>(pick(3))], pick(2));
    }
    if (roll < 12) {
        return command(RequestType::moretime, pick(2));
    }
    if (roll < 13) {
        return command(RequestType::abort, pick(2));
    }
    if (roll < 16 && state.in_tournament()) {
        return command(RequestType::berserk, pick(2));
    }
    if (state.match) {
        switch (state.match->phase()) {
            case core::sniderman::MatchPhase::naming: {
                auto c = command(RequestType::name_object, seat);
                const auto objects = state.match->available_objects();
                c.request.object =
                    objects[static_cast<std::size_t>(pick(static_cast<int>(objects.size())))];
                return c;
            }
            case core::sniderman::MatchPhase::choosing: {
                auto c = command(RequestType::choose_side, seat);
                c.request.side = pick(2) ? core::Side::first : core::Side::second;
                return c;
            }
            default:
                break;
        }
    }
    auto c = command(RequestType::move, seat);
    const auto legal = state.current_game().legal_moves();
    c.request.move = legal.empty()
                         ? "a1-a2"
                         : legal[static_cast<std::size_t>(pick(static_cast<int>(legal.size())))];
    return c;
}

// Plays a random game through the machine, with time passing between requests (flags may fall),
// and checks after every decision that replaying the stored events later gives the live state as
// the snapshot shows it, the running clock included.
void expect_replay_is_live(const std::string& variant, const std::string& time_control,
                           unsigned seed, bool tournament = false) {
    std::mt19937 rng(seed);
    auto record = record_of(variant, time_control, seed);
    if (tournament) {
        record.tournament_id = "t_test";  // with berserks, and no aborts
        record.berserkable = true;
    }
    auto t = ServerTime{} + std::chrono::hours(1);
    Live live{*server::replay(record, {}, t), {}};
    int decisions = 0;
    for (int step = 0; step < 400 && !live.state.result; ++step) {
        t += std::chrono::milliseconds(rng() % 4000);
        auto c = random_command(live.state, rng);
        c.lag_ms = static_cast<int>(rng() % 400);
        const auto decision = live.run(c, t);
        if (decision.error || decision.events.empty()) {
            continue;
        }
        ++decisions;
        auto replayed = server::replay(record, live.stored, t);
        ASSERT_TRUE(replayed) << replayed.error();
        ASSERT_EQ(view(*replayed, t), view(live.state, t))
            << variant << " seed " << seed << " after " << live.stored.size() << " events";
    }
    EXPECT_GT(decisions, 5) << variant << " seed " << seed;
}

TEST(GameMachineProperty, ReplayOfStoredEventsIsTheLiveStateInChessence) {
    for (unsigned seed = 1; seed <= 6; ++seed) {
        expect_replay_is_live("chessence", seed % 2 ? "180+2" : "-", seed);
    }
}

TEST(GameMachineProperty, ReplayOfStoredEventsIsTheLiveStateInChesica) {
    for (unsigned seed = 1; seed <= 6; ++seed) {
        expect_replay_is_live("chesica", seed % 2 ? "60+0" : "1/86400", seed);
    }
}

TEST(GameMachineProperty, ReplayOfStoredEventsIsTheLiveStateInSniderman) {
    for (unsigned seed = 1; seed <= 6; ++seed) {
        expect_replay_is_live("sniderman", seed % 2 ? "120+1" : "-", seed);
    }
}

TEST(GameMachineProperty, ReplayOfStoredEventsIsTheLiveStateInTournamentGames) {
    for (unsigned seed = 1; seed <= 6; ++seed) {
        const char* variant = seed % 3 == 0 ? "sniderman" : seed % 3 == 1 ? "chessence" : "chesica";
        expect_replay_is_live(variant, seed % 2 ? "180+2" : "60+3", seed, true);
    }
}

}  // namespace
