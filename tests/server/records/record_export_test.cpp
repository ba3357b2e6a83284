#include "server/records/record_export.h"

#include <gtest/gtest.h>

#include "core/record.h"
#include "server/store/sqlite_store.h"

namespace {

using server::GameRecord;

constexpr std::int64_t nov_21_2026 = 1795300000;  // 2026-11-21 UTC

class RecordExport : public ::testing::Test {
protected:
    void SetUp() override {
        auto opened = server::open_sqlite_store(":memory:");
        ASSERT_TRUE(opened.ok());
        store_ = std::move(*opened);
        ASSERT_TRUE(store_->insert_player({"p_ann", "Ann", "h_ann", 1}).ok());
        ASSERT_TRUE(store_->insert_player({"p_bob", "Bob", "h_bob", 1}).ok());
    }

    void create(GameRecord g, const std::vector<std::string>& events) {
        if (g.seats.empty()) {
            g.seats = {"p_ann", "p_bob"};
        }
        g.created_at = nov_21_2026;
        ASSERT_TRUE(store_->create_game(g).ok());
        for (std::size_t i = 0; i < events.size(); ++i) {
            ASSERT_TRUE(
                store_->append_event(g.id, static_cast<std::int64_t>(i + 1), events[i]).ok());
        }
    }

    // The records exported for `id`, parsed back (so the text is checked to be well-formed).
    std::vector<core::Record> exported(const std::string& id) {
        auto text = server::export_game_pgn(*store_, id, "chessence.example").value();
        EXPECT_TRUE(text.has_value());
        if (!text) {
            return {};
        }
        auto parsed = core::parse_records(*text);
        EXPECT_TRUE(parsed.ok()) << parsed.error() << "\n" << *text;
        return parsed.ok() ? *parsed : std::vector<core::Record>{};
    }

