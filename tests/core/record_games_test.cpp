// Records of real games of all three variants survive write → parse → replay unchanged.
#include <gtest/gtest.h>

#include "core/game.h"
#include "core/record.h"

namespace {

using core::VariantId;

// Plays up to `plies` moves chosen deterministically among the legal ones (a different choice
// each ply, so the game wanders) and returns the game.
std::unique_ptr<core::Game> wander(VariantId variant, const core::GameOptions& options, int plies) {
    auto game = core::make_game(variant, options);
    EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error());
    if (!game.ok()) {
        return nullptr;
    }
    for (int ply = 0; ply < plies && !(*game)->outcome(); ++ply) {
        const auto legal = (*game)->legal_moves();
        EXPECT_FALSE(legal.empty());
        const auto move = legal[(static_cast<std::size_t>(ply) * 7 + 3) % legal.size()];
        EXPECT_TRUE((*game)->play(move).ok()) << move;
    }
    return std::move(*game);
}

std::string result_token(const core::Game& game) {
    const auto outcome = game.outcome();
    if (!outcome) {
        return "*";
    }
    if (!outcome->winner) {
        return "1/2-1/2";
    }
    return *outcome->winner == core::Side::first ? "1-0" : "0-1";
}

core::Record record_of(const core::Game& game, const std::string& fen_tag) {
    core::Record r;
    r.tags = {{"Variant", std::string(core::variant_name(game.variant()))},
              {"Result", result_token(game)}};
    if (!fen_tag.empty()) {
        r.tags.push_back({"FEN", fen_tag});
    }
    r.moves = game.moves();
    r.result = result_token(game);
    return r;
}

// Parses the written record back and replays it: same moves, same final position, same result.
void expect_round_trip(VariantId variant, const core::GameOptions& options, int plies) {
    const auto played = wander(variant, options, plies);
    ASSERT_TRUE(played);
    ASSERT_FALSE(played->moves().empty());
    const auto record = record_of(*played, options.fen.value_or(""));
    const auto text = core::write_record(record);
    auto parsed = core::parse_records(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error() << "\n" << text;
    ASSERT_EQ(parsed->size(), 1u);
    EXPECT_EQ(parsed->front(), record);

    core::GameOptions replay_options = options;
    replay_options.fen = parsed->front().tag("FEN");
    auto replay = core::make_game(variant, replay_options);
    ASSERT_TRUE(replay.ok()) << replay.error();
    for (const auto& move : parsed->front().moves) {
        ASSERT_TRUE((*replay)->play(move).ok()) << move;
    }
    EXPECT_EQ((*replay)->fen(), played->fen());
    EXPECT_EQ(result_token(**replay), parsed->front().result);
}

TEST(RecordGames, ChessenceFromTheStartRoundTrips) {
    expect_round_trip(VariantId::chessence, {}, 60);
}

TEST(RecordGames, ChessenceFromAPositionRoundTrips) {
    core::GameOptions options;
    options.fen = "k5/m4*/4*1/2*3/1*M1*1/3*2/1*1M2/*5/5K[] w 0 1";
    expect_round_trip(VariantId::chessence, options, 30);
}

TEST(RecordGames, ChesicaRoundTrips) {
    expect_round_trip(VariantId::chesica, {}, 80);
}

TEST(RecordGames, SnidermanRoundRoundTrips) {
    core::GameOptions options;
    options.fen = "qbnr/rnbk/KBNR/RNBQ 1";
    options.object = 5;
    expect_round_trip(VariantId::sniderman, options, 15);
}

}  // namespace
