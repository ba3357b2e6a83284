#pragma once
// Reading `--name value` and `--flag` options of a subcommand.
#include <optional>
#include <string>

#include "commands.h"

namespace cli {

// The value after `--name`, if present.
std::optional<std::string> option_value(const Args& args, const std::string& name);
bool has_flag(const Args& args, const std::string& name);
// The positional arguments (neither an option nor an option's value), in order.
Args positionals(const Args& args, const std::vector<std::string>& options_with_values);
// Splits a space-separated move list.
std::vector<std::string> split_moves(const std::string& text);

}  // namespace cli
