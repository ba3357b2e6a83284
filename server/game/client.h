#pragma once
// A connected client as the lobby and the rooms see it: something to send frames to. Frames are
// serialised once and shared immutably between every recipient (see STYLE.md).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "protocol/errors.h"

namespace server {

class Room;

using Frame = std::shared_ptr<const std::string>;

inline Frame make_frame(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

// An error frame for a client (protocol::error_message), counted for GET /metrics by its code.
Frame error_frame(protocol::ErrorCode code, std::string_view message, const nlohmann::json& id,
                  std::string_view game_id = {});
Frame error_frame(const protocol::ProtocolError& error, const nlohmann::json& id,
                  std::string_view game_id = {});

class Client {
public:
    virtual ~Client() = default;
    virtual std::uint64_t client_id() const = 0;
    // Queues a frame for this client; callable from any thread. A client whose queue is full is
    // disconnected instead.
    virtual void send(Frame frame) = 0;
    // A room tells the session that it now pushes (or no longer pushes) its game to it, so the
    // session can hand the game's requests straight to the room and say goodbye to it when it
    // closes. Callable from any thread.
    virtual void watching(const std::shared_ptr<Room>& room, bool on) = 0;
    // Cluster mode (relay.h): the room of `game_id` on node `owner` now pushes the game to this
    // client (or no longer does); the client's requests for that game go there. Any thread.
    virtual void watching_elsewhere(const std::string& game_id, const std::string& owner, bool on) {
        (void)game_id;
        (void)owner;
        (void)on;
    }
    // Closes the connection with the WebSocket close `code` once the frames queued before this
    // call are sent; callable from any thread.
    virtual void close_after_queued(std::uint16_t code) = 0;
    // If the client speaks for `player_id`, it speaks for nobody any more (its account logged out
    // everywhere, changed its password, or was closed): it says so with `reason`. Any thread.
    virtual void signed_out(const std::string& player_id, const std::string& reason) {
        (void)player_id;
        (void)reason;
    }
};

// Who asks: the session that sent a request, and the identity it speaks for.
struct Actor {
    std::weak_ptr<Client> client;
    std::uint64_t client_id = 0;
    std::string player_id;
    std::string name;
    bool account = false;  // a registered player (rated games need two)
    int lag_ms = 0;  // the connection's measured round trip when it asked (0: not measured yet)
    std::string ip;  // the address the connection comes from (per-address limits)
    // When the request's frame was read (none for what the server decides itself): the move
    // latency of GET /metrics.
    std::chrono::steady_clock::time_point received{};
    // A computer player's answer (issue 25): the room version it was thought for; the room drops
    // it quietly once the game has moved on. -1 for everyone else.
    std::int64_t bot_version = -1;

    void send(Frame frame) const {
        if (auto c = client.lock()) {
            c->send(std::move(frame));
        }
    }
};

}  // namespace server
