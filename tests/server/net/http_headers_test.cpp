// Issue 23: pages carry a Content-Security-Policy and friends, and a WebSocket upgrade from a
// foreign page (its Origin) gets 403 while the server's own pages and non-browser clients connect.
#include <gtest/gtest.h>

#include "server/test_support.h"

namespace {

// A GET of `target` (an upgrade when `upgrade`) with `headers` (each "Name: value\r\n").
test::RawAnswer request(std::uint16_t port, const std::string& target, const std::string& headers,
                        bool upgrade) {
    std::string text =
        "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n" + headers;
    if (upgrade) {
        text +=
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    } else {
        text += "Connection: close\r\n";
    }
    return test::raw_http(port, text + "\r\n");
}

bool has_header(const std::string& head, const std::string& line) {
    return head.find("\r\n" + line + "\r\n") != std::string::npos ||
           (head.size() >= line.size() &&
            head.compare(head.size() - line.size(), line.size(), line) == 0);
}

TEST(HttpHeaders, PagesCarryTheSecurityHeaders) {
    test::TestServer server;
    for (const std::string target : {"/", "/game/g_x", "/app.js", "/healthz", "/api/nothing"}) {
        const auto answer = request(server.port(), target, "", false);
        EXPECT_NE(answer.status, 0) << target;
        EXPECT_TRUE(has_header(answer.head,
                               "Content-Security-Policy: default-src 'self'; frame-ancestors "
                               "'none'; base-uri 'none'; form-action 'self'; object-src 'none'"))
            << target << "\n"
            << answer.head;
        EXPECT_TRUE(has_header(answer.head, "X-Content-Type-Options: nosniff")) << target;
        EXPECT_TRUE(has_header(answer.head, "Referrer-Policy: same-origin")) << target;
        EXPECT_TRUE(has_header(answer.head, "X-Frame-Options: DENY")) << target;
    }
}

TEST(HttpHeaders, AForeignOriginCannotOpenAWebSocket) {
    test::TestServer server;
    test::WsClient player(server.port());
    player.hello();
    const auto port = std::to_string(server.port());
    const auto evil = request(server.port(), "/ws", "Origin: https://evil.example\r\n", true);
    EXPECT_EQ(evil.status, 403);
    EXPECT_NE(evil.body.find("--allowed-origin"), std::string::npos) << evil.body;
    EXPECT_EQ(request(server.port(), "/ws", "Origin: null\r\n", true).status, 403);
    EXPECT_EQ(
        request(server.port(), "/ws", "Origin: http://127.0.0.1:" + port + "\r\n", true).status,
        101)
        << "the server's own pages";
    EXPECT_EQ(request(server.port(), "/ws", "", true).status, 101) << "no Origin: not a browser";
    player.sync();  // the refusals harmed no one
}

TEST(HttpHeaders, AllowedOriginsAddToTheServersOwn) {
    server::Limits limits;
    limits.allowed_origins = "https://play.example, http://localhost:3000";
    test::TestServer server(limits);
    EXPECT_EQ(request(server.port(), "/ws", "Origin: https://play.example\r\n", true).status, 101);
    EXPECT_EQ(request(server.port(), "/ws", "Origin: http://localhost:3000\r\n", true).status, 101);
    EXPECT_EQ(request(server.port(), "/ws", "Origin: https://evil.example\r\n", true).status, 403);
}

}  // namespace
