#include "server/config.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <type_traits>

#include <CLI/CLI.hpp>

#include "server/cluster/redis_client.h"
#include "server/log.h"
#include "server/net/client_address.h"
#include "server/net/origin.h"
#include "server/store/postgres_db.h"
#include "server/tournament/arena_schedule.h"

namespace server {

namespace {

// One setting: its flag, its environment variable, and how it joins a CLI11 app bound to a Config.
struct Flag {
    std::string name;
    std::string env;
    std::function<void(CLI::App&, Config&)> add;
};

// Whole decimal numbers in [min, max] (no sign, no hex or octal, no spaces).
CLI::Validator whole_number(long long min, long long max) {
    const std::string rule =
        "must be a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            long long value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (text.empty() || text[0] == '-' || ec != std::errc() ||
                end != text.data() + text.size() || value < min || value > max) {
                return rule;
            }
            return {};
        },
        std::to_string(min) + ".." + std::to_string(max));
}

const CLI::Validator not_empty(
    [](std::string& text) { return text.empty() ? std::string("must not be empty") : ""; }, "");

const CLI::Validator address_list(
    [](std::string& text) {
        auto parsed = parse_address_list(text);
        return parsed ? std::string() : parsed.error();
    },
    "ADDRESSES");

const CLI::Validator origin_list(
    [](std::string& text) {
        auto parsed = parse_origin_list(text);
        return parsed ? std::string() : parsed.error();
    },
    "ORIGINS");

// A bearer token: 16 to 256 visible ASCII characters.
const CLI::Validator bearer_token(
    [](std::string& text) {
        const bool visible = std::all_of(text.begin(), text.end(),
                                         [](unsigned char c) { return c > 0x20 && c < 0x7f; });
        return text.size() >= 16 && text.size() <= 256 && visible
                   ? std::string()
                   : std::string("must be 16 to 256 visible ASCII characters");
    },
    "TOKEN");

// A Redis URL (cluster/redis_client.h), or "" for a node that runs alone.
const CLI::Validator redis_url(
    [](std::string& text) {
        if (text.empty()) {
            return std::string();
        }
        auto parsed = cluster::parse_redis_url(text);
        return parsed ? std::string() : parsed.error();
    },
    "URL");

// A cluster node's id: letters, digits, '-', '_' and '.', at most 64 ("" picks one).
const CLI::Validator node_id_text(
    [](std::string& text) {
        const bool fine = text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                                     c == '_' || c == '.';
                          });
        return fine ? std::string()
                    : std::string("must be at most 64 letters, digits, '-', '_' or '.'");
    },
    "ID");

const CLI::Validator log_level_name(
    [](std::string& text) {
        return is_log_level(text)
                   ? std::string()
                   : std::string("must be trace, debug, info, warn, error, critical or off");
    },
    "LEVEL");

template <class T>
std::string show(const T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
        return value;
    } else if constexpr (std::is_same_v<T, std::chrono::seconds>) {
        return std::to_string(value.count());
    } else {
        return std::to_string(value);
    }
}

// A flag that sets the field `field(config)` (a string, an integer or seconds) once `check`
// accepts the text. The help shows the environment variable and the default.
template <class Field>
Flag flag(std::string name, std::string env, std::string help, Field field, CLI::Validator check) {
    return {name, env, [=](CLI::App& app, Config& config) {
                auto& target = field(config);
                using T = std::remove_reference_t<decltype(target)>;
                Config defaults;
                app.add_option_function<std::string>(
                       name,
                       [&target](const std::string& text) {
                           if constexpr (std::is_same_v<T, std::string>) {
                               target = text;
                           } else {
                               long long value = 0;  // already checked by the validator
                               std::from_chars(text.data(), text.data() + text.size(), value);
                               target = T(value);
                           }
                       },
                       help + " [env " + env + "]")
                    ->check(check)
                    ->type_name(std::is_same_v<T, std::string> ? "TEXT" : "INT")
                    ->default_str(show(field(defaults)));
            }};
}

