// Issue 23: WebSocket conformance of /ws, modelled on the Autobahn test suite's sections 1-7 and 9
// (framing, pings and pongs, reserved bits, opcodes, fragmentation, UTF-8, closing, many
// messages), over a raw socket so that the client can break every rule. The server must answer as
// RFC 6455 says: a pong echoes its ping, a fragmented message counts whole (control frames may
// come between its fragments), and a client that breaks the protocol is failed with the close
// code that names why (1002 protocol error, 1007 invalid payload, 1009 too big) — while another
// client on the same server goes on unharmed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "server/test_support.h"

namespace {

using test::json;

enum Opcode : int {
    op_continuation = 0,
    op_text = 1,
    op_binary = 2,
    op_close = 8,
    op_ping = 9,
    op_pong = 10
};

struct Frame {
    bool fin = true;
    int opcode = 0;
    std::string payload;
};

// A client on a raw socket past the upgrade: it sends frames of any shape and reads the server's.
class RawWebSocket {
public:
    explicit RawWebSocket(std::uint16_t port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            ADD_FAILURE() << "cannot connect";
            return;
        }
        const int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        send_bytes(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        while (in_.find("\r\n\r\n") == std::string::npos) {
            if (!fill(5000)) {
                ADD_FAILURE() << "no answer to the upgrade";
                return;
            }
        }
        const auto end = in_.find("\r\n\r\n") + 4;
        upgraded_ = in_.rfind("HTTP/1.1 101", 0) == 0;
        in_.erase(0, end);
    }
    ~RawWebSocket() { ::close(fd_); }
    RawWebSocket(const RawWebSocket&) = delete;
    RawWebSocket& operator=(const RawWebSocket&) = delete;

    bool upgraded() const { return upgraded_; }

    void send_bytes(std::string_view bytes) {
        while (!bytes.empty()) {
            const auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n <= 0) {
                return;  // the server closed: what it sent before says why
            }
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
    }

    // A masked client frame; `rsv` sets the reserved bits (0-7, RSV1 the highest).
    void send_frame(int opcode, std::string_view payload, bool fin = true, int rsv = 0) {
        std::string frame;
        frame += static_cast<char>((fin ? 0x80 : 0) | (rsv << 4) | opcode);
        if (payload.size() < 126) {
            frame += static_cast<char>(0x80 | payload.size());
        } else if (payload.size() < 65536) {
            frame += static_cast<char>(0x80 | 126);
            frame += static_cast<char>(payload.size() >> 8);
            frame += static_cast<char>(payload.size() & 0xff);
        } else {
            frame += static_cast<char>(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame +=
                    static_cast<char>((static_cast<std::uint64_t>(payload.size()) >> shift) & 0xff);
            }
        }
        const char mask[4] = {0x37, static_cast<char>(0xfa), 0x21, 0x3d};
        frame.append(mask, 4);
        for (std::size_t i = 0; i < payload.size(); ++i) {
            frame += static_cast<char>(payload[i] ^ mask[i % 4]);
        }
        send_bytes(frame);
    }
    void send_text(std::string_view payload) { send_frame(op_text, payload); }
    void send_close(int code, std::string_view reason = {}) {
        std::string payload;
        payload += static_cast<char>(code >> 8);
        payload += static_cast<char>(code & 0xff);
        payload += reason;
        send_frame(op_close, payload);
    }

    // The server's next frame (unmasked; its own pings, which measure lag, skipped), or nothing
    // once it closed or went quiet for `ms`.
    std::optional<Frame> read_frame(int ms = 5000) {
        for (;;) {
            if (in_.size() >= 2) {
                const auto b0 = static_cast<unsigned char>(in_[0]);
                const auto b1 = static_cast<unsigned char>(in_[1]);
                std::size_t length = b1 & 0x7f;
                std::size_t header = 2;
                if (length == 126 && in_.size() >= 4) {
                    length = (static_cast<unsigned char>(in_[2]) << 8) |
                             static_cast<unsigned char>(in_[3]);
                    header = 4;
                } else if (length == 127 && in_.size() >= 10) {
                    length = 0;
                    for (int i = 2; i < 10; ++i) {
                        length = (length << 8) | static_cast<unsigned char>(in_[i]);
                    }
                    header = 10;
                } else if (length >= 126) {
                    header = 0;  // the extended length has not arrived yet
                }
                if (header > 0 && in_.size() >= header + length) {
                    Frame frame{(b0 & 0x80) != 0, b0 & 0x0f, in_.substr(header, length)};
                    EXPECT_EQ(b1 & 0x80, 0) << "a server's frames are never masked";
                    in_.erase(0, header + length);
                    if (frame.opcode == op_ping) {
                        continue;  // the server measuring lag: not what the cases look at
                    }
                    return frame;
                }
            }
            if (!fill(ms)) {
                return std::nullopt;
            }
        }
    }

