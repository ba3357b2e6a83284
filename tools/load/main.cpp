// chessence-load: drives a running Chessence server (or the bare relay of tools/relay/) with rooms
// of players, spectators, idle connections, lobby subscribers and games against the computer, and
// prints what it measured (docs/performance.md has the commands and the numbers). Exit code 0 when
// the run completed, 1 when its setup failed, 2 for a bad option.
#include <cstdio>
#include <iostream>
#include <regex>

#include <CLI/CLI.hpp>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/load/scenario.h"

namespace {

// "ws://host:port/path" -> Target; false when it is not such a URL.
bool parse_url(const std::string& url, load::Target& target) {
    static const std::regex form(R"(ws://([^/:]+|\[[^\]]+\]):(\d+)(/.*)?)");
    std::smatch m;
    if (!std::regex_match(url, m, form)) {
        return false;
    }
    target.host = m[1];
    target.port = m[2];
    target.path = m[3].matched ? std::string(m[3]) : "/ws";
    return true;
}

nlohmann::json latency_json(load::Latencies& latencies) {
    return {{"samples", latencies.count()},
            {"p50_ms", latencies.percentile(50)},
            {"p99_ms", latencies.percentile(99)},
            {"max_ms", latencies.percentile(100)}};
}

void print_latency(const char* what, load::Latencies& latencies) {
    if (latencies.count() == 0) {
        std::printf("%-24s no samples\n", what);
        return;
    }
    std::printf("%-24s p50 %7.3f ms   p99 %7.3f ms   max %7.3f ms   (%zu)\n", what,
                latencies.percentile(50), latencies.percentile(99), latencies.percentile(100),
                latencies.count());
}

}  // namespace

