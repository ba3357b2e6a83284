#pragma once
// The computer's thinking (issue 25), pure and on the caller's thread (a bot thread): a move from
// the engine (core/engine/engine.h), and in Sniderman the object to name and the side to choose
// from the exact solver (core/sniderman/solver.h). `stop` ends a search at once with the best
// move found so far; the Sniderman solver cannot be interrupted inside one object's solve (at most
// about 2 s on a full deal, docs/sniderman-solver.md), so it is only looked at between solves.
#include <atomic>

#include "server/bots/bot_job.h"

namespace server {

BotAnswer think(const BotJob& job, const std::atomic<bool>& stop);

// bot_sniderman.cpp
// The object a Sniderman bot names for the round `round` (a deal, no object yet) among `objects`.
BotAnswer name_sniderman_object(const BotJob& job, const std::atomic<bool>& stop);
// ODD or EVEN for the round `round`, whose object is named.
BotAnswer choose_sniderman_side(const BotJob& job);

}  // namespace server