    // The server's next text message (fragments joined), skipping control frames; "" if none.
    std::string read_text(int ms = 5000) {
        std::string message;
        while (auto frame = read_frame(ms)) {
            if (frame->opcode == op_text || frame->opcode == op_continuation) {
                message += frame->payload;
                if (frame->fin) {
                    return message;
                }
            } else if (frame->opcode == op_close) {
                return message;
            }
        }
        return message;
    }

    // Reads until the server's close frame: its code (1005 for one without a code; -1 when the
    // connection ended without a close frame).
    int read_close_code(int ms = 5000) {
        while (auto frame = read_frame(ms)) {
            if (frame->opcode == op_close) {
                if (frame->payload.size() < 2) {
                    return 1005;
                }
                return (static_cast<unsigned char>(frame->payload[0]) << 8) |
                       static_cast<unsigned char>(frame->payload[1]);
            }
        }
        return -1;
    }

    // Whether the server ends the TCP connection within `ms`.
    bool ends_within(int ms) {
        while (fill(ms)) {
        }
        return eof_;
    }

    // The connection still serves: a `ping` request gets its `pong`.
    bool serves(const std::string& id = "alive") {
        send_text(json{{"type", "ping"}, {"id", id}}.dump());
        for (int i = 0; i < 20; ++i) {
            const auto message = test::parse(read_text());
            if (message.is_discarded()) {
                return false;
            }
            if (message.value("type", "") == "pong" && message.value("id", json()) == id) {
                return true;
            }
        }
        return false;
    }

    void hello() {
        send_text(R"({"type":"hello","protocol":1})");
        EXPECT_EQ(test::parse(read_text()).value("type", ""), "welcome");
    }

private:
    bool fill(int ms) {
        pollfd p{fd_, POLLIN, 0};
        if (eof_ || ::poll(&p, 1, ms) <= 0) {
            return false;
        }
        char buffer[16384];
        const auto n = ::recv(fd_, buffer, sizeof buffer, 0);
        if (n <= 0) {
            eof_ = true;
            return false;
        }
        in_.append(buffer, static_cast<std::size_t>(n));
        return true;
    }

    int fd_ = -1;
    bool upgraded_ = false;
    bool eof_ = false;
    std::string in_;
};

class WebSocketConformance : public ::testing::Test {
protected:
    void SetUp() override {
        bystander_ = std::make_unique<test::WsClient>(server_.port());
        bystander_->hello(std::nullopt, std::string("Bystander"));
    }
    // Every case ends with the bystander still served.
    void TearDown() override {
        bystander_->send({{"type", "ping"}, {"id", "by"}});
        EXPECT_EQ(bystander_->wait_for(
                      [](const json& m) { return m.value("id", json()) == "by"; })["type"],
                  "pong")
            << "another client is unharmed";
    }
    // A fresh client past `hello`.
    std::unique_ptr<RawWebSocket> client() {
        auto ws = std::make_unique<RawWebSocket>(server_.port());
        EXPECT_TRUE(ws->upgraded());
        ws->hello();
        return ws;
    }

