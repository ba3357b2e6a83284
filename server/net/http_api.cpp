#include "server/net/http_api.h"

#include <algorithm>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/percent.h"
#include "protocol/events.h"
#include "protocol/messages.h"
#include "protocol/time_control.h"
#include "server/game/secrets.h"
#include "server/limits.h"
#include "server/net/http_players.h"
#include "server/net/static_files.h"
#include "server/records/record_export.h"

namespace server {

using nlohmann::json;

namespace {

json result_json(const GameRecord& game) {
    if (game.result_json.empty()) {
        return nullptr;
    }
    auto result = json::parse(game.result_json, nullptr, false);
    return result.is_discarded() ? json(nullptr) : result;
}

}  // namespace

core::Expected<json> game_json(Store& store, const GameRecord& record) {
    const GameRecord* game = &record;
    const std::string_view game_id = record.id;
    const auto events = store.events(game_id);
    if (!events) {
        return core::make_error(events.error());
    }
    const auto players = players_json(store, *game);
    if (!players) {
        return core::make_error(players.error());
    }
    const auto ratings = store.game_ratings(game_id);
    if (!ratings) {
        return core::make_error(ratings.error());
    }
    json moves = json::array();
    for (const auto& stored : *events) {
        auto event = protocol::events::decode_event_text(stored.json);
        if (const auto* move = event ? std::get_if<protocol::events::Move>(&*event) : nullptr) {
            moves.push_back(move->move);
        } else if (const auto* takeback =
                       event ? std::get_if<protocol::events::Takeback>(&*event) : nullptr) {
            for (int i = 0; i < takeback->plies && !moves.empty(); ++i) {
                moves.erase(moves.size() - 1);
            }
        }
    }
    const auto control = protocol::parse_time_control(game->time_control);
    json body = {{"game_id", game->id},
                 {"variant", game->variant},
                 {"rules", game->rules},
                 {"status", game->status},
                 {"private", game->is_private},
                 {"players", *players},
                 {"start_fen", game->start_fen},
                 {"moves", moves},
                 {"clock", control ? protocol::time_control_json(*control) : json(nullptr)},
                 {"result", result_json(*game)},
                 {"version", events->size()},
                 {"created_at", game->created_at},
                 {"finished_at", game->finished_at == 0 ? json(nullptr) : json(game->finished_at)}};
    if (game->variant == "sniderman") {
        body["rounds"] = game->rounds;
    }
    body["rated"] = game->rated;
    json changes = json::array();
    for (const auto& row : *ratings) {
        changes.push_back({{"seat", seat_name(*game, static_cast<std::size_t>(row.seat))},
                           {"player_id", row.player_id},
                           {"before",
                            {{"rating", row.before.rating},
                             {"rd", row.before.rd},
                             {"volatility", row.before.volatility}}},
                           {"after",
                            {{"rating", row.after.rating},
                             {"rd", row.after.rd},
                             {"volatility", row.after.volatility}}}});
    }
    body["rating_change"] = changes.empty() ? json(nullptr) : changes;
    if (!game->tournament_id.empty()) {
        body["tournament_id"] = game->tournament_id;
    }
    return body;
}

namespace {

HttpReply game_reply(Store& store, const GameRecord& record) {
    auto body = game_json(store, record);
    if (!body) {
        return read_failed_reply("the game", body.error());
    }
    return json_reply(200, protocol::to_text(*body));
}

HttpReply pgn_reply(Store& store, std::string_view game_id) {
    auto text = export_game_pgn(store, game_id, "Chessence Server");
    if (!text) {
        return read_failed_reply("the game", text.error());
    }
    if (!*text) {
        return not_found_reply();
    }
    return HttpReply{200, "application/x-chess-pgn; charset=utf-8", std::move(**text)};
}

// The fields of a query string, percent-decoded ("+" stays a plus sign, as position strings need
// it); nothing when an escape is malformed. A repeated name keeps its first value.
std::optional<std::map<std::string, std::string, std::less<>>> parse_query(std::string_view query) {
    std::map<std::string, std::string, std::less<>> fields;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const auto pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        const auto eq = pair.find('=');
        auto name = core::percent_decode(pair.substr(0, eq));
        auto value = core::percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
        if (!name || !value) {
            return std::nullopt;
        }
        fields.emplace(std::move(*name), std::move(*value));
    }
    return fields;
}

// GET /api/legal?variant=…[&fen=…][&moves=m1,m2,…][&rules=house|strict]: the position reached
// from `fen` (default: the variant's start) by `moves`, with its legal moves and check state.
HttpReply legal_reply(std::string_view query) {
    const auto fields = parse_query(query);
    if (!fields) {
        return bad_request_reply("the query has a malformed %-escape");
    }
    const auto field = [&](std::string_view name) -> std::optional<std::string> {
        const auto it = fields->find(name);
        return it == fields->end() ? std::nullopt : std::optional(it->second);
    };
    const auto variant_text = field("variant");
    const auto variant = variant_text ? core::parse_variant(*variant_text) : std::nullopt;
    if (!variant) {
        return bad_request_reply("variant must be chessence, chesica or sniderman");
    }
    core::GameOptions options;
    if (const auto rules = field("rules")) {
        const auto parsed = core::parse_rule_set(*rules);
        if (!parsed) {
            return bad_request_reply("rules must be house or strict");
        }
        options.rules = *parsed;
    }
    if (const auto fen = field("fen"); fen && !fen->empty()) {
        if (fen->size() > legal_api_max_fen) {
            return bad_request_reply("fen is too long");
        }
        options.fen = *fen;
    }
    auto game = core::make_game(*variant, options);
    if (!game) {
        return bad_request_reply("bad fen: " + game.error());
    }
    const auto text = field("moves").value_or("");
    std::vector<std::string_view> moves;
    for (std::size_t at = 0; at < text.size();) {
        const auto end = std::min(text.find_first_of(", ", at), text.size());
        if (end > at) {
            moves.push_back(std::string_view(text).substr(at, end - at));
        }
        at = end + 1;
    }
    if (moves.size() > legal_api_max_moves) {
        return bad_request_reply("at most " + std::to_string(legal_api_max_moves) + " moves");
    }
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (auto status = (*game)->play(moves[i]); !status) {
            return bad_request_reply("move " + std::to_string(i + 1) + " (" +
                                     std::string(moves[i]) + "): " + status.error());
        }
    }
    json body = protocol::position_json(**game);
    body["variant"] = core::variant_name(*variant);
    return json_reply(200, protocol::to_text(body));
}

