// chessence perft <variant> <depth> [--fen "<position>"] [--moves "<m1> ..."] [--divide]
#include <charconv>
#include <ostream>

#include "commands.h"
#include "core/game.h"
#include "options.h"

namespace cli {

int run_perft(const Args& args, std::ostream& out, std::ostream& err) {
    const auto pos = positionals(args, {"--fen", "--moves"});
    if (pos.size() != 2) {
        err << "usage: chessence perft <variant> <depth> [--fen \"<position>\"] [--moves \"...\"] "
               "[--divide]\n";
        return 2;
    }
    const auto variant = core::parse_variant(pos[0]);
    if (!variant) {
        err << "unknown variant '" << pos[0] << "' (chessence, chesica, sniderman)\n";
        return 2;
    }
    int depth = -1;
    const auto [ptr, ec] = std::from_chars(pos[1].data(), pos[1].data() + pos[1].size(), depth);
    if (ec != std::errc() || ptr != pos[1].data() + pos[1].size() || depth < 0 || depth > 20) {
        err << "depth must be a whole number from 0 to 20, not '" << pos[1] << "'\n";
        return 2;
    }
    core::GameOptions options;
    options.fen = option_value(args, "--fen");
    auto game = core::make_game(*variant, options);
    if (!game) {
        err << "bad position: " << game.error() << "\n";
        return 1;
    }
    if (const auto moves = option_value(args, "--moves")) {
        for (const auto& move : split_moves(*moves)) {
            const auto played = (*game)->play(move);
            if (!played) {
                err << "move '" << move << "': " << played.error() << "\n";
                return 1;
            }
        }
    }
    std::uint64_t nodes = 0;
    if (has_flag(args, "--divide") && depth > 0) {
        for (const auto& [move, count] : (*game)->divide(depth)) {
            out << move << ": " << count << "\n";
            nodes += count;
        }
    } else {
        nodes = (*game)->perft(depth);
    }
    out << "nodes " << nodes << "\n";
    return 0;
}

}  // namespace cli
