#include <ostream>

#include "commands.h"

namespace cli {

// Placeholder until the sniderman rules land.
int bench_sniderman(std::ostream& out) {
    out << "bench for sniderman is not implemented yet\n";
    return 1;
}

}  // namespace cli
