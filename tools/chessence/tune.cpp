#include "commands.h"
namespace cli {
int run_tune(const Args&, std::ostream&, std::ostream&) {
    return 0;
}
}  // namespace cli
