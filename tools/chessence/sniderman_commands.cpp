// chessence solve / puzzle (Sniderman only).
//   solve sniderman [--fen "<position>"] [--moves "<m1> ..."]: one JSON line
//     {"fen": <position solved>, "to_move": "odd"|"even",
//      "objects": {"1": {"winner": "odd"|"even", "winning_moves": [sorted]}, ..., "10": {...}}}
//     for the side to move; the captures of --moves (from --fen, default the reference position)
//     count for the objects.
//   puzzle sniderman --seed <N>: one JSON line
//     {"fen": <puzzle position>, "start": <the deal>, "moves": [captures since the deal],
//      "object": 1..10, "object_text": "...", "to_move": "odd"|"even", "answer": "a1xb2"}
#include <charconv>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "commands.h"
#include "core/sniderman/puzzle.h"
#include "core/sniderman/solver.h"
#include "options.h"

namespace cli {

namespace {

using nlohmann::json;
namespace sn = core::sniderman;

bool sniderman_only(const Args& args, const std::vector<std::string>& options, std::ostream& err,
                    const char* usage) {
    const auto pos = positionals(args, options);
    if (pos.size() != 1 || pos[0] != "sniderman") {
        err << "usage: " << usage << "\n";
        return false;
    }
    return true;
}

const char* side_name(const sn::Position& p) {
    return p.odd_to_move() ? "odd" : "even";
}

json move_names(const std::vector<sn::Move>& moves) {
    json names = json::array();
    for (const auto m : moves) {
        names.push_back(sn::move_name(m));
    }
    return names;
}

}  // namespace

int run_solve(const Args& args, std::ostream& out, std::ostream& err) {
    if (!sniderman_only(args, {"--fen", "--moves"}, err,
                        "chessence solve sniderman --fen \"<position>\" [--moves \"...\"]")) {
        return 2;
    }
    const auto fen = option_value(args, "--fen").value_or(std::string(sn::reference_fen));
    const auto start = sn::parse_position(fen);
    if (!start) {
        err << "bad position: " << start.error() << "\n";
        return 1;
    }
    sn::Position position = *start;
    sn::CaptureHistory history;
    for (const auto& text : split_moves(option_value(args, "--moves").value_or(""))) {
        const auto move = sn::parse_legal_move(position, text);
        if (!move) {
            err << "move '" << text << "': " << move.error() << "\n";
            return 1;
        }
        history.record(*move, position.at(move->to), position.ply);
        position = sn::make_move(position, *move);
    }
    sn::Solver solver;
    json objects = json::object();
    for (int n = 1; n <= sn::object_count; ++n) {
        const auto solution = solver.solve(position, history, *sn::to_object(n));
        objects[std::to_string(n)] = {{"winner", solution.odd_wins ? "odd" : "even"},
                                      {"winning_moves", move_names(solution.winning_moves)}};
    }
    out << json{{"fen", sn::format_position(position)},
                {"to_move", side_name(position)},
                {"objects", objects}}
               .dump()
        << "\n";
    return 0;
}

int run_puzzle(const Args& args, std::ostream& out, std::ostream& err) {
    if (!sniderman_only(args, {"--seed"}, err, "chessence puzzle sniderman --seed <N>")) {
        return 2;
    }
    const auto text = option_value(args, "--seed");
    std::uint64_t seed = 0;
    const auto [ptr, ec] = text ? std::from_chars(text->data(), text->data() + text->size(), seed)
                                : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (!text || text->empty() || ec != std::errc() || ptr != text->data() + text->size()) {
        err << "--seed needs a whole number from 0 to 2^64-1\n";
        return 2;
    }
    const sn::Puzzle puzzle = sn::make_puzzle(seed);
    const int object = sn::object_number(puzzle.object);
    out << json{{"fen", sn::format_position(puzzle.position)},
                {"start", sn::format_position(puzzle.start)},
                {"moves", move_names(puzzle.moves)},
                {"object", object},
                {"object_text", std::string(sn::object_text(object))},
                {"to_move", side_name(puzzle.position)},
                {"answer", sn::move_name(puzzle.answer)}}
               .dump()
        << "\n";
    return 0;
}

}  // namespace cli
