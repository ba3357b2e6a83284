// position_fields_text, the move broadcast's position written without a JSON tree, gives exactly
// the bytes of to_text(position_json(game)) between its braces: over random games of every
// variant and rule set, at every ply, to the end of the game.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/game.h"
#include "protocol/messages.h"

namespace {

// Plays seeded random games of `variant` and compares the two writings after every ply.
void compare_over_random_games(core::VariantId variant, core::RuleSet rules, int games,
                               int max_plies) {
    std::mt19937 rng(static_cast<unsigned>(variant) * 1000 + static_cast<unsigned>(rules) + 7);
    int compared = 0;
    for (int g = 0; g < games; ++g) {
        core::GameOptions options;
        options.rules = rules;
        options.object = variant == core::VariantId::sniderman ? 1 + g % 10 : 0;
        auto made = core::make_game(variant, options);
        ASSERT_TRUE(made) << made.error();
        auto& game = **made;
        for (int ply = 0; ply <= max_plies; ++ply) {
            const std::string tree = protocol::to_text(protocol::position_json(game));
            const std::string text = protocol::position_fields_text(game, game.fen());
            ASSERT_EQ("{" + text + "}", tree) << "after " << ply << " plies of game " << g;
            ++compared;
            const auto legal = game.legal_moves();
            if (legal.empty() || game.outcome()) {
                break;
            }
            const auto pick = std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng);
            ASSERT_TRUE(game.play(legal[pick]));
        }
    }
    EXPECT_GT(compared, games);
}

TEST(PositionText, ChessenceIsTheSameBytesAsTheTree) {
    compare_over_random_games(core::VariantId::chessence, core::RuleSet::house, 12, 160);
    compare_over_random_games(core::VariantId::chessence, core::RuleSet::strict, 4, 160);
}

TEST(PositionText, ChesicaIsTheSameBytesAsTheTree) {
    compare_over_random_games(core::VariantId::chesica, core::RuleSet::house, 12, 160);
    compare_over_random_games(core::VariantId::chesica, core::RuleSet::strict, 4, 160);
}

TEST(PositionText, SnidermanRoundsAreTheSameBytesAsTheTree) {
    compare_over_random_games(core::VariantId::sniderman, core::RuleSet::house, 10, 60);
}

TEST(PositionText, EventMessageAddsTheFieldsInsideTheEvent) {
    auto made = core::make_game(core::VariantId::chesica);
    ASSERT_TRUE(made);
    const auto fields = protocol::position_fields_text(**made, (*made)->fen());
    const auto frame = protocol::event_message("g_1", 3, R"({"kind":"move","move":"a3b4"})",
                                               nlohmann::json{{"extra", 1}}, fields);
    const auto parsed = nlohmann::json::parse(frame);
    EXPECT_EQ(parsed["version"], 3);
    EXPECT_EQ(parsed["event"]["kind"], "move");
    EXPECT_EQ(parsed["event"]["extra"], 1);
    EXPECT_EQ(parsed["event"]["fen"], (*made)->fen());
    EXPECT_EQ(parsed["event"]["legal"], nlohmann::json((*made)->legal_moves()));
    const auto plain = protocol::event_message("g_1", 3, R"({"kind":"move","move":"a3b4"})",
                                               nlohmann::json::object(), fields);
    EXPECT_EQ(nlohmann::json::parse(plain)["event"]["board"],
              protocol::board_json((*made)->board()));
}

TEST(PositionText, AnAckIsTheSameBytesAsItsTree) {
    for (const auto& id : {nlohmann::json("m1"), nlohmann::json(7), nlohmann::json(nullptr),
                           nlohmann::json("q\"uote\\")}) {
        for (const std::string game : {"", "g_1"}) {
            for (const std::int64_t version : {-1, 0, 42}) {
                nlohmann::json tree = {{"type", "ack"}};
                if (!game.empty()) {
                    tree["game_id"] = game;
                }
                if (version >= 0) {
                    tree["version"] = version;
                }
                if (!id.is_null()) {
                    tree["id"] = id;
                }
                EXPECT_EQ(protocol::ack_message(id, game, version), protocol::to_text(tree))
                    << id.dump() << " " << game << " " << version;
            }
        }
    }
}

}  // namespace