    std::unique_ptr<server::Store> store_;
};

GameRecord game(const std::string& id, const std::string& variant) {
    GameRecord g;
    g.id = id;
    g.variant = variant;
    g.rules = "house";
    return g;
}

std::string move_event(const std::string& move, const std::string& by, int ply) {
    return R"({"kind":"move","move":")" + move + R"(","by":")" + by + R"(","fen":"…","ply":)" +
           std::to_string(ply) + "}";
}

TEST_F(RecordExport, UnknownGameGivesNothing) {
    EXPECT_FALSE(server::export_game_pgn(*store_, "g_none", "x").value().has_value());
}

TEST_F(RecordExport, ChessenceGameHasTheTagsMovesAndResult) {
    create(game("g_1", "chessence"),
           {move_event("e3-e4", "white", 1), R"({"kind":"chat","from":"Ann","text":"hi"})",
            move_event("a8-a7", "black", 2), move_event("@e3", "white", 3),
            R"({"kind":"game_over","result":{"winner":"white","reason":"resignation"}})"});
    ASSERT_TRUE(
        store_->finish_game("g_1", R"({"winner":"white","reason":"resignation"})", nov_21_2026 + 60)
            .ok());
    const auto records = exported("g_1");
    ASSERT_EQ(records.size(), 1u);
    const auto& r = records[0];
    EXPECT_EQ(r.tag("Event"), "Casual game");
    EXPECT_EQ(r.tag("Site"), "chessence.example");
    EXPECT_EQ(r.tag("Date"), "2026.11.21");
    EXPECT_EQ(r.tag("Variant"), "chessence");
    EXPECT_EQ(r.tag("White"), "Ann");
    EXPECT_EQ(r.tag("Black"), "Bob");
    EXPECT_EQ(r.tag("Result"), "1-0");
    EXPECT_EQ(r.tag("RuleSet"), "house");
    EXPECT_EQ(r.tag("Termination"), "resignation");
    EXPECT_EQ(r.tag("GameId"), "g_1");
    EXPECT_FALSE(r.tag("FEN").has_value());
    EXPECT_EQ(r.moves, (std::vector<std::string>{"e3-e4", "a8-a7", "@e3"}));
    EXPECT_EQ(r.result, "1-0");
}

TEST_F(RecordExport, AnActiveGameIsUnfinishedAndADrawIsHalfHalf) {
    create(game("g_active", "chesica"), {move_event("c3-d4", "white", 1)});
    EXPECT_EQ(exported("g_active").at(0).result, "*");
    EXPECT_FALSE(exported("g_active").at(0).tag("Termination").has_value());

    create(game("g_draw", "chesica"),
           {R"({"kind":"game_over","result":{"winner":null,"reason":"agreement"}})"});
    const auto draw = exported("g_draw").at(0);
    EXPECT_EQ(draw.result, "1/2-1/2");
    EXPECT_EQ(draw.tag("Termination"), "agreement");
    EXPECT_TRUE(draw.moves.empty());
}

TEST_F(RecordExport, ASetUpPositionGivesAFenTagAndItsMoveNumbers) {
    auto g = game("g_setup", "chesica");
    g.start_fen = "8/8/8/3bb3/3Q4/8/8/7q b 12 31";
    create(g, {move_event("h1-g2", "black", 1), move_event("d4xf6", "white", 2)});
    const auto r = exported("g_setup").at(0);
    EXPECT_EQ(r.tag("FEN"), g.start_fen);
    EXPECT_EQ(r.first_move_number, 31);
    EXPECT_TRUE(r.second_moves_first);
    const auto text = server::export_game_pgn(*store_, "g_setup", "x").value();
    EXPECT_NE(text->find("31... h1-g2 32. d4xf6 *"), std::string::npos) << *text;
}

// Needs the Chessence rules (core::make_game) to recognise the start position.
TEST_F(RecordExport, TheStartPositionWrittenOutIsNotAFenTag) {
    auto g = game("g_start", "chessence");
    g.start_fen = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 0 1";
    create(g, {});
    EXPECT_FALSE(exported("g_start").at(0).tag("FEN").has_value());
}

TEST_F(RecordExport, MalformedEventsAreSkipped) {
    create(game("g_bad", "chessence"),
           {"not json", R"(["an","array"])", R"({"kind":"move"})", R"({"kind":"move","move":7})",
            move_event("e3-e4", "white", 1)});
    EXPECT_EQ(exported("g_bad").at(0).moves, (std::vector<std::string>{"e3-e4"}));
}

TEST_F(RecordExport, SnidermanMatchGivesOneRecordPerRound) {
    auto g = game("g_sn", "sniderman");
    g.rounds = 3;
    g.seed = 99;
    create(
        g,
        {
            R"({"kind":"round_started","round":1,"fen":"qbnr/rnbk/KBNR/RNBQ 1","namer":"player1","available_objects":[1,2,3,4,5,6,7,8,9,10]})",
            R"({"kind":"object_named","by":"player1","object":5})",
            R"({"kind":"side_chosen","by":"player0","odd":"player0","even":"player1"})",
            move_event("a2xb3", "odd", 1),
            move_event("d3xc2", "even", 2),
            R"({"kind":"round_over","round":1,"winner":"even","winner_player":"player1","score":[0,1]})",
            R"({"kind":"round_started","round":2,"fen":"kqrb/nnrb/BRNQ/BNRK 1","namer":"player0"})",
            R"({"kind":"object_named","by":"player0","object":1})",
            R"({"kind":"side_chosen","by":"player1","odd":"player1","even":"player0"})",
            move_event("b2xc3", "odd", 1),
            R"({"kind":"round_over","round":2,"winner":"odd","winner_player":"player1","score":[0,2]})",
            R"({"kind":"game_over","result":{"winner":"player1","reason":"match_won"}})",
        });
    const auto records = exported("g_sn");
    ASSERT_EQ(records.size(), 2u);
    const auto& first = records[0];
    EXPECT_EQ(first.tag("Event"), "Casual match");
    EXPECT_EQ(first.tag("Variant"), "sniderman");
    EXPECT_EQ(first.tag("Round"), "1");
    EXPECT_EQ(first.tag("Rounds"), "3");
    EXPECT_EQ(first.tag("Odd"), "Ann");
    EXPECT_EQ(first.tag("Even"), "Bob");
    EXPECT_EQ(first.tag("FEN"), "qbnr/rnbk/KBNR/RNBQ 1");
    EXPECT_EQ(first.tag("Object"), "5");
    EXPECT_EQ(first.tag("Winner"), "even");
    EXPECT_EQ(first.result, "0-1");
    EXPECT_EQ(first.moves, (std::vector<std::string>{"a2xb3", "d3xc2"}));
    EXPECT_FALSE(first.tag("Termination").has_value());
    EXPECT_FALSE(first.tag("White").has_value());

    const auto& second = records[1];
    EXPECT_EQ(second.tag("Round"), "2");
    EXPECT_EQ(second.tag("Odd"), "Bob");
    EXPECT_EQ(second.tag("Even"), "Ann");
    EXPECT_EQ(second.tag("Object"), "1");
    EXPECT_EQ(second.result, "1-0");
    EXPECT_EQ(second.tag("Winner"), "odd");
    EXPECT_EQ(second.tag("Termination"), "match_won");
}

TEST_F(RecordExport, SnidermanRoundInProgressIsUnfinished) {
    auto g = game("g_sn2", "sniderman");
    g.rounds = 1;
    create(
        g,
        {R"({"kind":"round_started","round":1,"fen":"qbnr/rnbk/KBNR/RNBQ 1","namer":"player0"})"});
    const auto records = exported("g_sn2");
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].result, "*");
    EXPECT_EQ(records[0].tag("Odd"), "?");
    EXPECT_FALSE(records[0].tag("Object").has_value());
    EXPECT_FALSE(records[0].tag("Winner").has_value());
}

