// chessence solve / puzzle (Sniderman only).
#include <ostream>

#include "commands.h"

namespace cli {

// Placeholders until the Sniderman solver lands.
int run_solve(const Args&, std::ostream&, std::ostream& err) {
    err << "solve is not implemented yet\n";
    return 1;
}

int run_puzzle(const Args&, std::ostream&, std::ostream& err) {
    err << "puzzle is not implemented yet\n";
    return 1;
}

}  // namespace cli