    test::TestServer server_{test::fast_limits()};
    std::unique_ptr<test::WsClient> bystander_;
};

// Section 1: text and binary messages of every length encoding.
TEST_F(WebSocketConformance, FramingOfEveryLengthEncoding) {
    auto ws = client();
    ws->send_text("");
    EXPECT_EQ(test::parse(ws->read_text())["code"], "bad_json") << "an empty message";
    // The 7-bit length at its edge, then 16-bit lengths (a 64-bit one is past the frame limit).
    for (const std::size_t size :
         {std::size_t{125}, std::size_t{126}, std::size_t{127}, std::size_t{4096}}) {
        const std::string id = "len";
        const std::string body = json{{"type", "ping"}, {"id", id}}.dump();
        const std::string request = std::string(size - body.size(), ' ') + body;
        ws->send_text(request);
        const auto answer = test::parse(ws->read_text());
        EXPECT_EQ(answer["type"], "pong") << "a " << request.size() << "-byte frame";
    }
    ws->send_frame(op_binary, std::string("\x00\x01\x02", 3));
    EXPECT_EQ(test::parse(ws->read_text())["code"], "bad_json") << "binary is refused, not fatal";
    EXPECT_TRUE(ws->serves());
    // A 64-bit length past the frame limit: an error, then close 1009.
    ws->send_text(std::string(70000, ' '));
    EXPECT_EQ(ws->read_close_code(), 1009);
    EXPECT_TRUE(ws->ends_within(5000));
}

// Section 2: pings and pongs.
TEST_F(WebSocketConformance, PingsAreAnsweredAndPongsIgnored) {
    auto ws = client();
    ws->send_frame(op_ping, "");
    auto pong_frame = ws->read_frame();
    ASSERT_TRUE(pong_frame);
    EXPECT_EQ(pong_frame->opcode, op_pong);
    EXPECT_EQ(pong_frame->payload, "");
    const std::string largest(125, '*');
    ws->send_frame(op_ping, largest);
    pong_frame = ws->read_frame();
    ASSERT_TRUE(pong_frame);
    EXPECT_EQ(pong_frame->opcode, op_pong);
    EXPECT_EQ(pong_frame->payload, largest) << "a pong echoes its ping";
    ws->send_frame(op_pong, "unsolicited");
    for (int i = 0; i < 10; ++i) {
        ws->send_frame(op_ping, std::to_string(i));
    }
    for (int i = 0; i < 10; ++i) {
        pong_frame = ws->read_frame();
        ASSERT_TRUE(pong_frame);
        EXPECT_EQ(pong_frame->payload, std::to_string(i)) << "in order";
    }
    EXPECT_TRUE(ws->serves());
}

TEST_F(WebSocketConformance, OversizedOrFragmentedControlFramesFailTheConnection) {
    auto oversized = client();
    oversized->send_frame(op_ping, std::string(126, '*'));
    EXPECT_EQ(oversized->read_close_code(), 1002);
    auto fragmented = client();
    fragmented->send_frame(op_ping, "half", false);
    EXPECT_EQ(fragmented->read_close_code(), 1002);
}

// Sections 3 and 4: reserved bits and opcodes without an extension that defines them.
TEST_F(WebSocketConformance, ReservedBitsAndOpcodesFailTheConnection) {
    for (const int rsv : {4, 2, 1}) {
        auto ws = client();
        ws->send_frame(op_text, R"({"type":"ping"})", true, rsv);
        EXPECT_EQ(ws->read_close_code(), 1002) << "RSV " << rsv;
    }
    for (const int opcode : {3, 7, 0xB, 0xF}) {
        auto ws = client();
        ws->send_frame(opcode, "x");
        EXPECT_EQ(ws->read_close_code(), 1002) << "opcode " << opcode;
    }
}

// Section 5: fragmentation.
TEST_F(WebSocketConformance, AFragmentedMessageCountsWholeWithPingsBetween) {
    RawWebSocket ws(server_.port());
    ASSERT_TRUE(ws.upgraded());
    ws.send_frame(op_text, R"({"type":"hel)", false);
    ws.send_frame(op_ping, "between");
    ws.send_frame(op_continuation, R"(lo","proto)", false);
    ws.send_frame(op_continuation, R"(col":1})", true);
    const auto pong_frame = ws.read_frame();
    ASSERT_TRUE(pong_frame);
    EXPECT_EQ(pong_frame->opcode, op_pong);
    EXPECT_EQ(pong_frame->payload, "between") << "answered before the message is whole";
    EXPECT_EQ(test::parse(ws.read_text())["type"], "welcome");
    EXPECT_TRUE(ws.serves());
}

