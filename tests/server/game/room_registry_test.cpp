// Issue 23: the room registry loads each game once at a time and outside its lock, remembers
// unknown ids for a while (never failed reads), and never lets two live copies of a game exist.
#include "server/game/room_registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

namespace {

struct FakeRoom {
    std::string id;
};

using Registry = server::Registry<FakeRoom>;
using Clock = Registry::Clock;

class RegistryTest : public ::testing::Test {
protected:
    Registry make() {
        return Registry(
            [this](std::string_view id) -> core::Expected<std::shared_ptr<FakeRoom>> {
                ++loads_;
                if (on_load_) {
                    on_load_();
                }
                if (fail_) {
                    return core::make_error("cannot read game " + std::string(id));
                }
                if (id.substr(0, 2) != "g_") {
                    return std::shared_ptr<FakeRoom>();
                }
                return std::make_shared<FakeRoom>(FakeRoom{std::string(id)});
            },
            [this] { return now_; });
    }

    std::atomic<int> loads_{0};
    bool fail_ = false;
    std::function<void()> on_load_;
    Clock::time_point now_ = Clock::time_point(std::chrono::hours(1));
};

TEST_F(RegistryTest, AnUnknownIdIsReadOncePerWhile) {
    auto rooms = make();
    for (int i = 0; i < 1000; ++i) {
        auto none = rooms.get("x_made_up");
        ASSERT_TRUE(none.ok());
        EXPECT_EQ(*none, nullptr);
    }
    EXPECT_EQ(loads_, 1);
    now_ += Registry::unknown_ttl;
    EXPECT_EQ(*rooms.get("x_made_up"), nullptr);
    EXPECT_EQ(loads_, 2) << "read again once the memory of it has expired";
}

TEST_F(RegistryTest, ACallMayBringItsOwnLoaderAndAskWhetherAnIdIsKnownUnknown) {
    auto rooms = make();
    EXPECT_FALSE(rooms.known_unknown("x_made_up"));
    int own_loads = 0;
    const Registry::Loader own = [&](std::string_view id) {
        ++own_loads;
        return core::Expected<std::shared_ptr<FakeRoom>>(
            std::make_shared<FakeRoom>(FakeRoom{"own " + std::string(id)}));
    };
    auto loaded = rooms.get("g_1", own);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ((*loaded)->id, "own g_1");
    EXPECT_EQ(*rooms.get("g_1"), *loaded) << "kept as any loaded room";
    EXPECT_EQ(*rooms.get("g_1", own), *loaded);
    EXPECT_EQ(own_loads, 1);
    EXPECT_EQ(loads_, 0);

    EXPECT_EQ(*rooms.get("x_made_up"), nullptr);
    EXPECT_TRUE(rooms.known_unknown("x_made_up"));
    EXPECT_FALSE(rooms.known_unknown("g_1"));
    now_ += Registry::unknown_ttl;
    EXPECT_FALSE(rooms.known_unknown("x_made_up")) << "forgotten after unknown_ttl";
}

TEST_F(RegistryTest, AFailedReadIsNotRemembered) {
    auto rooms = make();
    fail_ = true;
    EXPECT_FALSE(rooms.get("x_made_up").ok());
    EXPECT_FALSE(rooms.get("g_1").ok());
    EXPECT_EQ(loads_, 2);
    EXPECT_EQ(rooms.unknown_count(), 0u);
    fail_ = false;
    EXPECT_EQ(*rooms.get("x_made_up"), nullptr);
    EXPECT_NE(*rooms.get("g_1"), nullptr);
    EXPECT_EQ(loads_, 4);
}

TEST_F(RegistryTest, OneLoadAtATimePerId) {
    auto rooms = make();
    std::promise<void> entered;
    std::promise<void> release;
    auto released = release.get_future().share();
    std::atomic<bool> first_load{true};
    on_load_ = [&] {
        if (first_load.exchange(false)) {
            entered.set_value();
            released.wait();
        }
    };
    auto first = std::async(std::launch::async, [&] { return rooms.get("g_1"); });
    entered.get_future().wait();  // the first load is in flight, outside the lock
    EXPECT_EQ(rooms.loaded("g_2"), nullptr) << "the registry is not locked during a load";
    auto second = std::async(std::launch::async, [&] { return rooms.get("g_1"); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    release.set_value();
    const auto a = first.get();
    const auto b = second.get();
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b) << "one copy";
    EXPECT_EQ(loads_, 1) << "the second caller waited for the first one's load";
}

TEST_F(RegistryTest, AReleasedRoomStillInUseComesBackInsteadOfASecondCopy) {
    auto rooms = make();
    auto first = *rooms.get("g_1");
    rooms.release("g_1");
    EXPECT_EQ(rooms.held_count(), 0u);
    EXPECT_EQ(*rooms.get("g_1"), first) << "someone still holds it: the same copy";
    EXPECT_EQ(loads_, 1);
    rooms.release("g_1");
    const FakeRoom* old = first.get();
    first.reset();
    EXPECT_EQ(rooms.loaded("g_1"), nullptr) << "released and no longer held by anyone";
    auto again = *rooms.get("g_1");
    EXPECT_EQ(loads_, 2);
    EXPECT_EQ(again->id, "g_1");
    (void)old;
}

TEST_F(RegistryTest, AddingAGameForgetsThatItWasUnknown) {
    auto rooms = make();
    EXPECT_EQ(*rooms.get("x_new"), nullptr);
    auto created = std::make_shared<FakeRoom>(FakeRoom{"x_new"});
    rooms.add("x_new", created);
    EXPECT_EQ(*rooms.get("x_new"), created);
    EXPECT_EQ(rooms.held().size(), 1u);
}

TEST_F(RegistryTest, AFloodOfMadeUpIdsHasABoundedMemory) {
    auto rooms = make();
    for (std::size_t i = 0; i < Registry::unknown_max + 500; ++i) {
        EXPECT_EQ(*rooms.get("x_" + std::to_string(i)), nullptr);
    }
    EXPECT_LE(rooms.unknown_count(), Registry::unknown_max);
}

// Issue 27: a room that lost its game's lease is forgotten, so the next get() loads the game
// afresh; a newer copy registered since is never dropped by the old one's forget.
TEST_F(RegistryTest, ForgetDropsOnlyTheCopyItNames) {
    auto rooms = make();
    auto first = *rooms.get("g_1");
    ASSERT_NE(first, nullptr);
    auto newer = std::make_shared<FakeRoom>(FakeRoom{"g_1"});
    rooms.add("g_1", newer);
    rooms.forget("g_1", first.get());
    EXPECT_EQ(rooms.loaded("g_1"), newer) << "the old copy's forget left the newer one alone";
    EXPECT_EQ(loads_, 1);
    rooms.forget("g_1", newer.get());
    EXPECT_EQ(rooms.loaded("g_1"), nullptr);
    auto again = *rooms.get("g_1");
    EXPECT_NE(again, newer);
    EXPECT_EQ(loads_, 2) << "forgotten: loaded afresh";
}

}  // namespace
