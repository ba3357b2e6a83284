#pragma once
// Every transport limit of the server in one place. Each has a command-line flag and an environment
// variable (see server/config.h); these are the defaults.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>

namespace server {

// Largest frame answered with a normal error (`frame_too_large`, then close 1009). The largest
// legitimate message is a chat line of 300 code points each written as a JSON surrogate-pair escape
// (12 bytes each, about 3.7 KB with its envelope); a password is at most 256 bytes.
inline constexpr std::size_t default_max_frame_bytes = 8 * 1024;
// A connection's read buffer grown past this by a large frame is released once the frame is
// handled.
inline constexpr std::size_t released_buffer_bytes = 2 * 1024;
// Frames beyond max_frame_bytes * hard_frame_factor are cut off by the WebSocket layer (close
// 1009).
inline constexpr std::size_t hard_frame_factor = 4;
// Outgoing frames queued for one client; a client that falls further behind is disconnected.
inline constexpr std::size_t default_max_queue = 256;
// Messages per second a client may send (token bucket, burst = 2 seconds' worth).
inline constexpr int default_rate_per_second = 20;
// Chat messages per player and room (and per player and tournament): at most this many in any
// chat_window.
inline constexpr int chat_burst = 5;
inline constexpr std::chrono::seconds chat_window{10};
// The chat lines kept (and shown to a newcomer): per channel of a game, per tournament.
inline constexpr std::size_t chat_lines_kept = 50;
// A `watch` with `since` that missed at most this many events gets them in one `events` frame;
// a larger gap gets a snapshot instead.
inline constexpr std::size_t catch_up_max_events = 200;
// A room pushes its spectator count at most once in this time (the first change at once).
inline constexpr std::chrono::milliseconds spectators_interval{1000};
// A room tells the lobby its moves at most once in this time (the first change at once; a game's
// start and end at once always).
inline constexpr std::chrono::milliseconds summary_interval{1000};
// A game in progress whose two players have both had no connection for this long leaves the
// lobby's list (it comes back when one of them returns).
inline constexpr std::chrono::minutes lobby_away_after{5};
// Frames a connection may send while its hello (or an account request) is being stored; they are
// handled in order once it is done. One more is refused with rate_limited.
inline constexpr std::size_t max_held_frames = 16;
// A WebSocket with no traffic for this long is closed; pings go out at half of it.
inline constexpr std::chrono::seconds default_idle_timeout{60};
// How often the server measures a connection's round trip (a WebSocket ping carrying a sequence
// number; the browser's pong comes back with it). The lag it finds is credited to the clocks.
inline constexpr std::chrono::milliseconds default_lag_probe_interval{3000};
// HTTP: time to read a request's header (the request line and fields, counted from when the server
// starts waiting for it, so an idle keep-alive connection is closed after it too), then time to
// read its body; the largest target (414 above it), header (431) and body (413) accepted.
inline constexpr std::chrono::seconds default_http_header_timeout{5};
inline constexpr std::chrono::seconds http_body_timeout{30};
inline constexpr std::size_t http_target_limit = 4 * 1024;
inline constexpr std::size_t http_header_limit = 8 * 1024;
inline constexpr std::size_t http_body_limit = 16 * 1024;
// Finished games per page in GET /api/players/<id>/games.
inline constexpr int games_page_size = 20;
// GET /api/legal: the longest position string and the most moves it replays.
inline constexpr std::size_t legal_api_max_fen = 200;
inline constexpr std::size_t legal_api_max_moves = 1000;
// Time the server waits for clients to close during shutdown before it stops anyway.
inline constexpr std::chrono::milliseconds shutdown_grace{1500};
// The drain (server.h): at most this long for the writes already accepted to be stored and sent
// before the connections close anyway; clients reconnect after a random delay of up to
// restart_reconnect_ms (server_restart).
inline constexpr std::chrono::milliseconds drain_grace{5000};
inline constexpr int restart_reconnect_ms = 3000;
// Descriptors the server keeps open besides its connections (the listening socket, the store's
// files or connections, Redis, logs, the static files being sent); the soft open-file limit is
// raised at start to --connections-total plus this (server/open_files.h).
inline constexpr std::uint64_t open_files_margin = 256;
// When accept fails for want of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM), the
// listener waits this long before it accepts again; accept failures are logged at most once in
// accept_log_interval, with how many there were.
inline constexpr std::chrono::milliseconds accept_backoff{100};
inline constexpr std::chrono::seconds accept_log_interval{1};

// Accounts (issue 16). Password attempts (login, register, change_password): every attempt counts
// against the IP address; every failure against the pair (account, address) and against the
// account. An address is refused an account after failures_per_address failures on it; once the
// account has failures_per_account failures from everywhere (a wide attack), every address that
// has failed on it at least once is refused it too — never an address that has not (LoginLimiter).
struct LoginPolicy {
    int attempts_per_ip = 20;  // in ip_window
    std::chrono::seconds ip_window{600};
    int failures_per_address = 5;   // on one account, in account_window
    int failures_per_account = 50;  // from all addresses, in account_window
    std::chrono::seconds account_window{900};
};
// Password checks waiting for the password worker; beyond, `rate_limited`.
inline constexpr std::size_t password_queue = 64;
// Argon2id cost (libsodium's interactive limits): passes over memory, and memory per hash.
inline constexpr std::uint64_t default_password_ops = 2;
inline constexpr std::size_t default_password_memory = 64u * 1024u * 1024u;
// Ratings: the leaderboard lists this many players with RD at most the provisional bound who
// played in the last leaderboard_days, and as many provisional ones apart; a player's games
// download as one PGN of at most this many.
inline constexpr int leaderboard_size = 50;
inline constexpr int leaderboard_days = 90;
inline constexpr int max_pgn_games = 2000;
// A public seek whose player has no connection left is withdrawn after this (a reload or a short
// network drop keeps it).
inline constexpr std::chrono::seconds default_seek_grace{30};
// A private invitation is withdrawn this long after it was created (issue 15).
inline constexpr std::chrono::seconds default_invite_ttl{3600};

// Per address and in total (issue 23): what one address (the peer's IP, or with --trusted-proxy
// the client's address the proxy names in X-Forwarded-For) may hold or do. Each has a flag.
// WebSockets open at once from one address (beyond: HTTP 429 on the upgrade) and in all (503).
inline constexpr int default_connections_per_ip = 30;
inline constexpr int default_connections_total = 10000;
// New guests (a hello without a token) one address may create per hour (beyond: rate_limited).
inline constexpr int default_guests_per_ip_per_hour = 30;
// Open seeks one player (max_seeks_per_player) and one address may hold at once.
inline constexpr int max_seeks_per_player = 5;
inline constexpr int default_seeks_per_ip = 10;
// Unfinished games a player may sit in at once; a seek or an acceptance beyond is refused.
inline constexpr int default_games_per_player = 30;
// Chat lines from one address, all games together, in any chat_window.
inline constexpr int default_chat_per_ip = 10;
// HTTP requests per second from one address (token bucket, bursts of twice that; beyond: 429).
inline constexpr int default_http_per_ip = 100;

// The computer players (issue 25, server/bots/): threads that think (at a lower priority than the
// I/O threads; 0: no games against the computer), and jobs that may wait for a thread (beyond, a
// new game against the computer is refused with bots_busy and a running one asks again a second
// later).
// One thread fewer than the machine's cores (at least one), so people's moves keep a core.
inline int default_bot_threads() {
    const auto cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, cores - 1);
}
inline constexpr int default_bot_queue = 32;
// How a room whose bot could not be queued asks again.
inline constexpr std::chrono::milliseconds bot_retry_interval{1000};
// Game analysis (issue 25, server/analysis/), on the bot threads below every bot move: analyses
// queued or running at once for one player and for one address (beyond: 429 too_many_analyses),
// and in all (beyond: 429 analysis_queue_full). No flags: each is a few seconds to a minute of one
// bot thread (docs/engine.md, "Analysis").
inline constexpr int default_analyses_per_player = 2;
inline constexpr int default_analyses_per_ip = 4;
inline constexpr int default_analysis_queue = 32;