// Every setting of the server, in the order --help lists them.
const std::vector<Flag>& flags() {
    static const std::vector<Flag> table = {
        flag(
            "--bind", "CHESSENCE_BIND", "address to listen on",
            [](Config & c) -> auto& { return c.server.bind; }, not_empty),
        flag(
            "--port", "CHESSENCE_PORT", "TCP port, 0 = any free port (logged)",
            [](Config & c) -> auto& { return c.server.port; }, whole_number(0, 65535)),
        flag(
            "--db", "CHESSENCE_DB", "SQLite file, postgresql://… URI, or :memory: to keep nothing",
            [](Config & c) -> auto& { return c.db; }, not_empty),
        // Issue 42: how long a node waits for PostgreSQL (server/store/postgres_db.h).
        flag(
            "--store-timeout-ms", "CHESSENCE_STORE_TIMEOUT_MS",
            "milliseconds a call to PostgreSQL (connecting included) may wait for its answer "
            "before the connection is given up and the call fails (the server's own "
            "statement_timeout: nine tenths of it)",
            [](Config & c) -> auto& { return c.store_timeout_ms; }, whole_number(100, 600000)),
        flag(
            "--web-root", "CHESSENCE_WEB_ROOT", "folder of the web client",
            [](Config & c) -> auto& { return c.server.web_root; }, not_empty),
        flag(
            "--puzzles", "CHESSENCE_PUZZLES",
            "the puzzle bank (chessence puzzles writes it); missing or bad: no puzzles",
            [](Config & c) -> auto& { return c.server.puzzles; }, not_empty),
        flag(
            "--log-level", "CHESSENCE_LOG_LEVEL",
            "trace, debug, info, warn, error, critical or off",
            [](Config & c) -> auto& { return c.log_level; }, log_level_name),
        flag(
            "--max-frame", "CHESSENCE_MAX_FRAME", "largest WebSocket frame in bytes",
            [](Config & c) -> auto& { return c.server.limits.max_frame_bytes; },
            whole_number(256, 16 * 1024 * 1024)),
        flag(
            "--max-queue", "CHESSENCE_MAX_QUEUE",
            "outgoing frames queued per client before it is dropped",
            [](Config & c) -> auto& { return c.server.limits.max_queue; }, whole_number(8, 100000)),
        flag(
            "--rate", "CHESSENCE_RATE", "messages per second per client",
            [](Config & c) -> auto& { return c.server.limits.rate_per_second; },
            whole_number(1, 10000)),
        flag(
            "--idle-timeout", "CHESSENCE_IDLE_TIMEOUT",
            "seconds of silence before a WebSocket is closed",
            [](Config & c) -> auto& { return c.server.limits.idle_timeout; },
            whole_number(2, 86400)),
        flag(
            "--header-timeout", "CHESSENCE_HEADER_TIMEOUT",
            "seconds to read an HTTP request's header before the connection is closed",
            [](Config & c) -> auto& { return c.server.limits.http_header_timeout; },
            whole_number(1, 300)),
        // Issue 23: what one address may hold or do (server/limits.h, docs/protocol.md "Limits").
        flag(
            "--connections-per-ip", "CHESSENCE_CONNECTIONS_PER_IP",
            "WebSockets open at once from one address",
            [](Config & c) -> auto& { return c.server.limits.connections_per_ip; },
            whole_number(1, 1000000)),
        flag(
            "--connections-total", "CHESSENCE_CONNECTIONS_TOTAL", "WebSockets open at once in all",
            [](Config & c) -> auto& { return c.server.limits.connections_total; },
            whole_number(1, 10000000)),
        flag(
            "--guests-per-hour", "CHESSENCE_GUESTS_PER_HOUR",
            "new guests one address may create per hour",
            [](Config & c) -> auto& { return c.server.limits.guests_per_ip_per_hour; },
            whole_number(1, 1000000)),
        flag(
            "--seeks-per-ip", "CHESSENCE_SEEKS_PER_IP", "open seeks from one address",
            [](Config & c) -> auto& { return c.server.limits.seeks_per_ip; },
            whole_number(1, 100000)),
        flag(
            "--games-per-player", "CHESSENCE_GAMES_PER_PLAYER",
            "unfinished games one player may sit in",
            [](Config & c) -> auto& { return c.server.limits.games_per_player; },
            whole_number(1, 100000)),
        flag(
            "--chat-per-ip", "CHESSENCE_CHAT_PER_IP",
            "chat lines from one address in any 10 seconds",
            [](Config & c) -> auto& { return c.server.limits.chat_per_ip; },
            whole_number(1, 100000)),
        flag(
            "--http-rate", "CHESSENCE_HTTP_RATE",
            "HTTP requests per second from one address (bursts of twice that)",
            [](Config & c) -> auto& { return c.server.limits.http_per_ip; },
            whole_number(1, 1000000)),
        flag(
            "--trusted-proxy", "CHESSENCE_TRUSTED_PROXY",
            "comma-separated proxy addresses whose X-Forwarded-For is believed",
            [](Config & c) -> auto& { return c.server.limits.trusted_proxies; }, address_list),
        flag(
            "--allowed-origin", "CHESSENCE_ALLOWED_ORIGIN",
            "comma-separated origins (https://host[:port]) whose pages may connect besides the "
            "server's own",
            [](Config & c) -> auto& { return c.server.limits.allowed_origins; }, origin_list),
        flag(
            "--metrics-token", "CHESSENCE_METRICS_TOKEN",
            "GET /metrics only with \"Authorization: Bearer <token>\" (default: open to all)",
            [](Config & c) -> auto& { return c.server.limits.metrics_token; }, bearer_token),
        flag(
            "--seek-grace", "CHESSENCE_SEEK_GRACE",
            "seconds a public seek waits for its player to reconnect",
            [](Config & c) -> auto& { return c.server.limits.seek_grace; }, whole_number(1, 3600)),
        flag(
            "--invite-ttl", "CHESSENCE_INVITE_TTL", "seconds a private invitation stays open",
            [](Config & c) -> auto& { return c.server.limits.invite_ttl; },
            whole_number(60, 7 * 86400)),
        flag(
            "--threads", "CHESSENCE_THREADS", "I/O threads",
            [](Config & c) -> auto& { return c.server.threads; }, whole_number(1, 64)),
        // Issue 16: Argon2id's cost (libsodium's interactive limits by default, docs/accounts.md).
        flag(
            "--password-ops", "CHESSENCE_PASSWORD_OPS", "Argon2id passes over memory per password",
            [](Config & c) -> auto& { return c.server.limits.password_ops; }, whole_number(1, 10)),
        flag(
            "--password-memory", "CHESSENCE_PASSWORD_MEMORY",
            "Argon2id memory per password hash, in bytes",
            [](Config & c) -> auto& { return c.server.limits.password_memory; },
            whole_number(8192, 1024LL * 1024 * 1024)),
        // Issue 25: the computer players' pool (server/bots/bot_pool.h).
        flag(
            "--bot-threads", "CHESSENCE_BOT_THREADS",
            "threads the computer players think on, at a lower priority (0: no games against the "
            "computer)",
            [](Config & c) -> auto& { return c.server.limits.bot_threads; }, whole_number(0, 64)),
        flag(
            "--bot-queue", "CHESSENCE_BOT_QUEUE",
            "computer moves that may wait for a bot thread (beyond: bots_busy)",
            [](Config & c) -> auto& { return c.server.limits.bot_queue; }, whole_number(1, 100000)),
        // Issue 27: cluster mode (docs/self-hosting.md, "More than one machine").
        flag(
            "--redis", "CHESSENCE_REDIS",
            "redis://host:port turns cluster mode on (rooms owned through leases in Redis); "
            "empty: this node runs alone",
            [](Config & c) -> auto& { return c.server.redis; }, redis_url),
        flag(
            "--node-id", "CHESSENCE_NODE_ID",
            "this node's id in the cluster (empty: the host name and a random suffix)",
            [](Config & c) -> auto& { return c.server.node_id; }, node_id_text),
        // Issue 43: the arenas the server creates itself (docs/tournaments.md "Scheduled arenas").
        flag(
            "--tournament-schedule", "CHESSENCE_TOURNAMENT_SCHEDULE",
            "a JSON file of the arenas the server creates itself, replacing the default (an "
            "hourly arena per game; docs/tournaments.md)",
            [](Config & c) -> auto& { return c.tournament_schedule_file; }, not_empty),
        Flag{"--scheduled-tournaments", "CHESSENCE_SCHEDULED_TOURNAMENTS",
             [](CLI::App& app, Config& config) {
                 auto& on = config.server.scheduled_tournaments;
                 app.add_option_function<std::string>(
                        "--scheduled-tournaments",
                        [&on](const std::string& text) { on = text == "1"; },
                        "1: the server creates the scheduled arenas; 0: none "
                        "[env CHESSENCE_SCHEDULED_TOURNAMENTS]")
                     ->check(whole_number(0, 1))
                     ->type_name("0|1")
                     ->default_str("1");
                 app.add_flag_function(
                     "--no-scheduled-tournaments", [&on](std::int64_t) { on = false; },
                     "the server creates no arena itself (--scheduled-tournaments 0)");
             }},
        flag(
            "--lease-ms", "CHESSENCE_LEASE_MS",
            "milliseconds a room's lease lives unless its node renews it (cluster mode; a dead "
            "node's games move after about this long)",
            [](Config & c) -> auto& { return c.server.lease_ms; }, whole_number(300, 120000)),
    };
    return table;
}

