#pragma once
// The subcommands of the `chessence` tool. Each returns the process exit code.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/variant.h"

namespace cli {

using Args = std::vector<std::string>;  // the arguments after the subcommand

int run_perft(const Args& args, std::ostream& out, std::ostream& err);
int run_replay(const Args& args, std::istream& in, std::ostream& out, std::ostream& err);
int run_bench(const Args& args, std::ostream& out, std::ostream& err);
int run_solve(const Args& args, std::ostream& out, std::ostream& err);
int run_puzzle(const Args& args, std::ostream& out, std::ostream& err);
// The puzzle bank of all three games (issue 25, puzzles.cpp).
int run_puzzles(const Args& args, std::ostream& out, std::ostream& err);
// The engine (issue 14): self-play matches, the UCI mode and fitting the evaluation weights.
int run_match(const Args& args, std::ostream& out, std::ostream& err);
int run_uci(std::istream& in, std::ostream& out);
int run_tune(const Args& args, std::ostream& out, std::ostream& err);
// Issue 25: the server's game analysis of one game, timed (analyse.cpp).
int run_analyse(const Args& args, std::ostream& out, std::ostream& err);

// Per-variant benchmarks: each prints its measurements and ends with the lines the issue names.
int bench_chessence(std::ostream& out);
int bench_chesica(std::ostream& out);
int bench_sniderman(std::ostream& out);
// The engine's search speed on Chessence or Chesica (bench_search.cpp).
int bench_search(core::VariantId variant, std::ostream& out);

}  // namespace cli
