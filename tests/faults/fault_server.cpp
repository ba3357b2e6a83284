// chessence-fault-server: chessence-server with fault points, for the fault suite (tests/faults/);
// built with the tests, never installed or shipped. The store is the configured one wrapped in
// test::ReadFailingStore (tests/server/test_stores.h); a signal arms a fault:
//   SIGUSR1  the next batch that appends events is stored, then reported failed (a COMMIT that
//            landed though its answer was lost, issue 42 finding 3); "fault: …" on stderr says
//            it is armed.
#include <atomic>
#include <csignal>
#include <memory>

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

}  // namespace

int main(int argc, char** argv) {
    static_assert(std::atomic<int>::is_always_lock_free, "a signal handler counts with it");
    return server::run_server_program(argc, argv, [](std::unique_ptr<server::Store> real) {
        auto wrapped = std::make_unique<test::ReadFailingStore>(std::move(real));
        faulty_store = wrapped.get();
        std::signal(SIGUSR1, arm_landed_commit);
        return std::unique_ptr<server::Store>(std::move(wrapped));
    });
}
