#pragma once
// One browser connection on /ws, on its own strand: a reader coroutine that parses, rate-limits and
// routes requests (identity here, lobby and rooms on their strands), and a single writer coroutine
// draining a bounded queue of shared frames.
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <boost/container/devector.hpp>

#include "protocol/account_messages.h"
#include "protocol/messages.h"
#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/store/store.h"

namespace server {

class ServerState;

class WebSocketSession final : public Client,
                               public std::enable_shared_from_this<WebSocketSession> {
public:
    using Request = boost::beast::http::request<boost::beast::http::string_body>;

    // `ip` is the client's address (net/client_address.h); `slot` counts the connection against
    // its address's limit (AddressLimits) while the session lives.
    WebSocketSession(ServerState& state, boost::beast::tcp_stream&& stream, std::string ip,
                     std::shared_ptr<void> slot);

    // Completes the upgrade and serves the connection until it closes.
    void start(Request request);

    std::uint64_t client_id() const override { return id_; }
    void send(Frame frame) override;
    void watching(const std::shared_ptr<Room>& room, bool on) override;
    void watching_elsewhere(const std::string& game_id, const std::string& owner, bool on) override;
    void close_after_queued(std::uint16_t code) override;
    void signed_out(const std::string& player_id, const std::string& reason) override;

private:
    static boost::asio::awaitable<void> run(std::shared_ptr<WebSocketSession> self,
                                            Request request);
    static boost::asio::awaitable<void> write_loop(std::shared_ptr<WebSocketSession> self);

    // A text frame from the client: within the rate, held while the identity is changing, else
    // handled (handle_text: parsed and routed).
    void on_text(const std::string& text);
    void handle_text(const std::string& text);
    // Handles the held frames in order, until one of them starts another identity change.
    void release_held();
    // `text` is the frame the request was read from (relayed as it is in cluster mode).
    void on_request(protocol::Request request, const std::string& text);
    void hello(const protocol::Request& request);
    // Goes on with a hello once its token's player (`known`) and account are read (none: a new
    // guest).
    void hello_as(const protocol::Request& request, std::optional<PlayerRecord> known,
                  std::optional<AccountRecord> account);
    // Ends a hello once the player is stored (or could not be): `welcome`, or internal_error.
    void welcome(const core::Status& stored, const protocol::PlayerInfo& player,
                 const std::string& token, const nlohmann::json& id);
    void set_name(const protocol::Request& request);

    // websocket_accounts.cpp: register, login, logout, change_password; websocket_admin.cpp: the
    // admin requests.
    void account_request(const protocol::Request& request);
    void register_account(const protocol::Request& request);
    void finish_register(const std::string& username, const std::string& password_hash,
                         const nlohmann::json& id);
    void login(const protocol::Request& request);
    // The password checked against `account` (none: a decoy), its outcome counted (`key`: the
    // username's key for the login limiter).
    void check_login(std::optional<AccountRecord> account, const protocol::Request& request,
                     const std::string& key);
    void finish_login(const AccountRecord& account, std::optional<std::string> rehash,
                      const Moderation& flags, const nlohmann::json& id);
    void logout(const protocol::Request& request);
    void change_password(const protocol::Request& request);
    void check_password_change(const AccountRecord& account, const protocol::Request& request,
                               const std::string& key);
    void admin_request(const protocol::Request& request);
    // `me` is an admin; `target` the player the request is about.
    void finish_admin_request(const protocol::Request& request, const AccountRecord& me,
                              const PlayerRecord& target);
    // Runs `work` on the password worker and `then` with its result on this session's strand;
    // false (the request answered with rate_limited) when the worker's queue is full.
    template <class Work, class Then>
    bool password_job(const nlohmann::json& id, Work work, Then then);
    // Runs `work` (store reads, Redis round trips) on the blocking pool and `then` with its result
    // on this session's strand, with `*pending` set meanwhile so that later frames wait; the held
    // frames go on after `then`. False (the request answered with rate_limited) when the pool's
    // queue is full. Defined in websocket_pool_job.h.
    template <class Work, class Then>
    bool pool_job(bool WebSocketSession::*pending, const nlohmann::json& id, Work work, Then then);
    // Runs `then(games)` with the unfinished games of `player_id`: this node's rooms at once; in
    // cluster mode every node's, read on the pool while `*pending` holds later frames (this node's
    // alone when the pool is busy). Defined in websocket_pool_job.h.
    template <class Then>
    void with_unfinished_games(bool WebSocketSession::*pending, const std::string& player_id,
                               Then then);
    // The connection stops speaking for its player: its seeks, lobby subscription and watches end.
    void drop_identity();
    // Starts speaking for `player` (after a login): what the previous identity had ends.
    void take_identity(const protocol::PlayerInfo& player,
                       std::optional<protocol::AccountInfo> account, std::string token_hash);
    void reply_error(protocol::ErrorCode code, const std::string& message,
                     const nlohmann::json& id);
    // A store read failed: logs `error` and answers internal_error with `message` (never as if
    // nothing had been found).
    void read_failed(const std::string& error, const std::string& message, const nlohmann::json& id,
                     std::string_view game_id = {});
    // Hands a lobby request to the lobby, with what it needs of the store read first on the pool
    // (needs_asker_facts).
    void lobby_request(protocol::Request request);
    // Hands a game request to its room (loaded from the store if needed): no_such_game only when
    // the game does not exist, internal_error when it could not be loaded.
    void room_request(protocol::Request request, const std::string& text);
    // Cluster mode: relays the request to `owner`, the node that owns its game (relay.h).
    void relay_request(const std::string& owner, const protocol::Request& request,
                       const std::string& text);
    void store_then(WriteBatch batch, std::function<void(core::Status)> then);
    bool take_token();
    void reply(std::string text) { enqueue(make_frame(std::move(text))); }
    void enqueue(Frame frame);
    // The client cannot keep up (more than max_queue frames queued and posted): it is disconnected
    // and counted (queue_drops).
    void fall_behind(std::size_t frames);
    void request_close(boost::beast::websocket::close_code code);
    void abort();
    // Says goodbye to the lobby and every room watched (once; later calls do nothing).
    void leave_everything();
    // Cluster mode: the games other nodes push to this connection, but `game_id`, let it go if
    // they are over (as post_looked_away does for this node's rooms).
    void looked_away_elsewhere(const std::string& game_id);
    void died(const std::exception_ptr& error, const char* where);
    // A pong answering our lag probe: the round trip joins the connection's lag estimate, which
    // every room it watches hears.
    void on_pong(std::string_view payload);
    Actor actor();

    ServerState& state_;
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    boost::asio::steady_timer wake_;
    std::uint64_t id_;
    // FIFOs that allocate nothing while empty (a std::deque allocates its first block at once),
    // so that an idle connection costs only what it must.
    boost::container::devector<Frame> queue_;
    // For send() on other threads: queue_.size() as last set on the strand, the frames posted to
    // the strand but not queued yet, and whether the session fell behind (or closed): then send()
    // posts nothing more.
    std::atomic<std::size_t> queued_{0};
    std::atomic<std::size_t> posted_{0};
    std::atomic<bool> behind_{false};
    std::optional<boost::beast::websocket::close_code> close_code_;
    bool closed_ = false;  // no more frames are queued
    bool left_ = false;    // the lobby and the rooms have been told that this client is gone
    std::optional<protocol::PlayerInfo> player_;
    bool hello_pending_ = false;  // a hello waits for its player to be stored
    // A game request waits for its lookup on the blocking pool (RoomDirectory::lookup): a game
    // not in memory.
    bool lookup_pending_ = false;
    // Frames that arrived while hello_pending_, account_pending_ or lookup_pending_.
    boost::container::devector<std::string> held_;
    std::optional<protocol::AccountInfo> account_;  // set when the player is an account
    std::string token_hash_;                        // the session this connection speaks with
    // An account request waits for the worker, the pool or the store (or a set_name for its
    // write): later frames wait in held_.
    bool account_pending_ = false;
    std::string ip_;              // the client's address, for the per-address limits
    std::shared_ptr<void> slot_;  // this connection, counted against its address
    // The rooms that push their game to this connection, by game id: a request for one of them
    // goes straight to its room.
    std::map<std::string, std::weak_ptr<Room>, std::less<>> watching_;
    // Cluster mode: the games other nodes push to this connection, with their owners.
    std::map<std::string, std::string, std::less<>> watching_elsewhere_;
    double tokens_;
    std::chrono::steady_clock::time_point refilled_;
    // Lag probes: the next one is due at next_probe_; the last one sent carried probe_seq_.
    std::chrono::steady_clock::time_point next_probe_;
    std::chrono::steady_clock::time_point probe_sent_;
    std::uint32_t probe_seq_ = 0;
    int lag_ms_ = 0;  // smoothed round trip; 0 until measured
    // When the frame being handled was read (Actor::received).
    std::chrono::steady_clock::time_point received_{};
};

}  // namespace server