TEST_F(RecordExport, UnknownPlayerNamesAreQuestionMarks) {
    auto g = game("g_lost", "chesica");
    create(g, {});
    std::vector<std::string> names;  // as if the players could not be found
    const auto records = server::game_records(*store_->game("g_lost").value(), names, {}, "x");
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].tag("White"), "?");
    EXPECT_EQ(records[0].tag("Black"), "?");
}

}  // namespace

namespace {

std::string timed_move(const std::string& move, const std::string& by, int ply, int white,
                       int black) {
    return R"({"kind":"move","move":")" + move + R"(","by":")" + by + R"(","ply":)" +
           std::to_string(ply) + R"(,"clock":{"white":)" + std::to_string(white) + R"(,"black":)" +
           std::to_string(black) + R"(,"running":null}})";
}

TEST_F(RecordExport, TimedGamesHaveTheirTimeControlAndEachMovesClock) {
    auto g = game("g_clock", "chesica");
    g.time_control = "300+3";
    create(g, {timed_move("c3-d4", "white", 1, 300000, 300000),
               timed_move("f6-e5", "black", 2, 300000, 300000),
               timed_move("d4xf6", "white", 3, 298250, 300000),
               R"({"kind":"takeback_offered","by":"black"})",
               timed_move("g7xe5", "black", 4, 298250, 3723456),
               R"({"kind":"takeback","by":"black","plies":1})",
               timed_move("e7xg5", "black", 4, 298250, 299999),
               R"({"kind":"game_over","result":{"winner":"white","reason":"timeout"}})"});
    const auto records = exported("g_clock");
    ASSERT_EQ(records.size(), 1u);
    const auto& r = records[0];
    EXPECT_EQ(r.tag("TimeControl"), "300+3");
    EXPECT_EQ(r.tag("Termination"), "timeout");
    EXPECT_EQ(r.moves, (std::vector<std::string>{"c3-d4", "f6-e5", "d4xf6", "e7xg5"}))
        << "a move taken back is not in the record";
    EXPECT_EQ(r.clocks, (std::vector<std::optional<std::int64_t>>{300000, 300000, 298200, 299900}))
        << "the mover's clock after each move, in tenths";
    const auto text = *server::export_game_pgn(*store_, "g_clock", "x").value();
    EXPECT_NE(text.find("d4xf6 {[%clk 0:04:58.2]}"), std::string::npos) << text;

    create(game("g_plain", "chesica"), {move_event("c3-d4", "white", 1)});
    EXPECT_EQ(exported("g_plain").at(0).tag("TimeControl"), "-");
    EXPECT_TRUE(exported("g_plain").at(0).clocks.empty());
}

}  // namespace
