#include "server/config.h"

#include <charconv>
#include <functional>

#include "server/log.h"

namespace server {

namespace {

struct Setting {
    const char* flag;
    const char* env;
    const char* help;
    std::function<core::Status(Config&, const std::string&)> apply;
};

core::Expected<long long> parse_number(const std::string& text, long long min, long long max) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
        return core::make_error("must be a whole number from " + std::to_string(min) + " to " +
                                std::to_string(max));
    }
    return value;
}

// A setting that takes a number within [min, max].
template <class Store>
Setting number_setting(const char* flag, const char* env, const char* help, long long min,
                       long long max, Store store) {
    return {flag, env, help, [=](Config& config, const std::string& text) -> core::Status {
                auto value = parse_number(text, min, max);
                if (!value) {
                    return core::make_error(value.error());
                }
                store(config, *value);
                return core::ok_status();
            }};
}

std::vector<Setting> settings() {
    return {
        {"--bind", "CHESSENCE_BIND", "address to listen on (default 0.0.0.0)",
         [](Config& c, const std::string& v) -> core::Status {
             if (v.empty()) {
                 return core::make_error("must not be empty");
             }
             c.server.bind = v;
             return core::ok_status();
         }},
        number_setting(
            "--port", "CHESSENCE_PORT", "TCP port, 0 = any free port (default 8080)", 0, 65535,
            [](Config& c, long long v) { c.server.port = static_cast<std::uint16_t>(v); }),
        {"--db", "CHESSENCE_DB", "SQLite file, or :memory: (default data/chessence.db)",
         [](Config& c, const std::string& v) -> core::Status {
             if (v.empty()) {
                 return core::make_error("must not be empty");
             }
             c.db = v;
             return core::ok_status();
         }},
        {"--web-root", "CHESSENCE_WEB_ROOT", "folder of the web client (default web-client)",
         [](Config& c, const std::string& v) -> core::Status {
             if (v.empty()) {
                 return core::make_error("must not be empty");
             }
             c.server.web_root = v;
             return core::ok_status();
         }},
        {"--log-level", "CHESSENCE_LOG_LEVEL",
         "trace, debug, info, warn, error, critical or off (default info)",
         [](Config& c, const std::string& v) -> core::Status {
             if (!set_log_level(v)) {
                 return core::make_error(
                     "must be trace, debug, info, warn, error, critical or off");
             }
             c.log_level = v;
             return core::ok_status();
         }},
        number_setting("--max-frame", "CHESSENCE_MAX_FRAME", "largest WebSocket frame in bytes",
                       256, 16 * 1024 * 1024,
                       [](Config& c, long long v) {
                           c.server.limits.max_frame_bytes = static_cast<std::size_t>(v);
                       }),
        number_setting("--max-queue", "CHESSENCE_MAX_QUEUE",
                       "outgoing frames queued per client before it is dropped", 8, 100000,
                       [](Config& c, long long v) {
                           c.server.limits.max_queue = static_cast<std::size_t>(v);
                       }),
        number_setting(
            "--rate", "CHESSENCE_RATE", "messages per second per client", 1, 10000,
            [](Config& c, long long v) { c.server.limits.rate_per_second = static_cast<int>(v); }),
        number_setting(
            "--idle-timeout", "CHESSENCE_IDLE_TIMEOUT",
            "seconds of silence before a WebSocket is closed", 2, 86400,
            [](Config& c, long long v) { c.server.limits.idle_timeout = std::chrono::seconds(v); }),
        number_setting("--threads", "CHESSENCE_THREADS", "I/O threads (default 2)", 1, 64,
                       [](Config& c, long long v) { c.server.threads = static_cast<int>(v); }),
    };
}

}  // namespace

std::string usage_text() {
    std::string text = "usage: chessence-server [options]\n";
    for (const auto& s : settings()) {
        text += "  " + std::string(s.flag) + " <value>  (" + s.env + ")  " + s.help + "\n";
    }
    text += "  --help  this text\n";
    return text;
}

core::Expected<Config> parse_config(const std::vector<std::string>& args,
                                    const char* (*getenv)(const char*)) {
    Config config;
    const auto all = settings();
    for (const auto& s : all) {
        if (const char* value = getenv(s.env)) {
            if (auto applied = s.apply(config, value); !applied) {
                return core::make_error(std::string(s.env) + "=" + value + ": " + applied.error());
            }
        }
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "--help" || arg == "-h") {
            config.help = true;
            continue;
        }
        std::string value;
        bool has_value = false;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            has_value = true;
        }
        const Setting* setting = nullptr;
        for (const auto& s : all) {
            if (arg == s.flag) {
                setting = &s;
            }
        }
        if (!setting) {
            return core::make_error("unknown option `" + arg + "` (see --help)");
        }
        if (!has_value) {
            if (i + 1 >= args.size()) {
                return core::make_error(arg + " needs a value");
            }
            value = args[++i];
        }
        if (auto applied = setting->apply(config, value); !applied) {
            return core::make_error(arg + " " + value + ": " + applied.error());
        }
    }
    return config;
}

}  // namespace server
