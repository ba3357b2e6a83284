#include "server/server.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "server/log_capture.h"
#include "server/test_stores.h"

namespace {

// Handlers that throw do not end the I/O thread: the exception is logged and the handlers queued
// after it still run.
TEST(IoThread, LogsExceptionsFromHandlersAndGoesOn) {
    test::LogCapture log({"server"});
    boost::asio::io_context io;
    int ran = 0;
    boost::asio::post(io, [&] { ++ran; });
    boost::asio::post(io, [] { throw std::runtime_error("handler failed"); });
    boost::asio::post(io, [&] { ++ran; });
    boost::asio::post(io, [] { throw 17; });
    boost::asio::post(io, [&] { ++ran; });
    server::run_io_thread(io);
    EXPECT_EQ(ran, 3);
    EXPECT_TRUE(log.has_line_with({"I/O thread", "exception", "handler failed"})) << log.text();
    EXPECT_TRUE(log.has_line_with({"I/O thread", "exception", "unknown exception"})) << log.text();
}

TEST(IoThread, ReturnsWhenStopped) {
    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    boost::asio::post(io, [&] { io.stop(); });
    server::run_io_thread(io);
    EXPECT_TRUE(io.stopped());
}

// A store that cannot be read at start-up stops the start: serving without the unfinished games
// would tell their players they have none.
TEST(ServerStart, FailsWhenTheStoreCannotBeRead) {
    test::ReadFailingStore store;
    store.fail_reads = true;
    server::ServerOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    const auto started = server::Server::start(options, store);
    ASSERT_FALSE(started.ok());
    EXPECT_NE(started.error().find("cannot restore the games"), std::string::npos)
        << started.error();
    EXPECT_NE(started.error().find("test store: cannot read"), std::string::npos)
        << started.error();
}

}  // namespace
