#pragma once
// Who plays a self-play game: this build's engine at a level, or another program (an older build,
// another engine) spoken to over UCI as a child process.
#include <memory>
#include <string>

#include "core/engine/engine.h"
#include "core/game.h"

namespace cli {

class Player {
public:
    virtual ~Player() = default;
    // A new game starts (forget what the last one taught).
    virtual void new_game() = 0;
    // A move for the side to move of `game` within `limits` (move time or nodes).
    virtual core::Expected<std::string> choose(const core::Game& game,
                                               const core::engine::SearchLimits& limits,
                                               std::uint64_t seed) = 0;
};

// This build's engine at `level`, with other evaluation weights if set.
class EnginePlayer final : public Player {
public:
    explicit EnginePlayer(int level) : level_(level) {}
    core::engine::Engine& engine() { return engine_; }
    void new_game() override { engine_.new_game(); }
    core::Expected<std::string> choose(const core::Game& game,
                                       const core::engine::SearchLimits& limits,
                                       std::uint64_t seed) override;

private:
    core::engine::Engine engine_;
    int level_;
};

// `<program> uci` as a child process, set to `level` (and the game's variant and rules).
class UciPlayer final : public Player {
public:
    UciPlayer(const std::string& program, int level);
    ~UciPlayer() override;
    UciPlayer(const UciPlayer&) = delete;
    UciPlayer& operator=(const UciPlayer&) = delete;

    void new_game() override;
    core::Expected<std::string> choose(const core::Game& game,
                                       const core::engine::SearchLimits& limits,
                                       std::uint64_t seed) override;

private:
    void send(const std::string& line);
    // The next line that starts with `prefix`; empty when the program stopped talking.
    std::optional<std::string> read_until(const std::string& prefix);

    std::string program_;
    int level_;
    int pid_ = -1;
    int in_ = -1;   // the program's standard input
    int out_ = -1;  // its standard output
    std::string buffer_;
    std::string configured_;  // the variant/rules/object last set
};

}  // namespace cli
