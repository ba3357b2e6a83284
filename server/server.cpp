#include "server/server.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/cluster/cluster_clock.h"
#include "server/game/game_factory.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/game/tournaments.h"
#include "server/guard.h"
#include "server/limits.h"
#include "server/log.h"
#include "server/memory_return.h"
#include "server/metrics/metrics.h"
#include "server/net/client_address.h"
#include "server/net/http_session.h"
#include "server/net/origin.h"
#include "server/puzzles/puzzle_collection.h"

namespace server {

namespace asio = boost::asio;
using asio::ip::tcp;

struct Server::Impl {
    Impl(Store& store, const ServerOptions& options, std::shared_ptr<TimeSource> time)
        : io(options.threads),
          state(io, store, options.limits, options.web_root, std::move(time)),
          control(io.get_executor()),
          acceptor(control),
          signals(control),
          poll(control),
          memory_timer(control) {}

    // Whether a failed accept means the process ran out of descriptors or memory.
    static bool out_of_resources(const boost::system::error_code& ec) {
        return ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
               ec == asio::error::no_memory ||
               ec == boost::system::errc::too_many_files_open_in_system;
    }

    // Counts a failed accept and logs at most one line per accept_log_interval, with how many
    // failed since the last line.
    void accept_failed(const boost::system::error_code& ec) {
        metrics().accept_failures.add();
        ++accept_failures_unlogged;
        const auto now = std::chrono::steady_clock::now();
        if (now - accept_logged_at < accept_log_interval) {
            return;
        }
        component_logger("server")->warn("accept: {} ({} failed accept(s) since the last line)",
                                         ec.message(), accept_failures_unlogged);
        accept_logged_at = now;
        accept_failures_unlogged = 0;
    }

    asio::awaitable<void> accept_loop() {
        asio::steady_timer backoff(control);
        for (;;) {
            auto [ec, socket] = co_await acceptor.async_accept(asio::make_strand(io),
                                                               asio::as_tuple(asio::use_awaitable));
            if (ec) {
                if (!acceptor.is_open()) {
                    break;
                }
                accept_failed(ec);
                if (out_of_resources(ec)) {
                    // Nothing to accept with until a descriptor is given back: wait instead of
                    // spinning (the connections already open keep being served).
                    backoff.expires_after(accept_backoff);
                    co_await backoff.async_wait(asio::as_tuple(asio::use_awaitable));
                }
                continue;
            }
            // Frames are small and latency matters: no Nagle (a move's event would otherwise wait
            // for the peer's delayed ACK, ~40 ms).
            boost::system::error_code option_error;
            socket.set_option(asio::ip::tcp::no_delay(true), option_error);
            start_http_session(state, std::move(socket));
        }
    }

    // Runs the accept loop; should it ever end by an exception, the exception is logged and the
    // loop starts again (unless the server is shutting down).
    void spawn_accept_loop() {
        asio::co_spawn(control, accept_loop(), [this](std::exception_ptr error) {
            if (error) {
                log_exception("server", "accept loop", error);
                if (!shutting.load() && acceptor.is_open()) {
                    spawn_accept_loop();
                }
            }
        });
    }

    // Every memory_return_interval until the drain: the heap looked at on the blocking pool, and
    // its free pages returned to the system when worth it (memory_return.h). Control strand.
    void look_at_memory() {
        memory_timer.expires_after(memory_return_interval);
        memory_timer.async_wait([this](const boost::system::error_code& ec) {
            if (ec || shutting.load()) {
                return;
            }
            // A full pool skips a look: the next one comes soon enough.
            (void)state.blocking().run([memory = memory] {
                const auto returned = memory->look();
                if (!returned) {
                    return;
                }
                const auto given = returned->resident_before > returned->resident_after
                                       ? returned->resident_before - returned->resident_after
                                       : 0;
                metrics().memory_returns.add();
                metrics().memory_returned_bytes.add(given);
                constexpr double mib = 1024.0 * 1024.0;
                component_logger("server")->info(
                    "memory: {:.1f} MiB of the heap free beside {:.1f} MiB in use; resident "
                    "{:.1f} -> {:.1f} MiB after giving it back",
                    returned->heap.free / mib, returned->heap.in_use / mib,
                    returned->resident_before / mib, returned->resident_after / mib);
            });
            look_at_memory();
        });
    }

