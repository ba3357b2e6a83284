#pragma once
// Why a finished Sniderman round went the way it did: the facts its object looks at and the
// verdict, in plain words for the people who played it ("The last piece captured was a Black
// knight on c2: not White, so EVEN wins.").
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/sniderman/objects.h"
#include "core/sniderman/position.h"

namespace core::sniderman {

// The explanation for a round that ended in `end` after the captures summed up in `history`.
std::string explain_round(Object object, const Position& end, const CaptureHistory& history);

// The same for a recorded round: its deal `start`, its object (1..10) and its moves, replayed.
// An error when the object is not 1..10 or the moves do not replay to the end of the round.
Expected<std::string> explain_round(std::string_view start, int object,
                                    const std::vector<std::string>& moves);

}  // namespace core::sniderman
