#include "options.h"

#include <algorithm>
#include <sstream>

namespace cli {

std::optional<std::string> option_value(const Args& args, const std::string& name) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == name) {
            return args[i + 1];
        }
    }
    return std::nullopt;
}

bool has_flag(const Args& args, const std::string& name) {
    return std::find(args.begin(), args.end(), name) != args.end();
}

Args positionals(const Args& args, const std::vector<std::string>& options_with_values) {
    Args out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (std::find(options_with_values.begin(), options_with_values.end(), args[i]) !=
            options_with_values.end()) {
            ++i;
        } else if (args[i].rfind("--", 0) != 0) {
            out.push_back(args[i]);
        }
    }
    return out;
}

std::vector<std::string> split_moves(const std::string& text) {
    std::vector<std::string> moves;
    std::istringstream in(text);
    std::string move;
    while (in >> move) {
        moves.push_back(move);
    }
    return moves;
}

}  // namespace cli
