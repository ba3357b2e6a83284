// libFuzzer target (issue 23): the WebSocket session fed raw bytes. One server (memory store, all
// limits raised so that none refuses the fuzzer) runs for the whole process. Each input opens a
// connection, upgrades it, says `hello` (so requests reach the lobby and the rooms), then sends the
// input as raw bytes after the handshake — frames of any shape: unmasked, fragmented, control
// frames, lengths that lie, text that is not UTF-8 or not JSON — and half-closes. The server must
// answer with frames or close, and close once the client is gone; every 64 inputs a fresh
// connection must still get its `pong`, so a hang or a dead I/O thread is found, and a crash or
// undefined behaviour stops the run (ASan, UBSan).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "server/log.h"
#include "server/server.h"
#include "server/store/memory_store.h"

namespace {

// Never destroyed: the server lives until the process ends (a destructor at exit would stop it
// after the loggers it still uses are gone). Reachable from globals, so no leak is reported.
server::Store* store = nullptr;
server::Server* running = nullptr;

void start_server() {
    server::set_log_level("off");
    store = server::make_memory_store().release();
    server::ServerOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.web_root = "/nonexistent";
    options.threads = 2;
    auto& limits = options.limits;
    limits.connections_per_ip = 1000;
    limits.guests_per_ip_per_hour = 1 << 30;
    limits.seeks_per_ip = 1 << 20;
    limits.games_per_player = 1 << 20;
    limits.chat_per_ip = 1 << 20;
    limits.http_per_ip = 1 << 20;
    limits.rate_per_second = 1 << 20;
    limits.http_header_timeout = std::chrono::seconds(2);
    limits.password_ops = 1;  // Argon2id at its cheapest: a fuzzed login must not take seconds
    limits.password_memory = 8192;
    auto started = server::Server::start(options, *store);
    if (!started) {
        __builtin_trap();
    }
    running = started->release();
}

// Writes all of `bytes`; false if the server closed first (a fine outcome).
bool send_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const auto n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) {
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// Reads until the server closes or `ms` milliseconds pass without a byte; returns what came.
std::string read_until_closed(int fd, int ms, bool* closed) {
    std::string in;
    char buffer[4096];
    *closed = false;
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, ms) <= 0) {
            return in;
        }
        const auto n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) {
            *closed = true;
            return in;
        }
        in.append(buffer, static_cast<std::size_t>(n));
    }
}

// A masked client text frame (the mask is zero: XOR with it leaves the payload as it is).
std::string text_frame(std::string_view payload) {
    std::string frame = "\x81";
    if (payload.size() < 126) {
        frame += static_cast<char>(0x80 | payload.size());
    } else {
        frame += static_cast<char>(0x80 | 126);
        frame += static_cast<char>(payload.size() >> 8);
        frame += static_cast<char>(payload.size() & 0xff);
    }
    frame += std::string(4, '\0');
    frame += payload;
    return frame;
}

// A connection past the upgrade and `hello`; -1 if the server would not have it.
int open_session() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(running->port());
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    send_all(fd,
             "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    std::string head;
    char c;
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < 4096) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5000) <= 0 || ::recv(fd, &c, 1, 0) != 1) {
            ::close(fd);
            return -1;
        }
        head += c;
    }
    if (head.rfind("HTTP/1.1 101", 0) != 0) {
        ::close(fd);
        return -1;
    }
    send_all(fd, text_frame(R"({"type":"hello","protocol":1})"));
    return fd;
}

// A fresh connection gets its `pong`: the server still serves.
void expect_alive() {
    const int fd = open_session();
    if (fd < 0) {
        __builtin_trap();  // the server no longer upgrades
    }
    send_all(fd, text_frame(R"({"type":"ping","id":"alive"})"));
    std::string in;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (in.find("\"pong\"") == std::string::npos) {
        if (std::chrono::steady_clock::now() > deadline) {
            __builtin_trap();  // no pong within 10 s: a hang
        }
        bool closed = false;
        in += read_until_closed(fd, 100, &closed);
        if (closed && in.find("\"pong\"") == std::string::npos) {
            __builtin_trap();  // closed without answering a ping
        }
    }
    ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static std::uint64_t runs = 0;
    if (!running) {
        start_server();
        expect_alive();
    }
    if (size > 64 * 1024) {
        return 0;
    }
    const int fd = open_session();
    if (fd < 0) {
        __builtin_trap();
    }
    send_all(fd, std::string_view(reinterpret_cast<const char*>(data), size));
    ::shutdown(fd, SHUT_WR);
    bool closed = false;
    read_until_closed(fd, 10000, &closed);
    ::close(fd);
    if (!closed) {
        __builtin_trap();  // the client is gone, yet after 10 s the server has not closed
    }
    if (++runs % 64 == 0) {
        expect_alive();
    }
    return 0;
}