// Queues that wait on something slow (issue 42): each is bounded, and what does not fit is
// refused at once with a clear error (nothing done, nothing else harmed).
// Requests waiting in one room while its batch is being stored: at most room_waiting_max in all
// and room_waiting_per_client from one connection, so one client cannot fill a game for the
// others; beyond, `rate_limited` ("the game is busy"). The computer's answers never count (it asks
// at most once per version).
inline constexpr std::size_t room_waiting_max = 256;
inline constexpr std::size_t room_waiting_per_client = 16;
// Writes that are not a room's (players, names, accounts, sessions, seeks, new games, analyses,
// the heartbeat) queued for the store's writer; beyond, the write fails at once ("the store is
// busy") and its requester gets internal_error. A room's batches are bounded by its one batch in
// flight and never refused here.
inline constexpr std::size_t store_queue_max = 4096;
// Cluster mode: records waiting to be published to one node (or to the lobby channel); beyond,
// that node is treated as one that did not hear them: each request among them is answered
// `server_restarting`, and what it pushes is resynchronised (relay.cpp).
inline constexpr std::size_t relay_outbox_per_node = 4096;

// Threads for the calls that may block (server/blocking_pool.h: store reads, claims, Redis round
// trips, files, exports), and the jobs that may wait for one; beyond, the request is refused as
// "busy" at once.
inline constexpr int default_blocking_threads = 4;
inline constexpr std::size_t blocking_queue_max = 1024;

