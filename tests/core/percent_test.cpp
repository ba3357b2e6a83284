#include "core/percent.h"

#include <gtest/gtest.h>

namespace {

TEST(Percent, Decoding) {
    EXPECT_EQ(core::percent_decode("/a%20b"), "/a b");
    EXPECT_EQ(core::percent_decode("/%2e%2E/x"), "/../x");
    EXPECT_FALSE(core::percent_decode("/%2").has_value());
    EXPECT_FALSE(core::percent_decode("/%zz").has_value());
    EXPECT_EQ(core::percent_decode("/plain"), "/plain");
}

}  // namespace
