#pragma once
// What a room hands the bot pool (issue 25): a copy of the game as it stands, what the computer
// must do in it, at which level and within what time, and where the answer goes. The job owns its
// copy, so the thinking thread shares nothing with the room.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"

namespace server {

enum class BotTask : std::uint8_t {
    move,         // a move (Sniderman: a capture of the round)
    name_object,  // Sniderman: name this round's object among `objects`
    choose_side,  // Sniderman: choose ODD or EVEN for the round (its object is named)
};

struct BotAnswer {
    std::string move;  // move
    int object = 0;    // name_object
    bool odd = false;  // choose_side
    std::optional<std::string> error;
    std::chrono::steady_clock::duration thought{};
};

struct BotJob {
    BotTask task = BotTask::move;
    std::unique_ptr<core::Game> game;  // the game, or the Sniderman round, to act in
    std::vector<int> objects;          // name_object: the objects not used yet
    int level = 1;
    std::chrono::milliseconds move_time{100};
    std::uint64_t seed = 0;
    // Called once on the bot thread with the answer (never when the pool stops first). It must be
    // short: it posts to the room's strand.
    std::function<void(BotAnswer)> done;
};

}  // namespace server
