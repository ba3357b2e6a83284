#include "protocol/messages.h"

#include <algorithm>

#include "protocol/json_text.h"
#include "protocol/version.h"

namespace protocol {

using nlohmann::json;

std::string to_text(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// Adds the echoed id when the request carried one.
std::string finish(json message, const json& id) {
    if (!id.is_null()) {
        message["id"] = id;
    }
    return to_text(message);
}

}  // namespace

json player_json(const PlayerInfo& player) {
    return {{"id", player.id}, {"name", player.name}};
}

std::string welcome_message(const PlayerInfo& player, std::string_view token,
                            const std::vector<std::string>& games, const json& id,
                            const json& account) {
    json message = {{"type", "welcome"},
                    {"protocol", protocol_version},
                    {"server", server_software()},
                    {"player", player_json(player)},
                    {"token", token},
                    {"games", games}};
    if (!account.is_null()) {
        message["account"] = account;
    }
    return finish(std::move(message), id);
}

std::string player_message(const PlayerInfo& player, const json& id) {
    return finish({{"type", "player"}, {"player", player_json(player)}}, id);
}

std::string error_message(ErrorCode code, std::string_view message, const json& id,
                          std::string_view game_id) {
    json m = {{"type", "error"}, {"code", error_code_name(code)}, {"message", message}};
    if (!game_id.empty()) {
        m["game_id"] = game_id;
    }
    return finish(std::move(m), id);
}

std::string error_message(const ProtocolError& error, const json& id, std::string_view game_id) {
    return error_message(error.code, error.message, id, game_id);
}

std::string lobby_message(const json& seeks, const json& games, std::size_t games_total,
                          const json& id) {
    return finish(
        {{"type", "lobby"}, {"seeks", seeks}, {"games", games}, {"games_total", games_total}}, id);
}

std::string lobby_games_message(std::size_t offset, std::size_t total, const json& games,
                                const json& id) {
    return finish({{"type", "lobby_games"}, {"offset", offset}, {"total", total}, {"games", games}},
                  id);
}

std::string seek_added_message(const json& seek) {
    return to_text(json{{"type", "seek_added"}, {"seek", seek}});
}

std::string seek_removed_message(std::string_view seek_id) {
    return to_text(json{{"type", "seek_removed"}, {"seek_id", seek_id}});
}

std::string game_added_message(const json& game) {
    return to_text(json{{"type", "game_added"}, {"game", game}});
}

std::string game_removed_message(std::string_view game_id) {
    return to_text(json{{"type", "game_removed"}, {"game_id", game_id}});
}

std::string game_changed_message(const json& games) {
    return to_text(json{{"type", "game_changed"}, {"games", games}});
}

std::string seek_created_message(const json& seek, const json& id) {
    return finish({{"type", "seek_created"}, {"seek", seek}}, id);
}

std::string seek_cancelled_message(std::string_view seek_id, const json& id) {
    return finish({{"type", "seek_cancelled"}, {"seek_id", seek_id}}, id);
}

std::string game_started_message(std::string_view game_id, core::VariantId variant,
                                 std::string_view you, const json& id) {
    return finish({{"type", "game_started"},
                   {"game_id", game_id},
                   {"variant", core::variant_name(variant)},
                   {"you", you}},
                  id);
}

std::string snapshot_message(json room, const json& id) {
    room["type"] = "snapshot";
    return finish(std::move(room), id);
}

std::string event_message(std::string_view game_id, std::int64_t version,
                          std::string_view event_json, const json& derived,
                          std::string_view fields_text) {
    // The head as to_text would write {type, game_id, version} (keys sorted), without its closing
    // brace; the event object goes in verbatim.
    std::string out = "{\"game_id\":";
    out.reserve(64 + event_json.size() + fields_text.size());
    append_json_string(out, game_id);
    out += ",\"type\":\"event\",\"version\":";
    out += std::to_string(version);
    out += ",\"event\":";
    const bool adds_json = derived.is_object() && !derived.empty();
    if ((adds_json || !fields_text.empty()) && event_json.size() > 2) {
        out += event_json.substr(0, event_json.size() - 1);  // without its closing brace
        if (adds_json) {
            out += ',';
            const std::string extra = to_text(derived);
            out.append(extra, 1, extra.size() - 2);  // without its braces
        }
        if (!fields_text.empty()) {
            out += ',';
            out += fields_text;
        }
        out += '}';
    } else {
        out += event_json;
    }
    out += '}';
    return out;
}

std::string events_message(std::string_view game_id, std::int64_t version,
                           const std::vector<VersionedEvent>& events, const json& position,
                           const json& id, const json& chat) {
    json head = {
        {"type", "events"}, {"game_id", game_id}, {"version", version}, {"position", position}};
    if (!id.is_null()) {
        head["id"] = id;
    }
    if (!chat.is_null()) {
        head["chat"] = chat;
    }
    std::string out = to_text(head);
    out.pop_back();
    out += ",\"events\":[";
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (i > 0) {
            out += ',';
        }
        out += "{\"version\":" + std::to_string(events[i].version) + ",\"event\":";
        out += events[i].json;
        out += '}';
    }
    out += "]}";
    return out;
}

std::string chat_message(std::string_view game_id, const json& line) {
    return to_text(json{{"type", "chat"}, {"game_id", game_id}, {"line", line}});
}