// GET /api/seeks/<id>: an open seek as the protocol shows it (the invitation page reads it).
HttpReply seek_reply(Store& store, std::string_view seek_id) {
    const auto seeks = store.seeks();
    if (!seeks) {
        return read_failed_reply("the seeks", seeks.error());
    }
    for (const auto& seek : *seeks) {
        if (seek.id == seek_id) {
            return json_reply(200, seek.json);
        }
    }
    return not_found_reply();
}

}  // namespace

std::optional<HttpReply> private_refusal(Store& store, const GameRecord& game,
                                         std::string_view query, std::string_view authorization) {
    if (!game.is_private) {
        return std::nullopt;
    }
    const auto fields = parse_query(query);
    if (fields) {
        if (auto key = fields->find("key");
            key != fields->end() && same_secret(key->second, game.access_key)) {
            return std::nullopt;
        }
    }
    const auto viewer = viewer_of(store, authorization);
    if (!viewer) {
        return read_failed_reply("your session", viewer.error());
    }
    const auto& seats = game.seats;
    if (!viewer->empty() && std::find(seats.begin(), seats.end(), *viewer) != seats.end()) {
        return std::nullopt;
    }
    return json_reply(
        403, R"({"error":"this game is private: open it with the link its players share"})");
}

std::optional<HttpReply> serve_api(Store& store, std::string_view target,
                                   std::string_view authorization) {
    const auto query_at = target.find('?');
    const std::string_view path = target.substr(0, query_at);
    const std::string_view query =
        query_at == std::string_view::npos ? std::string_view{} : target.substr(query_at + 1);
    if (path == "/healthz") {
        return json_reply(200, R"({"status":"ok"})");
    }
    constexpr std::string_view games_prefix = "/api/games/";
    constexpr std::string_view players_prefix = "/api/players/";
    if (path.substr(0, games_prefix.size()) == games_prefix) {
        std::string_view id = path.substr(games_prefix.size());
        constexpr std::string_view pgn = ".pgn";
        const bool as_pgn = id.size() > pgn.size() && id.substr(id.size() - pgn.size()) == pgn;
        if (as_pgn) {
            id.remove_suffix(pgn.size());
        }
        if (id.empty() || id.find('/') != std::string_view::npos) {
            return not_found_reply();
        }
        const auto game = store.game(id);
        if (!game) {
            return read_failed_reply("the game", game.error());
        }
        if (!*game) {
            return not_found_reply();
        }
        if (auto refused = private_refusal(store, **game, query, authorization)) {
            return refused;
        }
        return as_pgn ? pgn_reply(store, id) : game_reply(store, **game);
    }
    if (path == "/api/legal") {
        return legal_reply(query);
    }
    constexpr std::string_view seeks_prefix = "/api/seeks/";
    if (path.substr(0, seeks_prefix.size()) == seeks_prefix) {
        return seek_reply(store, path.substr(seeks_prefix.size()));
    }
    if (path.substr(0, players_prefix.size()) == players_prefix ||
        path.substr(0, 17) == "/api/leaderboard/") {
        const auto viewer = viewer_of(store, authorization);
        if (!viewer) {
            return read_failed_reply("your session", viewer.error());
        }
        return serve_player_api(store, path, query, *viewer);
    }
    if (path == "/api" || path.substr(0, 5) == "/api/") {
        return not_found_reply();
    }
    return std::nullopt;
}

}  // namespace server
