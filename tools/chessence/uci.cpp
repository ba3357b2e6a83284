// chessence uci: reads UCI commands from `in` until `quit` or the end of input (uci_session.h).
#include <istream>
#include <string>

#include "commands.h"
#include "uci_session.h"

namespace cli {

int run_uci(std::istream& in, std::ostream& out) {
    UciSession session(out);
    std::string line;
    while (std::getline(in, line)) {
        if (!session.handle(line)) {
            break;
        }
    }
    return 0;
}

}  // namespace cli