std::string spectators_message(std::string_view game_id, int count) {
    return to_text(json{{"type", "spectators"}, {"game_id", game_id}, {"count", count}});
}

std::string presence_message(std::string_view game_id, const nlohmann::json& online,
                             const nlohmann::json& lag, const nlohmann::json& claim_in) {
    return to_text(json{{"type", "presence"},
                        {"game_id", game_id},
                        {"online", online},
                        {"lag", lag},
                        {"claim_in", claim_in}});
}

std::string pong_message(const json& id) {
    return finish({{"type", "pong"}}, id);
}

std::string server_restart_message(int reconnect_ms) {
    return to_text(json{{"type", "server_restart"}, {"reconnect_ms", reconnect_ms}});
}

std::string ack_message(const json& id, std::string_view game_id, std::int64_t version) {
    // Written directly, keys in to_text's order (game_id, id, type, version): every move has one.
    std::string out = "{";
    if (!game_id.empty()) {
        out += "\"game_id\":";
        append_json_string(out, game_id);
        out += ',';
    }
    if (!id.is_null()) {
        out += "\"id\":";
        out += to_text(id);
        out += ',';
    }
    out += "\"type\":\"ack\"";
    if (version >= 0) {
        out += ",\"version\":";
        out += std::to_string(version);
    }
    out += '}';
    return out;
}

json board_json(const core::BoardView& board) {
    return {{"files", board.files},
            {"ranks", board.ranks},
            {"squares", board.squares},
            {"reserves", board.reserves}};
}

json powers_json(const core::BoardView& board) {
    json powers = json::object();
    for (std::size_t i = 0; i < board.powers.size() && i < board.squares.size(); ++i) {
        if (board.squares[i] == "M" || board.squares[i] == "m") {
            const auto files = static_cast<std::size_t>(board.files);
            std::string square{static_cast<char>('a' + i % files)};
            square += std::to_string(i / files + 1);
            powers[square] = board.powers[i];
        }
    }
    return powers;
}

json position_json(const core::Game& game) {
    const bool over = game.outcome().has_value();
    const auto board = game.board();
    json position = {
        {"fen", game.fen()},
        {"board", board_json(board)},
        {"to_move", over ? json(nullptr) : json(core::side_name(game.variant(), game.to_move()))},
        {"legal", game.legal_moves()},
        {"in_check", game.in_check()}};
    if (!board.powers.empty()) {
        position["powers"] = powers_json(board);
    }
    return position;
}

std::string position_fields_text(const core::Game& game, std::string_view fen) {
    // The keys in the order to_text writes an object's keys (sorted): board {files, ranks,
    // reserves, squares}, fen, in_check, legal, powers (Chessence), to_move.
    const bool over = game.outcome().has_value();
    const auto board = game.board();
    const auto legal = game.legal_moves();
    std::string out;
    out.reserve(256 + 8 * board.squares.size() + 8 * legal.size() + fen.size());
    out += "\"board\":{\"files\":";
    out += std::to_string(board.files);
    out += ",\"ranks\":";
    out += std::to_string(board.ranks);
    out += ",\"reserves\":[";
    out += std::to_string(board.reserves[0]);
    out += ',';
    out += std::to_string(board.reserves[1]);
    out += "],\"squares\":";
    append_string_array(out, board.squares);
    out += "},\"fen\":";
    append_json_string(out, fen);
    out += ",\"in_check\":";
    out += game.in_check() ? "true" : "false";
    out += ",\"legal\":";
    append_string_array(out, legal);
    if (!board.powers.empty()) {
        out += ",\"powers\":{";
        // Sorted by square name, as the JSON object would hold them: with at most nine ranks a
        // name is a file letter and a rank digit, so that is file by file, each rank by rank.
        const auto files = static_cast<std::size_t>(board.files);
        const auto ranks = static_cast<std::size_t>(board.ranks);
        const auto name = [files](std::size_t i) {
            std::string square{static_cast<char>('a' + i % files)};
            return square += std::to_string(i / files + 1);
        };
        std::vector<std::size_t> order;
        for (std::size_t f = 0; f < files; ++f) {
            for (std::size_t r = 0; r < ranks; ++r) {
                const std::size_t i = r * files + f;
                if (i < board.powers.size() && i < board.squares.size() &&
                    (board.squares[i] == "M" || board.squares[i] == "m")) {
                    order.push_back(i);
                }
            }
        }
        if (ranks > 9) {
            std::sort(order.begin(), order.end(),
                      [&](std::size_t a, std::size_t b) { return name(a) < name(b); });
        }
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (k > 0) {
                out += ',';
            }
            append_json_string(out, name(order[k]));
            out += ':';
            append_json_string(out, board.powers[order[k]]);
        }
        out += '}';
    }
    out += ",\"to_move\":";
    if (over) {
        out += "null";
    } else {
        append_json_string(out, core::side_name(game.variant(), game.to_move()));
    }
    return out;
}

json outcome_json(core::VariantId variant, const core::Outcome& outcome) {
    return {{"winner",
             outcome.winner ? json(core::side_name(variant, *outcome.winner)) : json(nullptr)},
            {"reason", outcome.reason}};
}

}  // namespace protocol
