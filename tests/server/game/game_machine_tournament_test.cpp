// A tournament game in the game machine (issue 43): berserk (who may, when, what it does to the
// clocks, and that a replay gives the same clocks), a missed first move that loses (`no_start`,
// never rated), no abort and no rematch, and what the room tells the tournament at the end.
#include "server/game/game_machine.h"

#include <gtest/gtest.h>

#include "server/game/game_views.h"
#include "server/game/rating_rules.h"
#include "server/game/room.h"

namespace {

using protocol::ErrorCode;
using protocol::RequestType;
using server::Command;
using server::GameRecord;
using server::GameState;
using server::ServerTime;
namespace events = protocol::events;
using std::chrono::milliseconds;
using std::chrono::seconds;

const ServerTime arena_t0 = ServerTime{} + std::chrono::hours(1);

GameRecord tournament_record(const std::string& variant, const std::string& time_control,
                             bool berserkable = true, std::string tournament_id = "t_arena") {
    GameRecord record;
    record.id = "g_tournament";
    record.variant = variant;
    record.rules = "house";
    record.seats = {"p_ann", "p_bob"};
    record.time_control = time_control;
    record.tournament_id = std::move(tournament_id);
    record.berserkable = berserkable;
    record.created_at = server::unix_ms(arena_t0) / 1000;  // a replay starts the game at arena_t0
    if (variant == "sniderman") {
        record.seed = 7;
        record.rounds = 1;
    } else {
        record.start_fen = (*core::make_game(*core::parse_variant(variant), {}))->start_fen();
    }
    return record;
}

Command command(RequestType type, std::optional<int> seat) {
    Command c;
    c.request.type = type;
    c.seat = seat;
    c.player_id = seat == 1 ? "p_bob" : seat == 0 ? "p_ann" : "p_sam";
    return c;
}

// A game's state driven as a room drives it: time first, then the decision, applied and stored.
struct Game {
    GameRecord record;
    GameState state;
    std::vector<server::StoredEvent> stored;

    explicit Game(GameRecord r)
        : record(std::move(r)), state(*server::replay(record, {}, arena_t0)) {}

