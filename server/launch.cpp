#include "server/launch.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "server/admin_command.h"
#include "server/config.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/open_files.h"
#include "server/server.h"
#include "server/store/open_store.h"
#include "server/store/postgres_db.h"

namespace {

const char* launch_env(const char* name) {
    return std::getenv(name);
}

int launch(int argc, char** argv, const server::StoreWrapper& wrap,
           std::chrono::milliseconds clock_skew) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (server::is_admin_command(args)) {
        const char* db = launch_env("CHESSENCE_DB");
        return server::run_admin_command(args, db ? db : server::Config{}.db, std::cout, std::cerr);
    }
    auto config = server::parse_config(args, launch_env);
    if (!config) {
        std::cerr << "chessence-server: " << config.error() << "\n";
        return 2;
    }
    if (config->help) {
        std::cout << server::usage_text();
        return 0;
    }
    server::set_log_level(config->log_level);
    const auto& log = server::component_logger("server");
    // Before anything opens a descriptor: the connections the server may hold must fit.
    if (const auto files = server::fit_open_file_limit(config->server.limits.connections_total);
        !files.enough()) {
        log->warn(
            "the open-file limit is {} (hard limit {}), but --connections-total {} needs {}: "
            "raise the hard limit (ulimit -Hn, systemd LimitNOFILE=, docker --ulimit "
            "nofile=) or lower --connections-total",
            files.soft, files.hard, config->server.limits.connections_total, files.needed);
    } else if (files.raised) {
        log->info("open-file limit raised to {} for --connections-total {}", files.soft,
                  config->server.limits.connections_total);
    }
    auto store =
        server::open_store(config->db, std::chrono::milliseconds(config->store_timeout_ms));
    if (!store) {
        std::cerr << "chessence-server: cannot open the database "
                  << server::pg::redacted(config->db) << ": " << store.error() << "\n";
        return 1;
    }
    std::unique_ptr<server::Store> used = std::move(*store);
    if (wrap) {
        used = wrap(std::move(used));
    }
    config->server.clock_skew = clock_skew;
    if (clock_skew.count() != 0) {
        log->warn("this node's clock is set off by {} ms (a fault test's skew)",
                  clock_skew.count());
    }
    auto running = server::Server::start(config->server, *used);
    if (!running) {
        std::cerr << "chessence-server: " << running.error() << "\n";
        return 1;
    }
    auto& srv = **running;
    srv.stop_on_signals();
    log->info("listening on {}:{} (web root {}, db {})", srv.address(), srv.port(),
              config->server.web_root, config->db);
    std::cout << "listening on " << srv.address() << ":" << srv.port() << std::endl;
    srv.wait();
    log->info("stopped");
    return 0;
}

}  // namespace

namespace server {

int run_server_program(int argc, char** argv, const StoreWrapper& wrap,
                       std::chrono::milliseconds clock_skew) {
    // Handlers contain their own exceptions; this catches what start-up or shutdown may throw.
    try {
        return launch(argc, argv, wrap, clock_skew);
    } catch (...) {
        std::cerr << "chessence-server: " << describe_exception(std::current_exception()) << "\n";
        return 1;
    }
}

}  // namespace server
