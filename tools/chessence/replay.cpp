// chessence replay <variant> [--strict]: one JSON line in, one JSON line out (see README).
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "commands.h"
#include "core/game.h"
#include "options.h"
#include "replay_record.h"

namespace cli {

namespace {

using nlohmann::json;

json error_json(int ply, const json& move, const std::string& message) {
    return json{{"error", {{"ply", ply}, {"move", move}, {"message", message}}}};
}

json ply_json(const core::Game& game) {
    return json{{"fen", game.fen()}, {"legal", game.legal_moves()}, {"in_check", game.in_check()}};
}

json result_json(const core::Game& game) {
    const auto outcome = game.outcome();
    if (!outcome) {
        return nullptr;
    }
    json winner = nullptr;
    if (outcome->winner) {
        winner = std::string(core::side_name(game.variant(), *outcome->winner));
    }
    return json{{"winner", winner}, {"reason", outcome->reason}};
}

}  // namespace

// Replays one input object {"moves": [...], "fen"?: "...", "object"?: 1..10}; ply numbers in
// errors count from 1 (the first move of the list); 0 means the line itself is wrong.
json replay_line(core::VariantId variant, core::RuleSet rules, const json& input) {
    if (!input.is_object() || !input.contains("moves") || !input["moves"].is_array()) {
        return error_json(0, nullptr, "each line must be an object with a \"moves\" array");
    }
    core::GameOptions options;
    options.rules = rules;
    if (input.contains("fen")) {
        if (!input["fen"].is_string()) {
            return error_json(0, nullptr, "\"fen\" must be a string");
        }
        options.fen = input["fen"].get<std::string>();
    }
    if (input.contains("object")) {
        if (!input["object"].is_number_integer() || input["object"].get<int>() < 1 ||
            input["object"].get<int>() > 10) {
            return error_json(0, nullptr, "\"object\" must be a whole number from 1 to 10");
        }
        options.object = input["object"].get<int>();
    }
    auto game = core::make_game(variant, options);
    if (!game) {
        return error_json(0, nullptr, "bad position: " + game.error());
    }
    json plies = json::array({ply_json(**game)});
    int ply = 0;
    for (const auto& move : input["moves"]) {
        ++ply;
        if (!move.is_string()) {
            return error_json(ply, move, "a move must be a string");
        }
        const auto played = (*game)->play(move.get<std::string>());
        if (!played) {
            return error_json(ply, move, played.error());
        }
        plies.push_back(ply_json(**game));
    }
    return json{{"plies", plies}, {"result", result_json(**game)}};
}

int run_replay(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
    const auto pos = positionals(args, {"--record"});
    if (pos.size() != 1) {
        err << "usage: chessence replay <variant> [--strict]\n";
        return 2;
    }
    const auto variant = core::parse_variant(pos[0]);
    if (!variant) {
        err << "unknown variant '" << pos[0] << "'\n";
        return 2;
    }
    const auto rules = has_flag(args, "--strict") ? core::RuleSet::strict : core::RuleSet::house;
    if (const auto record = option_value(args, "--record")) {
        return run_replay_record(*variant, rules, *record, out, err);
    }
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const json input = json::parse(line, nullptr, false);
        if (input.is_discarded()) {
            out << error_json(0, nullptr, "the line is not valid JSON").dump() << "\n";
            continue;
        }
        out << replay_line(*variant, rules, input).dump() << "\n";
    }
    return 0;
}

}  // namespace cli
