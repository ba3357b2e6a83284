#include <ostream>

#include "commands.h"

namespace cli {

// Placeholder until the chessence rules land.
int bench_chessence(std::ostream& out) {
    out << "bench for chessence is not implemented yet\n";
    return 1;
}

}  // namespace cli
