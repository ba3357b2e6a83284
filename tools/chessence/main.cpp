// chessence — check the rules from the command line: perft, replay, bench, solve, puzzle; and the
// engine's tools: match, uci, tune, analyse, puzzles (the puzzle bank).
#include <iostream>
#include <string>
#include <string_view>

#include "commands.h"

namespace {

void usage(std::ostream& err) {
    err << "usage:\n"
           "  chessence perft <variant> <depth> [--fen \"<position>\"] [--moves \"<m1> <m2> ...\"] "
           "[--divide]\n"
           "  chessence replay <variant> [--strict] [--record <file>]   (JSON lines on standard "
           "input)\n"
           "  chessence bench <variant>\n"
           "  chessence solve sniderman --fen \"<position>\" [--moves \"...\"]\n"
           "  chessence puzzle sniderman --seed <N>\n"
           "  chessence puzzles [--games <g1,g2>] [--count <N>] [--records <file>] [--out <file>] "
           "[...]\n"
           "  chessence match --variant <variant> --levels <A> <B> --games <N> (--movetime <ms> | "
           "--nodes <N>) [...]\n"
           "  chessence uci   (the UCI protocol on standard input and output)\n"
           "  chessence tune <chessence|chesica> [--games <N>] [--nodes <N>] [--seed <S>]\n"
           "  chessence analyse <variant> [--nodes <N>] (--record <file> | --moves \"...\" | "
           "--selfplay <plies>)\n"
           "variants: chessence, chesica, sniderman\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(std::cerr);
        return 2;
    }
    const std::string_view command = argv[1];
    const cli::Args args(argv + 2, argv + argc);
    std::ios::sync_with_stdio(false);
    if (command == "perft") {
        return cli::run_perft(args, std::cout, std::cerr);
    }
    if (command == "replay") {
        return cli::run_replay(args, std::cin, std::cout, std::cerr);
    }
    if (command == "bench") {
        return cli::run_bench(args, std::cout, std::cerr);
    }
    if (command == "solve") {
        return cli::run_solve(args, std::cout, std::cerr);
    }
    if (command == "puzzle") {
        return cli::run_puzzle(args, std::cout, std::cerr);
    }
    if (command == "puzzles") {
        return cli::run_puzzles(args, std::cout, std::cerr);
    }
    if (command == "match") {
        return cli::run_match(args, std::cout, std::cerr);
    }
    if (command == "uci") {
        return cli::run_uci(std::cin, std::cout);
    }
    if (command == "tune") {
        return cli::run_tune(args, std::cout, std::cerr);
    }
    if (command == "analyse") {
        return cli::run_analyse(args, std::cout, std::cerr);
    }
    usage(std::cerr);
    return 2;
}
