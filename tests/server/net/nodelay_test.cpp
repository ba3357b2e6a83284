// Every accepted socket has Nagle's algorithm off (TCP_NODELAY), so a small frame leaves at once
// instead of waiting for the peer's delayed ACK. The server runs in this process: its accepted
// sockets are found among the process's file descriptors by their local port.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <vector>

#include "server/test_support.h"

namespace {

// The server's accepted TCP sockets (local port `port`, not listening) and whether each has
// TCP_NODELAY set.
std::vector<bool> accepted_nodelay(std::uint16_t port) {
    std::vector<bool> found;
    for (int fd = 0; fd < 4096; ++fd) {
        sockaddr_storage address{};
        socklen_t length = sizeof address;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
            address.ss_family != AF_INET) {
            continue;
        }
        const auto& in = reinterpret_cast<const sockaddr_in&>(address);
        int listening = 0;
        socklen_t size = sizeof listening;
        getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size);
        if (ntohs(in.sin_port) != port || listening != 0) {
            continue;
        }
        int nodelay = 0;
        size = sizeof nodelay;
        getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, &size);
        found.push_back(nodelay != 0);
    }
    return found;
}

TEST(NoNagle, AcceptedWebSocketAndHttpConnectionsSetTcpNoDelay) {
    test::TestServer server;
    test::WsClient first(server.port());
    test::WsClient second(server.port());
    first.hello();
    second.hello();
    const auto sockets = accepted_nodelay(server.port());
    ASSERT_GE(sockets.size(), 2u) << "the server's two accepted sockets";
    for (const bool nodelay : sockets) {
        EXPECT_TRUE(nodelay);
    }
    // A plain HTTP connection is accepted the same way.
    EXPECT_EQ(test::http_get(server.port(), "/healthz").status, 200);
}

}  // namespace
