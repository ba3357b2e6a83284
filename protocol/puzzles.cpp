#include "protocol/puzzles.h"

#include <set>

#include "core/engine/score.h"
#include "core/game.h"
#include "core/sniderman/objects.h"
#include "protocol/messages.h"

namespace protocol {

using core::puzzles::Puzzle;
using nlohmann::json;

namespace {

// The engine's score of a win in `moves` moves (a mate at the mover's own ply 2n-1).
int mate_score_of(int moves) {
    return core::engine::mate_score - (2 * moves - 1);
}

// The text field `name` of `value`, or an error naming it.
core::Expected<std::string> text_field(const json& value, const char* name) {
    const auto it = value.find(name);
    if (it == value.end() || !it->is_string()) {
        return core::make_error(std::string("`") + name + "` must be a string");
    }
    return it->get<std::string>();
}

// An integer field: absent gives `fallback`; anything but an integer is an error.
core::Expected<long long> number_field(const json& value, const char* name, long long fallback) {
    const auto it = value.find(name);
    if (it == value.end()) {
        return fallback;
    }
    if (!it->is_number_integer()) {
        return core::make_error(std::string("`") + name + "` must be a whole number");
    }
    return it->get<long long>();
}

// The proof fields: eval ({cp}, {mate} or {result: "win"}), second {cp} and nodes.
core::Expected<core::puzzles::Proof> parse_proof(const json& value, core::VariantId game) {
    core::puzzles::Proof proof;
    const auto eval = value.find("eval");
    if (eval == value.end() || !eval->is_object()) {
        return core::make_error("`eval` must be an object");
    }
    if (game == core::VariantId::sniderman) {
        if (eval->value("result", json()) != "win") {
            return core::make_error("a Sniderman puzzle's `eval` must be {\"result\": \"win\"}");
        }
        proof.exact = true;
        return proof;
    }
    const auto mate = eval->find("mate");
    const auto cp = eval->find("cp");
    if (mate != eval->end() && cp == eval->end() && mate->is_number_integer() &&
        mate->get<long long>() >= 1 && mate->get<long long>() <= 500) {
        proof.mate_in = mate->get<int>();
        proof.best_cp = mate_score_of(*proof.mate_in);
    } else if (cp != eval->end() && mate == eval->end() && cp->is_number_integer()) {
        proof.best_cp = cp->get<int>();
    } else {
        return core::make_error("`eval` must be {\"cp\": n} or {\"mate\": n} (n from 1 to 500)");
    }
    const auto second = value.find("second");
    if (second != value.end()) {
        const auto second_cp = second->is_object() ? second->find("cp") : second->end();
        if (second_cp == second->end() || !second_cp->is_number_integer()) {
            return core::make_error("`second` must be {\"cp\": n}");
        }
        proof.second_cp = second_cp->get<int>();
    }
    const auto nodes = number_field(value, "nodes", 0);
    if (!nodes || *nodes < 0) {
        return core::make_error("`nodes` must be a whole number");
    }
    proof.nodes = static_cast<std::uint64_t>(*nodes);
    return proof;
}

// Loads the position and plays the solution; an error says what does not fit.
core::Status check_position(const Puzzle& puzzle) {
    core::GameOptions options;
    options.rules = puzzle.rules;
    options.fen = puzzle.fen;
    options.object = puzzle.object;
    auto game = core::make_game(puzzle.game, options);
    if (!game) {
        return core::make_error("`fen`: " + game.error());
    }
    if ((*game)->fen() != puzzle.fen) {
        return core::make_error("`fen` is not written as the game writes it: " + (*game)->fen());
    }
    if ((*game)->outcome()) {
        return core::make_error("the game is over in this position");
    }
    if ((*game)->to_move() != puzzle.to_move) {
        return core::make_error("`to_move` is not the side to move of the position");
    }
    if (puzzle.solution.empty()) {
        return core::make_error("`solution` is empty");
    }
    for (std::size_t i = 0; i < puzzle.solution.size(); ++i) {
        const auto& move = puzzle.solution[i];
        auto played = (*game)->play(move);
        if (!played) {
            return core::make_error("solution move " + std::to_string(i + 1) + " (" + move +
                                    "): " + played.error());
        }
        if (*played != move) {
            return core::make_error("solution move " + std::to_string(i + 1) + " (" + move +
                                    ") is not written as the game writes it: " + *played);
        }
    }
    return core::ok_status();
}

}  // namespace

json puzzle_json(const Puzzle& puzzle) {
    json value = {{"id", puzzle.id},
                  {"game", core::variant_name(puzzle.game)},
                  {"rules", core::rule_set_name(puzzle.rules)},
                  {"fen", puzzle.fen},
                  {"to_move", core::side_name(puzzle.game, puzzle.to_move)}};
    if (puzzle.game == core::VariantId::sniderman) {
        value["object"] = puzzle.object;
        value["object_text"] = core::sniderman::object_text(puzzle.object);
    }
    value["solution"] = puzzle.solution;
    if (puzzle.game == core::VariantId::sniderman) {
        value["eval"] = {{"result", "win"}};
    } else {
        value["eval"] = puzzle.proof.mate_in ? json{{"mate", *puzzle.proof.mate_in}}
                                             : json{{"cp", puzzle.proof.best_cp}};
        value["second"] = {{"cp", puzzle.proof.second_cp}};
        value["nodes"] = puzzle.proof.nodes;
    }
    return value;
}

core::Expected<Puzzle> parse_puzzle(const json& value) {
    if (!value.is_object()) {
        return core::make_error("a puzzle must be an object");
    }
    Puzzle puzzle;
    const auto id = text_field(value, "id");
    const auto game = text_field(value, "game");
    const auto rules = text_field(value, "rules");
    const auto fen = text_field(value, "fen");
    const auto to_move = text_field(value, "to_move");
    for (const auto* field : {&id, &game, &rules, &fen, &to_move}) {
        if (!*field) {
            return core::make_error(field->error());
        }
    }
    const auto variant = core::parse_variant(*game);
    if (!variant) {
        return core::make_error("`game` must be chessence, chesica or sniderman");
    }
    puzzle.game = *variant;
    const auto rule_set = core::parse_rule_set(*rules);
    if (!rule_set) {
        return core::make_error("`rules` must be house or strict");
    }
    puzzle.rules = *rule_set;
    puzzle.fen = *fen;
    const auto side = core::parse_side(puzzle.game, *to_move);
    if (!side) {
        return core::make_error("`to_move` is not a side of " + *game);
    }
    puzzle.to_move = *side;
    const auto object = number_field(value, "object", 0);
    if (!object) {
        return core::make_error(object.error());
    }
    const bool sniderman = puzzle.game == core::VariantId::sniderman;
    if (sniderman ? (*object < 1 || *object > 10) : *object != 0) {
        return core::make_error(sniderman ? "`object` must be 1 to 10"
                                          : "only a Sniderman puzzle has an `object`");
    }
    puzzle.object = static_cast<int>(*object);
    const auto solution = value.find("solution");
    if (solution == value.end() || !solution->is_array()) {
        return core::make_error("`solution` must be an array of moves");
    }
    for (const auto& move : *solution) {
        if (!move.is_string()) {
            return core::make_error("`solution` must be an array of moves");
        }
        puzzle.solution.push_back(move.get<std::string>());
    }
    auto proof = parse_proof(value, puzzle.game);
    if (!proof) {
        return core::make_error(proof.error());
    }
    puzzle.proof = *proof;
    if (auto checked = check_position(puzzle); !checked) {
        return core::make_error(checked.error());
    }
    puzzle.id = *id;
    const auto expected_id =
        core::puzzles::puzzle_id(puzzle.game, puzzle.rules, puzzle.fen, puzzle.object);
    if (puzzle.id != expected_id) {
        return core::make_error("`id` must be " + expected_id +
                                " (from the game, rules, position "
                                "and object)");
    }
    return puzzle;
}

std::string puzzle_bank_text(const PuzzleBank& bank) {
    std::string text = "{\"version\":" + std::to_string(puzzle_bank_version) +
                       ",\n\"settings\":" + to_text(bank.settings) + ",\n\"puzzles\":[";
    for (std::size_t i = 0; i < bank.puzzles.size(); ++i) {
        text += i == 0 ? "\n" : ",\n";
        text += to_text(puzzle_json(bank.puzzles[i]));
    }
    text += "\n]}\n";
    return text;
}

core::Expected<PuzzleBank> parse_puzzle_bank(std::string_view text) {
    const json value = json::parse(text, nullptr, false);
    if (value.is_discarded() || !value.is_object()) {
        return core::make_error("the puzzle bank is not a JSON object");
    }
    if (value.value("version", json()) != puzzle_bank_version) {
        return core::make_error("the puzzle bank's version must be " +
                                std::to_string(puzzle_bank_version));
    }
    const auto puzzles = value.find("puzzles");
    if (puzzles == value.end() || !puzzles->is_array()) {
        return core::make_error("the puzzle bank has no `puzzles` array");
    }
    PuzzleBank bank;
    bank.settings = value.value("settings", json::object());
    std::set<std::string> ids;
    for (std::size_t i = 0; i < puzzles->size(); ++i) {
        auto puzzle = parse_puzzle((*puzzles)[i]);
        const auto id =
            (*puzzles)[i].is_object() ? (*puzzles)[i].value("id", json("?")) : json("?");
        const std::string where = "puzzle " + std::to_string(i + 1) + " (" +
                                  (id.is_string() ? id.get<std::string>() : "?") + ")";
        if (!puzzle) {
            return core::make_error(where + ": " + puzzle.error());
        }
        if (!ids.insert(puzzle->id).second) {
            return core::make_error(where + ": the id is used twice");
        }
        bank.puzzles.push_back(std::move(*puzzle));
    }
    return bank;
}

}  // namespace protocol
