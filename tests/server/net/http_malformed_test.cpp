// Issue 23: a request that is not HTTP, or too large, gets an HTTP status before the connection
// closes; an upgrade with a bad Sec-WebSocket-Key gets 400, not 101; a header that does not come
// in time closes the connection and stops no one else.
#include "server/net/http_session.h"

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "server/test_support.h"

namespace {

namespace asio = boost::asio;

// Sends `raw` on a fresh connection and returns the status of the answer (0: none came).
int status_of(std::uint16_t port, const std::string& raw) {
    asio::io_context io;
    asio::ip::tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), port});
    boost::system::error_code ec;
    asio::write(socket, asio::buffer(raw), ec);
    std::string answer;
    char chunk[4096];
    for (;;) {
        const auto n = socket.read_some(asio::buffer(chunk), ec);
        answer.append(chunk, n);
        if (ec || answer.find("\r\n") != std::string::npos) {
            break;
        }
    }
    if (answer.rfind("HTTP/1.1 ", 0) != 0 || answer.size() < 12) {
        return 0;
    }
    return std::stoi(answer.substr(9, 3));
}

class HttpMalformed : public ::testing::Test {
protected:
    test::TestServer server_;
};

TEST_F(HttpMalformed, AGarbageRequestLineIs400) {
    EXPECT_EQ(status_of(server_.port(), "HELLO THERE\r\n\r\n"), 400);
    EXPECT_EQ(status_of(server_.port(), "GET / HTTP/9\r\n\r\n"), 400);
}

TEST_F(HttpMalformed, HeaderFieldsOverTheLimitAre431) {
    const std::string big(70 * 1024, 'a');
    EXPECT_EQ(status_of(server_.port(), "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n"),
              431);
}

TEST_F(HttpMalformed, ATargetOverTheLimitIs414) {
    const std::string path(server::http_target_limit + 1, 'a');
    EXPECT_EQ(status_of(server_.port(), "GET /" + path + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414);
    const std::string longer(2 * server::http_header_limit, 'b');
    EXPECT_EQ(status_of(server_.port(), "GET /" + longer + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414)
        << "a request line longer than the whole header limit";
    const std::string fits(server::http_target_limit - 100, 'c');
    EXPECT_EQ(status_of(server_.port(), "GET /api/" + fits + " HTTP/1.1\r\nHost: x\r\n\r\n"), 404)
        << "a long target within the limit is read (and not found)";
}

// A peer that starts a header and never ends it is cut off after the header timeout; meanwhile
// other requests are served.
TEST(HttpHeaderTimeout, ASlowHeaderIsCutOff) {
    server::Limits limits;
    limits.http_header_timeout = std::chrono::seconds(1);
    test::TestServer server(limits);
    asio::io_context io;
    asio::ip::tcp::socket slow(io);
    slow.connect({asio::ip::make_address("127.0.0.1"), server.port()});
    asio::write(slow, asio::buffer(std::string("GET / HTTP/1.1\r\nHost: x\r\n")));
    EXPECT_EQ(status_of(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 200);

    char byte = 0;
    boost::system::error_code read_error = asio::error::would_block;
    slow.async_read_some(asio::buffer(&byte, 1),
                         [&](boost::system::error_code ec, std::size_t) { read_error = ec; });
    io.run_for(std::chrono::seconds(20));
    EXPECT_TRUE(read_error == asio::error::eof || read_error == asio::error::connection_reset)
        << "the slow connection is still open after 20 s: " << read_error.message();
}

TEST_F(HttpMalformed, AnUpgradeWithABadKeyIs400) {
    const auto upgrade = [](const std::string& key) {
        return "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " +
               key + "\r\n\r\n";
    };
    EXPECT_EQ(status_of(server_.port(), upgrade("dGhlIHNhbXBsZSBub25jZQ==")), 101);
    EXPECT_EQ(status_of(server_.port(), upgrade("c2hvcnQ=")), 400) << "5 bytes";
    EXPECT_EQ(status_of(server_.port(), upgrade("dGhlIHNhbXBsZSBub25jZQ!!")), 400);
    EXPECT_EQ(status_of(server_.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 200)
        << "the server goes on";
}

}  // namespace
