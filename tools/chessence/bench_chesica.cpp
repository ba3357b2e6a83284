#include <ostream>

#include "commands.h"

namespace cli {

// Placeholder until the chesica rules land.
int bench_chesica(std::ostream& out) {
    out << "bench for chesica is not implemented yet\n";
    return 1;
}

}  // namespace cli
