// chessence bench <variant>: single-thread measurements; see each bench_<variant>.cpp.
#include <ostream>

#include "commands.h"
#include "core/variant.h"
#include "options.h"

namespace cli {

int run_bench(const Args& args, std::ostream& out, std::ostream& err) {
    const auto pos = positionals(args, {});
    const auto variant = pos.size() == 1 ? core::parse_variant(pos[0]) : std::nullopt;
    if (!variant) {
        err << "usage: chessence bench <chessence|chesica|sniderman>\n";
        return 2;
    }
    switch (*variant) {
        case core::VariantId::chessence:
            return bench_chessence(out) != 0 ? 1 : bench_search(*variant, out);
        case core::VariantId::chesica:
            return bench_chesica(out) != 0 ? 1 : bench_search(*variant, out);
        case core::VariantId::sniderman:
            return bench_sniderman(out);
    }
    return 2;
}

}  // namespace cli