// A CLI11 app with every flag, writing into `config`. A flag given twice: the last one counts.
std::unique_ptr<CLI::App> make_app(Config& config) {
    auto app = std::make_unique<CLI::App>(
        "Chessence Server: plays Chessence, Chesica and "
        "Sniderman's Chessence in the browser.",
        "chessence-server");
    app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app->get_formatter()->column_width(30);
    for (const auto& f : flags()) {
        f.add(*app, config);
    }
    return app;
}

// Parses `args` (in order) into `config`; a parse error comes back as its message.
core::Status parse_into(Config& config, std::vector<std::string> args) {
    auto app = make_app(config);
    std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
    try {
        app->parse(args);
    } catch (const CLI::CallForHelp&) {
        config.help = true;
    } catch (const CLI::ParseError& e) {
        return core::make_error(e.what());
    }
    return core::ok_status();
}

// The schedule in the file at `path` (arena_schedule.h's form); an error says why not.
core::Expected<tournament::ArenaSchedule> read_schedule_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return core::make_error("cannot open it: " + std::string(std::strerror(errno)));
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) {
        return core::make_error("cannot read it");
    }
    return tournament::parse_schedule(text.str());
}

}  // namespace

std::string usage_text() {
    Config config;
    return make_app(config)->help();
}

core::Expected<Config> parse_config(const std::vector<std::string>& args,
                                    const char* (*getenv)(const char*)) {
    Config config;
    for (const auto& f : flags()) {
        if (const char* value = getenv(f.env.c_str())) {
            // "--db value" (an empty value stays a value); "--db=-x" for a value that looks
            // like a flag.
            auto args = value[0] == '-' ? std::vector<std::string>{f.name + "=" + value}
                                        : std::vector<std::string>{f.name, value};
            if (auto applied = parse_into(config, std::move(args)); !applied) {
                return core::make_error(f.env + "=" + value + ": " + applied.error());
            }
        }
    }
    if (auto applied = parse_into(config, args); !applied) {
        return core::make_error(applied.error() + " (see --help)");
    }
    if (!config.help && !config.tournament_schedule_file.empty()) {
        auto schedule = read_schedule_file(config.tournament_schedule_file);
        if (!schedule) {
            return core::make_error("--tournament-schedule " + config.tournament_schedule_file +
                                    ": " + schedule.error());
        }
        config.server.tournament_schedule = std::move(*schedule);
    }
    if (!config.help && !config.server.redis.empty() && !pg::is_postgres_url(config.db)) {
        // Issue 42: each node would play on a store of its own, so a game taken over would start
        // from nothing there (and its moves on the first node be lost to the others).
        return core::make_error(
            "--redis (cluster mode) needs --db to name a PostgreSQL database "
            "(postgresql://…) that every node shares; \"" +
            config.db + "\" is this node's own");
    }
    return config;
}

}  // namespace server
