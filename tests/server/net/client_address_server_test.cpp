// Issue 42: the address a request counts against when a proxy appends its X-Forwarded-For line
// after the one the client wrote itself (HAProxy's `option forwardfor`, and any proxy that adds a
// field line instead of joining the list): every line is read, so the proxy's entry, the last,
// is the address, on the WebSocket upgrade and on every HTTP request alike.
#include "server/net/client_address.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/test_support.h"

namespace {

using test::WsClient;

// A request from the trusted proxy 127.0.0.1 carrying one X-Forwarded-For line per entry of
// `lines`, in that order: a WebSocket upgrade of /ws, or with `upgrade` false a GET of /healthz.
test::RawAnswer with_lines(std::uint16_t port, const std::vector<std::string>& lines,
                           bool upgrade = true) {
    return test::forwarded_request(port, lines, upgrade, upgrade ? "/ws" : "/healthz");
}

TEST(ClientAddressServer, AnUpgradeCountsAgainstTheProxysAppendedLine) {
    auto limits = test::behind_proxy();
    limits.connections_per_ip = 2;
    test::TestServer server(limits);
    WsClient a(server.port(), "198.51.100.7");
    WsClient b(server.port(), "198.51.100.7");
    a.hello();
    b.hello();
    EXPECT_EQ(with_lines(server.port(), {"203.0.113.1", "198.51.100.7"}).status, 429)
        << "the client's own line (first) names a fresh address; the proxy's (last) is full";
    EXPECT_EQ(with_lines(server.port(), {"198.51.100.7", "198.51.100.8"}).status, 101)
        << "the client names the full address; the proxy saw another";
    a.sync();
}

TEST(ClientAddressServer, AnHttpRequestCountsAgainstTheProxysAppendedLine) {
    auto limits = test::behind_proxy();
    limits.http_per_ip = 2;  // bursts of 4
    test::TestServer server(limits);
    int refused = 0;
    for (int i = 0; i < 12; ++i) {
        const auto forged = "203.0.113." + std::to_string(i + 1);
        const auto answer = with_lines(server.port(), {forged, "198.51.100.7"}, false);
        if (answer.status == 429) {
            ++refused;
        } else {
            EXPECT_EQ(answer.status, 200);
        }
    }
    EXPECT_GE(refused, 6) << "twelve requests from 198.51.100.7, each naming another address";
    EXPECT_EQ(with_lines(server.port(), {"198.51.100.7", "198.51.100.8"}, false).status, 200);
}

}  // namespace
