#include "server/net/http_puzzles.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "protocol/puzzles.h"
#include "server/net/http_players.h"

namespace server {

using nlohmann::json;

namespace {

constexpr std::string_view puzzles_path = "/api/puzzles";
constexpr std::size_t max_excluded_puzzles = 100;  // ids of ?exclude= looked at

// An error with its stable code: {"code": …, "error": …}.
HttpReply puzzle_error_reply(int status, std::string_view code, const std::string& message) {
    return json_reply(status, protocol::to_text(json{{"code", code}, {"error", message}}));
}

HttpReply unavailable_reply() {
    return puzzle_error_reply(503, "puzzles_unavailable",
                              "the puzzles are not available on this server; try again later");
}

// "2026-11-27" for day 20784.
std::string date_of(std::int64_t day) {
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{day}}};
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
    return text;
}

// The ids of `?exclude=a,b,c` (at most max_excluded_puzzles).
std::vector<std::string_view> excluded_ids(std::string_view query) {
    std::vector<std::string_view> ids;
    std::string_view list = query_value(query, "exclude").value_or("");
    while (!list.empty() && ids.size() < max_excluded_puzzles) {
        const auto comma = list.find(',');
        const auto id = list.substr(0, comma);
        if (!id.empty()) {
            ids.push_back(id);
        }
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    return ids;
}

HttpReply counts_reply(const PuzzleCollection& puzzles) {
    json games = json::object();
    for (const auto game :
         {core::VariantId::chessence, core::VariantId::chesica, core::VariantId::sniderman}) {
        games[std::string(core::variant_name(game))] = puzzles.of(game).size();
    }
    return json_reply(200, protocol::to_text(json{{"games", games}}));
}

}  // namespace

PuzzleMoment puzzle_moment_now() {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    const auto today = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    return {today.time_since_epoch().count(), generator()};
}

std::optional<HttpReply> serve_puzzle_api(const PuzzleCollection& puzzles, std::string_view target,
                                          const PuzzleMoment& moment) {
    const auto query_at = target.find('?');
    const std::string_view path = target.substr(0, query_at);
    const std::string_view query =
        query_at == std::string_view::npos ? std::string_view{} : target.substr(query_at + 1);
    if (path.substr(0, puzzles_path.size()) != puzzles_path ||
        (path.size() > puzzles_path.size() && path[puzzles_path.size()] != '/')) {
        return std::nullopt;
    }
    if (!puzzles.available()) {
        return unavailable_reply();
    }
    std::string_view rest = path.substr(puzzles_path.size());
    if (rest.empty() || rest == "/") {
        return counts_reply(puzzles);
    }
    rest.remove_prefix(1);
    const auto slash = rest.find('/');
    const std::string_view game_name = rest.substr(0, slash);
    const auto game = core::parse_variant(game_name);
    if (!game) {
        return puzzle_error_reply(404, "unknown_game",
                                  "no such game: '" + std::string(game_name.substr(0, 40)) +
                                      "' (chessence, chesica or sniderman)");
    }
    const std::string_view what =
        slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    if (what.empty() || what.find('/') != std::string_view::npos) {
        return puzzle_error_reply(404, "not_found",
                                  "ask for /api/puzzles/<game>/daily, /random or /<id>");
    }
    if (puzzles.of(*game).empty()) {
        return puzzle_error_reply(404, "no_puzzles",
                                  "the puzzle bank has no " + std::string(game_name) + " puzzles");
    }
    json body;
    if (what == "daily") {
        body = protocol::puzzle_json(*puzzles.daily(*game, moment.day));
        body["date"] = date_of(moment.day);
    } else if (what == "random") {
        body = protocol::puzzle_json(*puzzles.random(*game, excluded_ids(query), moment.random));
    } else if (const auto* puzzle = puzzles.find(*game, what)) {
        body = protocol::puzzle_json(*puzzle);
    } else {
        return puzzle_error_reply(404, "no_such_puzzle",
                                  "no " + std::string(game_name) + " puzzle has the id '" +
                                      std::string(what.substr(0, 40)) + "'");
    }
    return json_reply(200, protocol::to_text(body));
}

}  // namespace server