    // The drain's middle: waits until every batch already handed to the store is stored and what
    // it set off has run — no commit in flight, then two rounds over the lobby's and the rooms'
    // strands in which no commit started (a stored move posts to its room, which may post on to
    // the lobby) — or until `deadline`; then closes every session with 1012 after its queued
    // frames. Runs on the control strand.
    void settle(std::chrono::steady_clock::time_point deadline, int quiet_rounds) {
        auto& store = state.store();
        if (std::chrono::steady_clock::now() >= deadline) {
            component_logger("server")->warn("drain: {} write(s) still in flight after {} ms",
                                             store.commits_in_flight(), drain_grace.count());
            close_sessions();
            return;
        }
        if (store.commits_in_flight() > 0) {
            poll.expires_after(std::chrono::milliseconds(5));
            poll.async_wait(
                [this, deadline](const boost::system::error_code&) { settle(deadline, 0); });
            return;
        }
        const auto started = store.commits_started();
        state.after_posted_work([this, deadline, quiet_rounds, started] {
            asio::post(control, [this, deadline, quiet_rounds, started] {
                auto& store = state.store();
                const bool quiet =
                    store.commits_in_flight() == 0 && store.commits_started() == started;
                if (quiet && quiet_rounds >= 1) {
                    close_sessions();
                } else {
                    settle(deadline, quiet ? quiet_rounds + 1 : 0);
                }
            });
        });
    }

    void close_sessions() {
        boost::system::error_code ignored;
        acceptor.close(ignored);
        state.close_all(static_cast<std::uint16_t>(1012));  // service restart
        wait_for_sessions(std::chrono::steady_clock::now() + shutdown_grace);
    }

    // Stops the io_context once every session has gone, or when the grace period is over.
    void wait_for_sessions(std::chrono::steady_clock::time_point deadline) {
        if (state.sessions().count() == 0 || std::chrono::steady_clock::now() >= deadline) {
            io.stop();
            return;
        }
        poll.expires_after(std::chrono::milliseconds(20));
        poll.async_wait(
            [this, deadline](const boost::system::error_code&) { wait_for_sessions(deadline); });
    }