TEST_F(WebSocketConformance, FragmentsOutOfOrderFailTheConnection) {
    auto orphan = client();
    orphan->send_frame(op_continuation, "no start");
    EXPECT_EQ(orphan->read_close_code(), 1002);
    auto interleaved = client();
    interleaved->send_frame(op_text, R"({"type":)", false);
    interleaved->send_frame(op_text, R"({"type":"ping"})");
    EXPECT_EQ(interleaved->read_close_code(), 1002);
}

// Section 6: UTF-8.
TEST_F(WebSocketConformance, TextMustBeUtf8EvenAcrossFragments) {
    auto ws = client();
    // "é♞" as an id, its knight split between two fragments: valid once whole.
    const std::string request = json{{"type", "ping"}, {"id", "\xc3\xa9\xe2\x99\x9e"}}.dump();
    const auto cut = request.find("\xe2\x99") + 1;
    ws->send_frame(op_text, request.substr(0, cut), false);
    ws->send_frame(op_continuation, request.substr(cut), true);
    const auto answer = test::parse(ws->read_text());
    EXPECT_EQ(answer["type"], "pong");
    EXPECT_EQ(answer["id"], "\xc3\xa9\xe2\x99\x9e");
    ws->send_text("{\"type\":\"ping\",\"id\":\"\xff\xfe\"}");
    EXPECT_EQ(ws->read_close_code(), 1007) << "invalid UTF-8";
}

// Section 7: the closing handshake.
TEST_F(WebSocketConformance, ACloseIsAnsweredAndEndsTheConnection) {
    auto plain = client();
    plain->send_frame(op_close, "");
    const int echoed = plain->read_close_code();
    EXPECT_TRUE(echoed == 1005 || echoed == 1000) << echoed;
    EXPECT_TRUE(plain->ends_within(5000));

    auto normal = client();
    normal->send_close(1000, "bye");
    EXPECT_EQ(normal->read_close_code(), 1000);
    normal->send_text(R"({"type":"ping","id":"late"})");
    EXPECT_EQ(normal->read_text(1000), "") << "nothing after a close";
    EXPECT_TRUE(normal->ends_within(5000));
}

TEST_F(WebSocketConformance, BadClosePayloadsFailTheConnection) {
    auto short_payload = client();
    short_payload->send_frame(op_close, "\x03");
    EXPECT_EQ(short_payload->read_close_code(), 1002) << "a one-byte close payload";
    // Autobahn's invalid codes (section 7.9): below 1000, the reserved 1004-1006, 1016-2999.
    for (const int code : {0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999}) {
        auto ws = client();
        ws->send_close(code);
        EXPECT_EQ(ws->read_close_code(), 1002) << "close code " << code;
    }
    auto bad_reason = client();
    bad_reason->send_close(1000, "\xff\xfe");
    const int code = bad_reason->read_close_code();
    EXPECT_TRUE(code == 1007 || code == 1002) << "a reason that is not UTF-8: " << code;
}

// Section 9, scaled to a game server's frame limit: many messages back to back, and the largest
// frame the limit allows.
TEST_F(WebSocketConformance, ManyMessagesAndTheLargestAllowedFrame) {
    auto ws = client();
    const int count = 500;
    for (int i = 0; i < count; ++i) {
        ws->send_text(json{{"type", "ping"}, {"id", i}}.dump());
    }
    for (int i = 0; i < count; ++i) {
        const auto answer = test::parse(ws->read_text());
        ASSERT_EQ(answer["type"], "pong") << i;
        EXPECT_EQ(answer["id"], i) << "in order";
    }
    const std::string body = json{{"type", "ping"}, {"id", "big"}}.dump();
    const std::string largest =
        std::string(server::default_max_frame_bytes - body.size(), ' ') + body;
    ws->send_text(largest);
    EXPECT_EQ(test::parse(ws->read_text())["id"], "big");
}

}  // namespace