struct Limits {
    std::size_t max_frame_bytes = default_max_frame_bytes;
    std::size_t max_queue = default_max_queue;
    int rate_per_second = default_rate_per_second;
    std::chrono::seconds idle_timeout = default_idle_timeout;
    LoginPolicy login;
    std::uint64_t password_ops = default_password_ops;
    std::size_t password_memory = default_password_memory;
    std::chrono::milliseconds lag_probe_interval = default_lag_probe_interval;  // 0: never
    std::chrono::seconds seek_grace = default_seek_grace;
    std::chrono::seconds invite_ttl = default_invite_ttl;
    std::chrono::seconds http_header_timeout = default_http_header_timeout;
    int connections_per_ip = default_connections_per_ip;
    int connections_total = default_connections_total;
    int guests_per_ip_per_hour = default_guests_per_ip_per_hour;
    int seeks_per_ip = default_seeks_per_ip;
    int games_per_player = default_games_per_player;
    int chat_per_ip = default_chat_per_ip;
    int http_per_ip = default_http_per_ip;
    // Addresses of reverse proxies (comma-separated) whose X-Forwarded-For names the client; from
    // anyone else the header is ignored. Empty: no proxy is trusted.
    std::string trusted_proxies;
    // Origins (scheme://host[:port], comma-separated) whose pages may open a WebSocket besides the
    // server's own (net/origin.h); a foreign Origin gets 403 on the upgrade.
    std::string allowed_origins;
    // When set, GET /metrics answers only requests with "Authorization: Bearer <this>"; empty:
    // anyone may read it (it holds counts, no player's data).
    std::string metrics_token;
    int blocking_threads = default_blocking_threads;
    int bot_threads = default_bot_threads();
    int bot_queue = default_bot_queue;
    // Tests only: every level thinks this long when set (instead of server/bots/bot_time.h's table,
    // and as the cap of a timed game's budget).
    std::chrono::milliseconds bot_move_time{0};
    int analyses_per_player = default_analyses_per_player;
    int analyses_per_ip = default_analyses_per_ip;
    int analysis_queue = default_analysis_queue;
    // Nodes the engine searches in each position of an analysis; 0: its default
    // (core/engine/analysis.h). Tests set it.
    std::uint64_t analysis_nodes = 0;
};

}  // namespace server
