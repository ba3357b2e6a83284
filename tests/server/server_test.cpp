#include "server/server.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "server/log_capture.h"

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

}  // namespace
