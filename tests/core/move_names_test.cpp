// sort_move_names (core/game.h) puts names in the order std::sort gives them: over random lists of
// short names (the one-number road) and lists with a long name (the string road), and over the
// legal moves of random positions of every variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/game.h"

namespace {

TEST(MoveNames, SortedAsStdSortSortsThem) {
    std::mt19937 rng(9);
    const std::string alphabet = "abf19-x@+*Z~";
    for (int round = 0; round < 2000; ++round) {
        std::vector<std::string> names(rng() % 40);
        const std::size_t longest = round % 5 == 0 ? 12 : 8;
        for (auto& name : names) {
            name.resize(rng() % (longest + 1));
            for (auto& c : name) {
                c = alphabet[rng() % alphabet.size()];
            }
        }
        auto expected = names;
        std::sort(expected.begin(), expected.end());
        core::sort_move_names(names);
        ASSERT_EQ(names, expected) << "round " << round;
    }
}

TEST(MoveNames, LegalMovesAreSortedInEveryVariant) {
    std::mt19937 rng(4);
    for (const auto variant :
         {core::VariantId::chessence, core::VariantId::chesica, core::VariantId::sniderman}) {
        core::GameOptions options;
        options.object = variant == core::VariantId::sniderman ? 3 : 0;
        auto game = core::make_game(variant, options);
        ASSERT_TRUE(game) << game.error();
        for (int ply = 0; ply < 60; ++ply) {
            const auto legal = (*game)->legal_moves();
            EXPECT_TRUE(std::is_sorted(legal.begin(), legal.end()));
            EXPECT_EQ(std::adjacent_find(legal.begin(), legal.end()), legal.end()) << "no repeats";
            if (legal.empty() || (*game)->outcome()) {
                break;
            }
            ASSERT_TRUE((*game)->play(legal[rng() % legal.size()]));
        }
    }
}

}  // namespace
