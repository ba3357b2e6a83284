// Password-attempt limits per IP address and per (account, address), on an injected clock: a
// stranger's failures never lock the owner out from an address that has not failed.
#include "server/game/login_limiter.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using server::LoginLimiter;
using namespace std::chrono_literals;

class Limiter : public ::testing::Test {
protected:
    // 3 attempts an address a minute; 2 failures an address on an account, 5 on an account in
    // all, in two minutes.
    LoginLimiter::Clock::time_point now_{};
    server::LoginPolicy policy_{3, 60s, 2, 5, 120s};
    LoginLimiter limiter_{policy_, [this] { return now_; }};

    // One failed attempt from `ip` on `account`; whether it was allowed.
    bool fail(const std::string& ip, const std::string& account) {
        if (!limiter_.try_attempt(ip, account)) {
            return false;
        }
        limiter_.failed(ip, account);
        return true;
    }
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

TEST_F(Limiter, AnAddressThatFailedTooOftenIsRefusedTheAccountButTheOwnerElsewhereIsNot) {
    EXPECT_TRUE(fail("1.1.1.1", "ann"));
    EXPECT_TRUE(fail("1.1.1.1", "ann"));
    EXPECT_FALSE(limiter_.try_attempt("1.1.1.1", "ann")) << "two failures from this address";
    EXPECT_TRUE(limiter_.try_attempt("1.1.1.1", "bob")) << "other accounts are not limited";
    EXPECT_TRUE(limiter_.try_attempt("2.2.2.2", "ann"))
        << "the owner, from an address that did not fail";
    now_ += 120s;
    EXPECT_TRUE(limiter_.try_attempt("1.1.1.1", "ann")) << "the window passed";
}

TEST_F(Limiter, UnderAWideAttackOnlyAddressesThatFailedOnTheAccountAreRefused) {
    // Five failures in all, one from each of five addresses: the account is under attack.
    for (int i = 0; i < 5; ++i) {
        EXPECT_TRUE(fail("9.0.0." + std::to_string(i), "ann"));
    }
    for (int i = 0; i < 5; ++i) {
        EXPECT_FALSE(limiter_.try_attempt("9.0.0." + std::to_string(i), "ann"))
            << "an address with one failure is refused while the account is under attack";
    }
    EXPECT_TRUE(fail("9.0.0.9", "ann")) << "a new address gets its first try";
    EXPECT_FALSE(limiter_.try_attempt("9.0.0.9", "ann")) << "and no second";
    EXPECT_TRUE(limiter_.try_attempt("8.8.8.8", "ann")) << "an address that never failed is let in";
    EXPECT_TRUE(limiter_.try_attempt("9.0.0.0", "bob")) << "other accounts are not limited";
}

TEST_F(Limiter, ASuccessForgetsOnlyThatAddresssFailures) {
    EXPECT_TRUE(fail("1.1.1.1", "ann"));
    EXPECT_TRUE(fail("2.2.2.2", "ann"));
    EXPECT_TRUE(fail("2.2.2.2", "ann"));
    EXPECT_TRUE(limiter_.try_attempt("1.1.1.1", "ann"));
    limiter_.succeeded("1.1.1.1", "ann");
    now_ += 60s;  // the address's attempts are forgotten, the failures (two minutes) are not
    EXPECT_TRUE(fail("1.1.1.1", "ann")) << "its failure was forgotten: one more is allowed";
    EXPECT_TRUE(limiter_.try_attempt("1.1.1.1", "ann")) << "one failure since the success";
    EXPECT_FALSE(limiter_.try_attempt("2.2.2.2", "ann")) << "another address's failures stay";
}

TEST_F(Limiter, AnUnknownUsernameIsLimitedLikeAKnownOne) {
    EXPECT_TRUE(fail("9.9.9.9", "nobody"));
    EXPECT_TRUE(fail("9.9.9.9", "nobody"));
    EXPECT_FALSE(limiter_.try_attempt("9.9.9.9", "nobody"));
}

TEST(LoginRule, RefusesOnlyAnAddressThatHasFailed) {
    const server::LoginPolicy policy{20, 600s, 5, 50, 900s};
    EXPECT_FALSE(LoginLimiter::refused(policy, 0, 1000)) << "never an address without a failure";
    EXPECT_FALSE(LoginLimiter::refused(policy, 4, 49));
    EXPECT_TRUE(LoginLimiter::refused(policy, 5, 5));
    EXPECT_TRUE(LoginLimiter::refused(policy, 1, 50));
}

}  // namespace