    server::Decision run(const Command& c, ServerTime now) {
        commit(server::decide_time(state, now), now);
        auto decision = server::decide(state, c, now);
        if (!decision.error) {
            commit(decision.events, now);
        }
        return decision;
    }
    // The seat to act plays its first legal move at `now`.
    void move(ServerTime now) {
        auto c = command(RequestType::move, state.acting_seat());
        c.request.move = state.game->legal_moves().front();
        const auto decision = run(c, now);
        ASSERT_FALSE(decision.error) << decision.error->message;
    }
    void commit(std::vector<events::RoomEvent> decided, ServerTime now) {
        for (auto& event : decided) {
            const auto text = events::encode_event_text(event);
            ASSERT_TRUE(server::apply(state, event, now)) << text;
            stored.push_back({static_cast<std::int64_t>(stored.size()) + 1, text});
        }
    }
    std::optional<ErrorCode> refused(RequestType type, std::optional<int> seat, ServerTime now) {
        const auto before = server::snapshot_json(state, {}, 0, nullptr, now);
        const auto decision = run(command(type, seat), now);
        EXPECT_EQ(server::snapshot_json(state, {}, 0, nullptr, now), before) << "changed nothing";
        return decision.error ? std::optional(decision.error->code) : std::nullopt;
    }
};

TEST(TournamentBerserk, HalvesTheBaseAndDropsTheIncrementForThatSeatOnly) {
    Game game(tournament_record("chessence", "180+2"));
    const auto decision = game.run(command(RequestType::berserk, 1), arena_t0);
    ASSERT_FALSE(decision.error) << decision.error->message;
    ASSERT_EQ(decision.events.size(), 1u);
    const auto& berserk = std::get<events::Berserk>(decision.events.front());
    EXPECT_EQ(berserk.by, "black");
    EXPECT_EQ(berserk.clock.left, (std::array<std::int64_t, 2>{180000, 90000}));
    EXPECT_EQ(game.state.berserk, (std::array<bool, 2>{false, true}));

    game.move(arena_t0);               // White's first move: untimed
    game.move(arena_t0 + seconds(1));  // Black's: untimed, White's clock starts
    game.move(arena_t0 + seconds(4));  // White took 3 s, gets its 2 s
    game.move(arena_t0 + seconds(9));  // Black took 5 s, gets nothing
    EXPECT_EQ(game.state.clock.left(0, arena_t0 + seconds(9)), 180000 - 3000 + 2000);
    EXPECT_EQ(game.state.clock.left(1, arena_t0 + seconds(9)), 90000 - 5000);
    EXPECT_EQ(game.state.clock.increment_ms(0), 2000);
    EXPECT_EQ(game.state.clock.increment_ms(1), 0);
}

TEST(TournamentBerserk, KeepsTheBaseUnderFortyIncrementsButStillDropsTheIncrement) {
    Game game(tournament_record("chesica", "60+2"));  // 60 s < 40 × 2 s
    const auto decision = game.run(command(RequestType::berserk, 0), arena_t0);
    ASSERT_FALSE(decision.error) << decision.error->message;
    EXPECT_EQ(std::get<events::Berserk>(decision.events.front()).clock.left,
              (std::array<std::int64_t, 2>{60000, 60000}));
    game.move(arena_t0);
    game.move(arena_t0 + seconds(1));
    game.move(arena_t0 + seconds(3));  // White took 2 s: no increment
    EXPECT_EQ(game.state.clock.left(0, arena_t0 + seconds(3)), 58000);
}

TEST(TournamentBerserk, RefusedAfterTheOwnFirstMoveOrTwice) {
    Game game(tournament_record("chessence", "180+2"));
    game.move(arena_t0);
    EXPECT_EQ(game.refused(RequestType::berserk, 0, arena_t0), ErrorCode::berserk_after_first_move);
    ASSERT_FALSE(game.run(command(RequestType::berserk, 1), arena_t0).error)
        << "Black has not moved";
    EXPECT_EQ(game.refused(RequestType::berserk, 1, arena_t0), ErrorCode::already_berserk);
    game.move(arena_t0 + seconds(1));
    EXPECT_EQ(game.refused(RequestType::berserk, 1, arena_t0 + seconds(1)),
              ErrorCode::already_berserk);
}

TEST(TournamentBerserk, RefusedOutsideABerserkableTournamentWithABaseTime) {
    GameRecord casual = tournament_record("chessence", "180+2", true, "");
    EXPECT_EQ(Game(casual).refused(RequestType::berserk, 0, arena_t0),
              ErrorCode::berserk_not_allowed);
    EXPECT_EQ(Game(tournament_record("chessence", "180+2", false))
                  .refused(RequestType::berserk, 0, arena_t0),
              ErrorCode::berserk_not_allowed);
    for (const char* clock : {"1/86400", "-", "0+3"}) {
        EXPECT_EQ(
            Game(tournament_record("chessence", clock)).refused(RequestType::berserk, 0, arena_t0),
            ErrorCode::berserk_not_allowed)
            << clock;
    }
}

TEST(TournamentBerserk, ASpectatorIsRefusedAndAFinishedGameToo) {
    Game game(tournament_record("chessence", "180+2"));
    EXPECT_EQ(game.refused(RequestType::berserk, std::nullopt, arena_t0), ErrorCode::not_a_player);
    ASSERT_FALSE(game.run(command(RequestType::resign, 0), arena_t0).error);
    EXPECT_EQ(game.refused(RequestType::berserk, 1, arena_t0), ErrorCode::game_over);
}

TEST(TournamentBerserk, ATakebackOfTheFirstMoveKeepsTheCutClock) {
    Game game(tournament_record("chessence", "180+2"));
    game.move(arena_t0);
    ASSERT_FALSE(game.run(command(RequestType::berserk, 1), arena_t0).error);
    game.move(arena_t0 + seconds(1));
    ASSERT_FALSE(game.run(command(RequestType::takeback_offer, 1), arena_t0 + seconds(2)).error);
    ASSERT_FALSE(game.run(command(RequestType::takeback_accept, 0), arena_t0 + seconds(2)).error);
    ASSERT_EQ(game.state.game->moves().size(), 1u) << "Black's move taken back";
    EXPECT_EQ(game.state.clock.left(1, arena_t0 + seconds(2)), 90000) << "the cut stays";
    EXPECT_EQ(game.state.clock.left(0, arena_t0 + seconds(2)), 180000);
    EXPECT_EQ(game.refused(RequestType::berserk, 1, arena_t0 + seconds(2)),
              ErrorCode::already_berserk);
}

TEST(TournamentBerserk, AReplayOfTheStoredEventsGivesTheSameClocks) {
    Game game(tournament_record("sniderman", "120+1"));
    ASSERT_FALSE(game.run(command(RequestType::berserk, 1), arena_t0 + seconds(2)).error);
    ASSERT_FALSE(game.run(command(RequestType::berserk, 0), arena_t0 + seconds(3)).error);
    const auto replayed = server::replay(game.record, game.stored, arena_t0 + seconds(5));
    ASSERT_TRUE(replayed) << replayed.error();
    const auto now = arena_t0 + seconds(5);
    EXPECT_EQ(server::snapshot_json(*replayed, {}, 0, nullptr, now),
              server::snapshot_json(game.state, {}, 0, nullptr, now));
    EXPECT_EQ(replayed->clock.left(0, now), 60000);
    EXPECT_EQ(replayed->clock.left(1, now), 60000);
    EXPECT_EQ(replayed->clock.increment_ms(0), 0);
    EXPECT_EQ(replayed->clock.increment_ms(1), 0);
    EXPECT_EQ(replayed->berserk, (std::array<bool, 2>{true, true}));
}

TEST(TournamentFirstMove, NobodyMovedWhiteLosesAndTheGameIsNotRated) {
    Game game(tournament_record("chessence", "180+2"));
    EXPECT_TRUE(server::decide_time(game.state, arena_t0 + milliseconds(29999)).empty());
    const auto ending = server::decide_time(game.state, arena_t0 + server::first_move_window);
    ASSERT_EQ(ending.size(), 1u);
    const auto& over = std::get<events::GameOver>(ending.front());
    EXPECT_EQ(over.result.winner, "black");
    EXPECT_EQ(over.result.reason, "no_start");
    EXPECT_FALSE(server::first_seat_score(over.result, "white").has_value()) << "never rated";
}

TEST(TournamentFirstMove, AfterWhitesMoveBlackLoses) {
    Game game(tournament_record("chesica", "180+2"));
    game.move(arena_t0 + seconds(10));
    const auto ending = server::decide_time(game.state, arena_t0 + seconds(40));
    ASSERT_EQ(ending.size(), 1u);
    EXPECT_EQ(std::get<events::GameOver>(ending.front()).result.winner, "white");
    EXPECT_EQ(std::get<events::GameOver>(ending.front()).result.reason, "no_start");
}

TEST(TournamentFirstMove, InSnidermanTheSeatThatOwedTheFirstActionLoses) {
    Game game(tournament_record("sniderman", "120+1"));
    const int first = *game.state.acting_seat();
    game.commit(server::decide_time(game.state, arena_t0 + server::first_move_window),
                arena_t0 + server::first_move_window);
    ASSERT_TRUE(game.state.result);
    EXPECT_EQ(game.state.result->reason, "no_start");
    EXPECT_EQ(game.state.result->winner, game.state.seat_name(1 - first));
}

TEST(TournamentFirstMove, ACasualGameIsStillAborted) {
    Game game(tournament_record("chessence", "180+2", false, ""));
    const auto ending = server::decide_time(game.state, arena_t0 + server::first_move_window);
    ASSERT_EQ(ending.size(), 1u);
    EXPECT_EQ(std::get<events::GameOver>(ending.front()).result.reason, "aborted");
    EXPECT_FALSE(std::get<events::GameOver>(ending.front()).result.winner);
}

TEST(TournamentGame, NoAbortAndNoRematch) {
    Game game(tournament_record("chessence", "180+2"));
    EXPECT_EQ(game.refused(RequestType::abort, 0, arena_t0), ErrorCode::wrong_phase);
    ASSERT_FALSE(game.run(command(RequestType::resign, 1), arena_t0).error);
    EXPECT_EQ(game.refused(RequestType::rematch_offer, 0, arena_t0), ErrorCode::wrong_phase);
    EXPECT_EQ(game.refused(RequestType::rematch_accept, 1, arena_t0), ErrorCode::wrong_phase);
}

TEST(TournamentGame, ItsEndSaysWhoWonWhyAfterHowManyPliesAndWhoWentBerserk) {
    Game game(tournament_record("chessence", "180+2"));
    EXPECT_FALSE(server::tournament_game_end(game.state)) << "not over";
    ASSERT_FALSE(game.run(command(RequestType::berserk, 0), arena_t0).error);
    game.move(arena_t0 + seconds(1));
    game.commit(server::decide_time(game.state, arena_t0 + seconds(31)), arena_t0 + seconds(31));
    const auto end = server::tournament_game_end(game.state);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->tournament_id, "t_arena");
    EXPECT_EQ(end->game_id, "g_tournament");
    EXPECT_EQ(end->winner_seat, 0);
    EXPECT_EQ(end->reason, "no_start");
    EXPECT_EQ(end->plies, 1);
    EXPECT_EQ(end->berserk, (std::array<bool, 2>{true, false}));
    EXPECT_EQ(end->missed_first_move_seat, 1);

    Game casual(tournament_record("chessence", "180+2", false, ""));
    ASSERT_FALSE(casual.run(command(RequestType::resign, 0), arena_t0).error);
    EXPECT_FALSE(server::tournament_game_end(casual.state)) << "not a tournament game";
}

}  // namespace