    asio::io_context io;
    ServerState state;
    // The acceptor, the signals and the shutdown run on this strand: an acceptor closed on one
    // thread while the accept loop re-arms it on another is a data race (ThreadSanitizer).
    asio::strand<asio::io_context::executor_type> control;
    tcp::acceptor acceptor;
    asio::signal_set signals;
    asio::steady_timer poll;
    asio::steady_timer memory_timer;  // look_at_memory's
    std::shared_ptr<MemoryReturn> memory = std::make_shared<MemoryReturn>();
    std::vector<std::thread> threads;
    std::atomic<bool> shutting{false};
    // The accept loop's failures not logged yet, and when the last line went out (control strand).
    std::uint64_t accept_failures_unlogged = 0;
    std::chrono::steady_clock::time_point accept_logged_at{};
    std::string address;
    std::uint16_t port = 0;
};

namespace {

// The puzzle bank at `path`, logged: its size, or why the server has no puzzles.
std::shared_ptr<const PuzzleCollection> load_puzzles(const std::string& path) {
    auto puzzles = std::make_shared<const PuzzleCollection>(load_puzzle_collection(path));
    const auto& log = component_logger("puzzles");
    if (!puzzles->available()) {
        log->warn("no puzzles: {} (GET /api/puzzles/... answers 503)", puzzles->problem());
    } else {
        log->info("{} puzzles from {} ({} chessence, {} chesica, {} sniderman)", puzzles->size(),
                  path, puzzles->of(core::VariantId::chessence).size(),
                  puzzles->of(core::VariantId::chesica).size(),
                  puzzles->of(core::VariantId::sniderman).size());
    }
    return puzzles;
}

// The game clocks' time: the one the options give, else this node's clock or, in cluster mode,
// the cluster's (Redis's: the readings of every node agree, issue 42; it waits for its first
// sample of Redis's clock, or says why it cannot).
core::Expected<std::shared_ptr<TimeSource>> server_game_time(const ServerOptions& options) {
    if (options.time) {
        return options.time;
    }
    if (options.redis.empty()) {
        return std::make_shared<ServerClock>(options.clock_skew);
    }
    cluster::ClusterClock::Options clock;
    clock.url = options.redis;
    clock.local_skew = options.clock_skew;
    auto opened = cluster::ClusterClock::open(std::move(clock));
    if (!opened) {
        return core::make_error(opened.error());
    }
    return std::shared_ptr<TimeSource>(std::move(*opened));
}

}  // namespace

void run_io_thread(asio::io_context& io) {
    for (;;) {
        bool finished = false;
        guarded("server", "I/O thread", [&] {
            io.run();
            finished = true;
        });
        if (finished) {
            return;
        }
    }
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() {
    shutdown();
    wait();
}

core::Expected<std::unique_ptr<Server>> Server::start(const ServerOptions& options, Store& store) {
    if (auto ready = init_secrets(); !ready) {
        return core::make_error(ready.error());
    }
    auto proxies = parse_address_list(options.limits.trusted_proxies);
    if (!proxies) {
        return core::make_error("bad trusted proxy: " + proxies.error());
    }
    if (auto origins = parse_origin_list(options.limits.allowed_origins); !origins) {
        return core::make_error("bad allowed origin: " + origins.error());
    }
    auto time = server_game_time(options);
    if (!time) {
        return core::make_error("cannot join the cluster: " + time.error());
    }
    auto impl = std::make_unique<Impl>(store, options, std::move(*time));
    impl->state.set_trusted_proxies(std::move(*proxies));
    impl->state.set_puzzles(load_puzzles(options.puzzles));
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(options.bind, ec);
    if (ec) {
        return core::make_error("bad bind address `" + options.bind + "`");
    }
    const tcp::endpoint endpoint(address, options.port);
    auto& acceptor = impl->acceptor;
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) {
        acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    }
    if (!ec) {
        acceptor.bind(endpoint, ec);
    }
    if (!ec) {
        acceptor.listen(asio::socket_base::max_listen_connections, ec);
    }
    if (ec) {
        return core::make_error("cannot listen on " + options.bind + ":" +
                                std::to_string(options.port) + ": " + ec.message());
    }
    impl->address = options.bind;
    impl->port = acceptor.local_endpoint(ec).port();
    if (!options.redis.empty()) {
        if (auto joined = impl->state.join_cluster(options.redis, options.node_id,
                                                   std::chrono::milliseconds(options.lease_ms));
            !joined) {
            return core::make_error("cannot join the cluster: " + joined.error());
        }
    }
    if (auto restored = impl->state.games().restore(); !restored) {
        return core::make_error("cannot restore the games: " + restored.error());
    }
    if (auto resumed = impl->state.tournaments().restore(); !resumed) {
        return core::make_error("cannot resume the tournaments: " + resumed.error());
    }
    if (options.scheduled_tournaments) {
        impl->state.start_scheduling(options.tournament_schedule);
    } else {
        component_logger("schedule")->info("scheduled tournaments are off");
    }
    impl->state.readiness().start();
    impl->spawn_accept_loop();
    asio::post(impl->control, [impl = impl.get()] { impl->look_at_memory(); });
    for (int i = 0; i < std::max(1, options.threads); ++i) {
        impl->threads.emplace_back([io = &impl->io] { run_io_thread(*io); });
    }
    return std::unique_ptr<Server>(new Server(std::move(impl)));
}

std::uint16_t Server::port() const {
    return impl_->port;
}

std::string Server::address() const {
    return impl_->address;
}

void Server::shutdown() {
    asio::post(impl_->control, [impl = impl_.get()] {
        if (impl->shutting.exchange(true)) {
            return;
        }
        component_logger("server")->info("draining: telling {} client(s) to reconnect",
                                         impl->state.sessions().count());
        // The listener stays open while draining: /readyz says 503 to load balancers and a new
        // WebSocket gets 503 with Retry-After; it closes with the sessions.
        boost::system::error_code ignored;
        impl->signals.cancel(ignored);
        impl->memory_timer.cancel();
        impl->state.begin_drain();
        impl->settle(std::chrono::steady_clock::now() + drain_grace, 0);
    });
}

void Server::wait() {
    for (auto& thread : impl_->threads) {
        if (thread.joinable()) {
            thread.join();
        }
    }
}

BotPool& Server::bots() {
    return impl_->state.bots();
}

void Server::stop_on_signals() {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.async_wait([this](const boost::system::error_code& ec, int signal) {
        if (!ec) {
            component_logger("server")->info("signal {} received", signal);
            shutdown();
        }
    });
}

}  // namespace server
