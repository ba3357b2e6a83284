// Password-attempt limits per IP address and per account, on an injected clock.
#include "server/game/login_limiter.h"

#include <gtest/gtest.h>

namespace {

using server::LoginLimiter;
using namespace std::chrono_literals;

class Limiter : public ::testing::Test {
protected:
    LoginLimiter::Clock::time_point now_{};
    server::LoginPolicy policy_{3, 60s, 2, 120s};
    LoginLimiter limiter_{policy_, [this] { return now_; }};
};

TEST_F(Limiter, EveryAttemptCountsAgainstTheAddressUntilTheWindowPasses) {
    EXPECT_TRUE(limiter_.try_attempt("1.2.3.4", "ann"));
    EXPECT_TRUE(limiter_.try_attempt("1.2.3.4", "bob"));
    EXPECT_TRUE(limiter_.try_attempt("1.2.3.4", ""));
    EXPECT_FALSE(limiter_.try_attempt("1.2.3.4", "carl"));
    EXPECT_TRUE(limiter_.try_attempt("5.6.7.8", "carl")) << "another address is not limited";
    now_ += 60s;
    EXPECT_TRUE(limiter_.try_attempt("1.2.3.4", "carl"));
}

TEST_F(Limiter, FailuresCountAgainstTheAccountFromAnyAddressAndSuccessForgetsThem) {
    EXPECT_TRUE(limiter_.try_attempt("1.1.1.1", "ann"));
    limiter_.failed("ann");
    EXPECT_TRUE(limiter_.try_attempt("2.2.2.2", "ann"));
    limiter_.failed("ann");
    EXPECT_FALSE(limiter_.try_attempt("3.3.3.3", "ann"));
    EXPECT_TRUE(limiter_.try_attempt("3.3.3.3", "bob")) << "other accounts are not limited";
    now_ += 121s;
    EXPECT_TRUE(limiter_.try_attempt("3.3.3.3", "ann"));
    limiter_.failed("ann");
    limiter_.succeeded("ann");
    limiter_.failed("ann");
    EXPECT_TRUE(limiter_.try_attempt("4.4.4.4", "ann")) << "a success clears the failures";
}

TEST_F(Limiter, AnUnknownUsernameIsLimitedLikeAKnownOne) {
    for (int i = 0; i < 2; ++i) {
        EXPECT_TRUE(limiter_.try_attempt("9.9.9." + std::to_string(i), "nobody"));
        limiter_.failed("nobody");
    }
    EXPECT_FALSE(limiter_.try_attempt("9.9.9.9", "nobody"));
}

}  // namespace
