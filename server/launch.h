#pragma once
// The server program's life, from its arguments to its exit code (server/main.cpp): configuration,
// the open-file limit, the store, the server, the drain on a signal. A test build's program
// (tests/faults/fault_server.cpp) runs the same life with a store of its own around the real one.
#include <chrono>
#include <functional>
#include <memory>

#include "server/store/store.h"

namespace server {

// Given the store the configuration opened, the store the server uses (the same by default).
using StoreWrapper = std::function<std::unique_ptr<Store>(std::unique_ptr<Store>)>;

// Runs chessence-server with `argc`/`argv`; returns its exit code: 0 after a clean shutdown, 1
// when the database or the listening socket cannot be opened (or start-up fails otherwise), 2 for
// a bad configuration value. `chessence-server admin …` changes an account and returns.
// `clock_skew` sets the node's own clock off (ServerOptions::clock_skew; the fault suite's).
int run_server_program(int argc, char** argv, const StoreWrapper& wrap = {},
                       std::chrono::milliseconds clock_skew = {});

}  // namespace server