int main(int argc, char** argv) {
    load::Options options;
    std::vector<std::string> urls{"ws://127.0.0.1:8080/ws"};
    std::string metrics_path = "/metrics";
    int pid = 0;
    bool quick = false;
    bool as_json = false;
    CLI::App app(
        "chessence-load: rooms of players, spectators, idle connections and lobby "
        "subscribers against a running server",
        "chessence-load");
    app.add_option("--url", urls,
                   "the server's WebSocket endpoint; given again for each node of a cluster, "
                   "the connections take them in turn (a room's two players on two nodes); the "
                   "metrics are the first's")
        ->capture_default_str();
    app.add_option("--rooms", options.rooms, "rooms of two players")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    app.add_option("--spectators", options.spectators, "spectators per room")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    app.add_option("--join-batch", options.join_batch, "spectators joining at once")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--idle", options.idle, "idle connections (upgrade only)")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    app.add_option("--lobby", options.lobby, "lobby subscribers")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    app.add_option("--seconds", options.seconds, "the measured window")
        ->check(CLI::Range(0.1, 3600.0))
        ->capture_default_str();
    app.add_option("--think-ms", options.think_ms, "a player's delay before each move (0: none)")
        ->check(CLI::Range(0, 600000))
        ->capture_default_str();
    app.add_option("--max-plies", options.max_plies, "plies before the side to move resigns")
        ->check(CLI::Range(2, 100000))
        ->capture_default_str();
    app.add_option("--variant", options.variant, "chessence or chesica")
        ->check(CLI::IsMember({"chessence", "chesica"}))
        ->capture_default_str();
    app.add_option("--computer", options.computer,
                   "games against the computer, each with one person who moves at once")
        ->check(CLI::Range(0, 10000))
        ->capture_default_str();
    app.add_option("--level", options.computer_level, "the computer's level in those games")
        ->check(CLI::Range(1, 8))
        ->capture_default_str();
    app.add_option("--seed", options.seed, "the move choices' seed")->capture_default_str();
    app.add_option("--metrics-path", metrics_path, "GET path of the server's metrics")
        ->capture_default_str();
    app.add_option("--pid", pid, "read the server's CPU and memory from /proc/<pid> instead");
    bool same_address = false;
    app.add_flag("--same-address", same_address,
                 "every connection from 127.0.0.1 (no X-Forwarded-For)");
    app.add_flag("--quick", quick,
                 "a short smoke run: 3 rooms, 2 spectators each, 20 idle, 2 "
                 "lobby subscribers, 1 game against the computer at level 1, 1 s");
    app.add_flag("--json", as_json, "print the report as JSON");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    for (const auto& url : urls) {
        load::Target target;
        if (!parse_url(url, target)) {
            std::cerr << "chessence-load: --url must look like ws://host:port/ws\n";
            return 2;
        }
        options.targets.push_back(std::move(target));
    }
    options.metrics = options.targets.front();
    options.metrics.path = metrics_path;
    options.spread_addresses = !same_address;
    if (pid > 0) {
        options.pid = pid;
    }
    if (quick) {
        options.rooms = 3;
        options.spectators = 2;
        options.idle = 20;
        options.lobby = 2;
        options.computer = 1;
        options.computer_level = 1;
        options.seconds = 1;
        options.setup_timeout = std::chrono::seconds(30);
    }

    auto report = load::run(options);
    if (as_json) {
        nlohmann::json out = {
            {"setup_complete", report.setup_complete},
            {"failure", report.failure},
            {"rooms", options.rooms},
            {"spectators_per_room", options.spectators},
            {"idle", options.idle},
            {"lobby", options.lobby},
            {"seconds", report.seconds},
            {"moves", report.moves},
            {"moves_per_second", report.seconds > 0 ? report.moves / report.seconds : 0},
            {"move_to_ack", latency_json(report.ack)},
            {"move_to_opponent", latency_json(report.opponent)},
            {"move_to_last_spectator", latency_json(report.last_spectator)},
            {"server_cpu_us_per_move",
             report.cpu_us_per_move ? nlohmann::json(*report.cpu_us_per_move) : nlohmann::json()},
            {"server_bytes_per_idle_connection",
             report.idle_bytes_each ? nlohmann::json(*report.idle_bytes_each) : nlohmann::json()},
            {"connections", report.connections},
            {"connections_open", report.connections_open},
            {"players", report.players},
            {"players_open", report.players_open},
            {"lobby_frames_each", report.lobby_frames_each},
            {"spectator_frames_joining", report.spectator_frames_joining},
            {"games_finished", report.games_finished},
            {"computer_games", options.computer},
            {"computer_level", options.computer_level},
            {"move_to_computer_reply", latency_json(report.computer_reply)},
            {"computer_games_finished", report.computer_games_finished},
            {"errors", report.errors},
        };
        std::cout << out.dump(2) << std::endl;
    } else {
        std::printf(
            "chessence-load: %d room(s) x (2 players + %d spectators), %d idle, %d lobby "
            "subscriber(s), %s\n",
            options.rooms, options.spectators, options.idle, options.lobby,
            urls.size() == 1 ? urls.front().c_str()
                             : (std::to_string(urls.size()) + " nodes").c_str());
        if (!report.setup_complete) {
            std::printf("setup failed: %s\n", report.failure.c_str());
        } else {
            std::printf("%-24s %llu in %.2f s: %.1f moves/s\n", "moves",
                        static_cast<unsigned long long>(report.moves), report.seconds,
                        report.moves / report.seconds);
            print_latency("move -> ack", report.ack);
            print_latency("move -> opponent", report.opponent);
            print_latency("move -> last spectator", report.last_spectator);
            if (report.cpu_us_per_move) {
                std::printf("%-24s %.1f us\n", "server CPU per move", *report.cpu_us_per_move);
            }
            if (report.idle_bytes_each) {
                std::printf("%-24s %.0f bytes\n", "server RSS per idle conn",
                            *report.idle_bytes_each);
            }
            std::printf("%-24s %zu of %zu (players %zu of %zu)\n", "still connected",
                        report.connections_open, report.connections, report.players_open,
                        report.players);
            std::printf("%-24s %.1f\n", "lobby frames each", report.lobby_frames_each);
            if (options.spectators > 0) {
                std::printf("%-24s %llu\n", "spectator frames joining",
                            static_cast<unsigned long long>(report.spectator_frames_joining));
            }
            std::printf("%-24s %llu\n", "games finished",
                        static_cast<unsigned long long>(report.games_finished));
            if (options.computer > 0) {
                std::printf("games against the computer: %d at level %d\n", options.computer,
                            options.computer_level);
                print_latency("move -> computer reply", report.computer_reply);
                std::printf("%-24s %llu\n", "computer games finished",
                            static_cast<unsigned long long>(report.computer_games_finished));
            }
            for (const auto& [code, count] : report.errors) {
                std::printf("%-24s %s x %llu\n", "error", code.c_str(),
                            static_cast<unsigned long long>(count));
            }
        }
    }
    return report.setup_complete ? 0 : 1;
}
