// The throttle behind a room's spectator count and lobby line: one run at once, the requests of
// the next interval coalesced into one run at its end, nothing after its owner is gone.
#include "server/game/throttle.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

namespace {

using namespace std::chrono_literals;

struct ThrottleRig {
    boost::asio::io_context io;
    boost::asio::strand<boost::asio::io_context::executor_type> strand{
        boost::asio::make_strand(io)};
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    int runs = 0;
    bool did_something = true;
    server::Throttle throttle{strand, 20ms, "throttle test", [this] {
                                  ++runs;
                                  return did_something;
                              }};

    // Requests `times` times in one go on the strand.
    void request(int times) {
        boost::asio::post(strand, [this, times] {
            for (int i = 0; i < times; ++i) {
                throttle.request(owner);
            }
        });
    }
};

TEST(Throttle, RunsAtOnceThenCoalescesTheIntervalIntoOneRun) {
    ThrottleRig rig;
    rig.request(5);
    rig.io.run();
    EXPECT_EQ(rig.runs, 2);  // the first at once, the other four as one at the interval's end
}

TEST(Throttle, ALoneRequestRunsOnce) {
    ThrottleRig rig;
    rig.request(1);
    rig.io.run();
    EXPECT_EQ(rig.runs, 1);
}

TEST(Throttle, AnActionThatDidNothingStartsNoInterval) {
    ThrottleRig rig;
    rig.did_something = false;
    rig.request(3);
    rig.io.run();
    EXPECT_EQ(rig.runs, 3);  // each request ran it: nothing was held back
}

TEST(Throttle, NothingRunsOnceTheOwnerIsGone) {
    ThrottleRig rig;
    rig.request(3);
    boost::asio::post(rig.strand, [&rig] { rig.owner.reset(); });
    rig.io.run();
    EXPECT_EQ(rig.runs, 1);  // the coalesced run was due after the owner left
}

}  // namespace
