#pragma once
// `chessence uci`: the UCI protocol for the three games, one command line at a time. The search
// runs on its own thread so that `stop`, `isready` and `quit` are answered while it thinks; every
// line out is written whole under a lock. docs/engine.md lists the commands and options.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "core/engine/engine.h"
#include "core/game.h"

namespace cli {

class UciSession {
public:
    explicit UciSession(std::ostream& out);
    ~UciSession();  // stops and joins a search under way
    UciSession(const UciSession&) = delete;
    UciSession& operator=(const UciSession&) = delete;

    // Handles one command line; false after `quit`.
    bool handle(const std::string& line);

private:
    using Words = std::vector<std::string>;

    void identify();
    void set_option(const Words& words);
    void set_position(const Words& words);
    void go(const Words& words);
    // Stops the search under way (if any) and waits for its `bestmove`.
    void stop_search();
    void send(const std::string& line);
    void error(const std::string& message) { send("info string error " + message); }

    std::ostream& out_;
    std::mutex out_mutex_;

    core::VariantId variant_ = core::VariantId::chessence;
    core::RuleSet rules_ = core::RuleSet::house;
    int level_ = core::engine::max_level;
    int object_ = 1;
    std::uint64_t seed_ = 0;
    std::uint64_t searches_ = 0;
    std::unique_ptr<core::Game> game_;  // null: the last `position` was refused
    Words last_position_;               // replayed when Object or Rules change
    std::unique_ptr<core::engine::Engine> engine_;

    std::thread search_;
    std::atomic<bool> stop_{false};
    std::mutex stop_mutex_;
    std::condition_variable stop_signal_;  // wakes an `infinite` search that waits for stop
};

}  // namespace cli
