// Argon2id password hashes (libsodium) and the password worker.
#include "server/game/passwords.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>
#include <vector>

namespace {

using server::cheapest_password_cost;

TEST(Passwords, HashesAreArgon2idSaltedAndVerifyOnlyTheRightPassword) {
    const auto first = server::hash_password("correct horse", cheapest_password_cost);
    const auto second = server::hash_password("correct horse", cheapest_password_cost);
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(first->rfind("$argon2id$v=19$m=8,t=1,", 0), 0u) << *first;
    EXPECT_NE(*first, *second) << "each hash has its own salt";
    EXPECT_EQ(first->find("correct horse"), std::string::npos);
    EXPECT_TRUE(server::verify_password(*first, "correct horse"));
    EXPECT_FALSE(server::verify_password(*first, "correct horsE"));
    EXPECT_FALSE(server::verify_password(*first, ""));
    EXPECT_FALSE(server::verify_password("not a hash", "correct horse"));
}

TEST(Passwords, OtherParametersAskForARehash) {
    const auto cheap = server::hash_password("correct horse", cheapest_password_cost);
    ASSERT_TRUE(cheap.ok());
    EXPECT_FALSE(server::needs_rehash(*cheap, cheapest_password_cost));
    EXPECT_TRUE(server::needs_rehash(*cheap, server::PasswordCost{2, 16384}));
}

TEST(Passwords, TheDecoyIsAValidHashOfNoKnownPassword) {
    const auto& decoy = server::decoy_hash(cheapest_password_cost);
    EXPECT_EQ(decoy.rfind("$argon2id$", 0), 0u);
    EXPECT_FALSE(server::verify_password(decoy, ""));
    EXPECT_FALSE(server::verify_password(decoy, "correct horse"));
    EXPECT_EQ(&decoy, &server::decoy_hash(cheapest_password_cost)) << "made once per cost";
}

TEST(Passwords, TheWorkerRunsJobsInOrderOffTheCallersThreadAndRefusesAFlood) {
    server::PasswordWorker worker(cheapest_password_cost, 2);
    std::promise<void> release;
    auto gate = release.get_future().share();
    std::promise<std::thread::id> ran_on;
    ASSERT_TRUE(worker.submit([&, gate] {
        ran_on.set_value(std::this_thread::get_id());
        gate.wait();
    }));
    EXPECT_NE(ran_on.get_future().get(), std::this_thread::get_id());
    std::vector<int> order;
    std::promise<void> done;
    EXPECT_TRUE(worker.submit([&] { order.push_back(1); }));
    EXPECT_TRUE(worker.submit([&] {
        order.push_back(2);
        done.set_value();
    }));
    EXPECT_FALSE(worker.submit([] {})) << "two jobs wait already";
    release.set_value();
    done.get_future().get();
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

}  // namespace
