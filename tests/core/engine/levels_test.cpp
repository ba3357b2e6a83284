// The levels (core/engine/levels.h): each one at least as strong in every setting as the one
// below, level 8 unrestricted.
#include "core/engine/levels.h"

#include <gtest/gtest.h>

namespace {

using core::VariantId;
using core::engine::level_settings;

int depth_or_unlimited(int depth) {
    return depth == 0 ? 1000 : depth;
}

TEST(Levels, EachLevelSearchesAtLeastAsMuchWithLessNoise) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        for (int level = 2; level <= 8; ++level) {
            const auto lower = level_settings(variant, level - 1);
            const auto upper = level_settings(variant, level);
            EXPECT_GE(depth_or_unlimited(upper.max_depth), depth_or_unlimited(lower.max_depth));
            EXPECT_LE(upper.noise_cp, lower.noise_cp);
            EXPECT_LE(upper.blunder_permille, lower.blunder_permille);
            const bool stronger =
                depth_or_unlimited(upper.max_depth) > depth_or_unlimited(lower.max_depth) ||
                upper.noise_cp < lower.noise_cp ||
                upper.blunder_permille < lower.blunder_permille ||
                upper.time_percent > lower.time_percent;
            EXPECT_TRUE(stronger) << "level " << level;
        }
    }
}

TEST(Levels, LevelEightIsTheFullSearch) {
    for (const VariantId variant : {VariantId::chessence, VariantId::chesica}) {
        const auto full = level_settings(variant, 8);
        EXPECT_EQ(full.max_depth, 0);
        EXPECT_EQ(full.time_percent, 100);
        EXPECT_EQ(full.noise_cp, 0);
        EXPECT_EQ(full.blunder_permille, 0);
    }
    EXPECT_EQ(core::engine::sniderman_random_permille(8), 0);
    EXPECT_GT(core::engine::sniderman_random_permille(1),
              core::engine::sniderman_random_permille(7));
}

}  // namespace
