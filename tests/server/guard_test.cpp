#include "server/guard.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <stdexcept>

namespace {

// Captures what the "guard_test" logger writes.
class Guard : public ::testing::Test {
protected:
    void SetUp() override {
        sink_ = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
        server::component_logger("guard_test")->sinks().push_back(sink_);
    }
    void TearDown() override {
        auto& sinks = server::component_logger("guard_test")->sinks();
        sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    }

    std::ostringstream out_;
    std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

TEST_F(Guard, RunsTheWorkAndReportsSuccess) {
    int runs = 0;
    EXPECT_TRUE(server::guarded("guard_test", "quiet", [&] { ++runs; }));
    EXPECT_EQ(runs, 1);
    EXPECT_EQ(out_.str(), "");
}

TEST_F(Guard, LogsAStandardExceptionWithItsContext) {
    EXPECT_FALSE(server::guarded("guard_test", "client 7: seek_create",
                                 [] { throw std::runtime_error("disk on fire"); }));
    EXPECT_NE(out_.str().find("client 7: seek_create: exception: disk on fire"), std::string::npos)
        << out_.str();
}

TEST_F(Guard, CatchesAnythingAndBuildsTheContextOnlyWhenNeeded) {
    int built = 0;
    const auto context = [&] {
        ++built;
        return std::string("game g_1");
    };
    EXPECT_TRUE(server::guarded("guard_test", context, [] {}));
    EXPECT_EQ(built, 0);
    EXPECT_FALSE(server::guarded("guard_test", context, [] { throw 42; }));
    EXPECT_EQ(built, 1);
    EXPECT_NE(out_.str().find("game g_1: exception: unknown exception"), std::string::npos)
        << out_.str();
}

TEST(DescribeException, SaysWhatItCan) {
    EXPECT_EQ(server::describe_exception(std::make_exception_ptr(std::logic_error("oops"))),
              "oops");
    EXPECT_NE(server::describe_exception(std::make_exception_ptr(7)).find("unknown"),
              std::string::npos);
    EXPECT_EQ(server::describe_exception(nullptr), "no exception");
}

}  // namespace
