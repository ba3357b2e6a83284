// chessence-fault-server: chessence-server with fault points, for the fault suite (tests/faults/);
// built with the tests, never installed or shipped. The store is the configured one wrapped in
// test::ReadFailingStore (tests/server/test_stores.h); a signal arms a fault:
//   SIGUSR1  the next batch that appends events is stored, then reported failed (a COMMIT that
//            landed though its answer was lost, issue 42 finding 3); "fault: …" on stderr says
//            it is armed.
//   SIGUSR2  toggles a writer that hangs: from the first signal every batch is held back before
//            the real store (as by a disk or a database connection that does not answer), and at
//            the second they are handed over in order; "fault: …" on stderr says which.
// CHESSENCE_FAULT_CLOCK_SKEW_MS=N (an integer, may be negative) sets the node's own clock N ms off
// (ServerOptions::clock_skew): the skew between nodes that cluster mode's clock corrects
// (server/cluster/cluster_clock.h), real to the node as a wrong system clock would be.
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include <unistd.h>

#include "server/launch.h"
#include "server/test_stores.h"

namespace {

std::atomic<test::ReadFailingStore*> faulty_store{nullptr};

// Arms the fault and says so on stderr (write(2) is safe in a signal handler), so a test waits
// for the line before it acts.
extern "C" void arm_landed_commit(int) {
    if (auto* store = faulty_store.load()) {
        store->land_then_fail.fetch_add(1);
        constexpr char said[] = "fault: the next batch lands, then fails\n";
        [[maybe_unused]] const auto written = ::write(STDERR_FILENO, said, sizeof said - 1);
    }
}

// Toggles the hold; the held batches are handed over by the releaser thread (no lock may be
// taken in a signal handler).
extern "C" void toggle_hung_writer(int) {
    if (auto* store = faulty_store.load()) {
        const bool hold = !store->hold_commits.load();
        store->hold_commits.store(hold);
        constexpr char held[] = "fault: the writer hangs: batches are held\n";
        constexpr char released[] = "fault: the writer answers again: held batches go on\n";
        [[maybe_unused]] const auto written =
            hold ? ::write(STDERR_FILENO, held, sizeof held - 1)
                 : ::write(STDERR_FILENO, released, sizeof released - 1);
    }
}

// Hands held batches over once the hold is lifted (every 20 ms; a detached thread that lives as
// long as the process).
void start_releaser() {
    std::thread([] {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (auto* store = faulty_store.load(); store && !store->hold_commits.load()) {
                store->release_held();
            }
        }
    }).detach();
}

// CHESSENCE_FAULT_CLOCK_SKEW_MS, or zero when unset; an unreadable value stops the program.
std::chrono::milliseconds clock_skew() {
    const char* text = std::getenv("CHESSENCE_FAULT_CLOCK_SKEW_MS");
    if (text == nullptr || *text == '\0') {
        return {};
    }
    long long skew = 0;
    const char* end = text + std::strlen(text);
    const auto parsed = std::from_chars(*text == '+' ? text + 1 : text, end, skew);
    if (parsed.ec != std::errc() || parsed.ptr != end) {
        std::fprintf(stderr,
                     "chessence-fault-server: CHESSENCE_FAULT_CLOCK_SKEW_MS=%s is not a "
                     "number of milliseconds\n",
                     text);
        std::exit(2);
    }
    return std::chrono::milliseconds(skew);
}

}  // namespace

int main(int argc, char** argv) {
    static_assert(std::atomic<int>::is_always_lock_free, "a signal handler counts with it");
    static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler sets it");
    return server::run_server_program(
        argc, argv,
        [](std::unique_ptr<server::Store> real) {
            auto wrapped = std::make_unique<test::ReadFailingStore>(std::move(real));
            faulty_store = wrapped.get();
            std::signal(SIGUSR1, arm_landed_commit);
            std::signal(SIGUSR2, toggle_hung_writer);
            start_releaser();
            return std::unique_ptr<server::Store>(std::move(wrapped));
        },
        clock_skew());
}
