#include "server/net/http_players.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <limits>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/variant.h"
#include "protocol/messages.h"
#include "server/bots/bot_identity.h"
#include "server/game/glicko2.h"
#include "server/game/identity.h"
#include "server/game/secrets.h"
#include "server/limits.h"
#include "server/records/record_export.h"

namespace server {

using nlohmann::json;

std::string seat_name(const GameRecord& game, std::size_t seat) {
    if (game.variant == "sniderman") {
        return seat == 0 ? "player0" : "player1";
    }
    return seat == 0 ? "white" : "black";
}

core::Expected<nlohmann::json> players_json(Store& store, const GameRecord& game) {
    json players = json::array();
    for (std::size_t seat = 0; seat < game.seats.size(); ++seat) {
        const auto player = store.player(game.seats[seat]);
        if (!player) {
            return core::make_error(player.error());
        }
        players.push_back({{"seat", seat_name(game, seat)},
                           {"id", game.seats[seat]},
                           {"name", *player ? (*player)->name : "Unknown"}});
        if (const auto level = bot_level(game.seats[seat])) {
            players.back()["bot"] = true;  // issue 25: the computer's seat, as in the snapshot
            players.back()["level"] = *level;
        }
    }
    return players;
}

namespace {

json rating_json(const RatingRecord& row) {
    const glicko2::Rating rating{row.value.rating, row.value.rd, row.value.volatility};
    return {{"rating", row.value.rating},
            {"rd", row.value.rd},
            {"volatility", row.value.volatility},
            {"games", row.games},
            {"provisional", glicko2::provisional(rating)},
            {"last_played", row.last_played}};
}

// The player named by an id, or else by a username.
core::Expected<std::optional<PlayerRecord>> find_player(Store& store, std::string_view key) {
    auto player = store.player(key);
    if (!player || *player) {
        return player;
    }
    const auto account = store.account_by_username(key);
    if (!account) {
        return core::make_error(account.error());
    }
    if (*account) {
        return store.player((*account)->player_id);
    }
    return std::nullopt;
}

HttpReply player_reply(Store& store, const PlayerRecord& player, const std::string& viewer) {
    const auto account = store.account(player.id);
    if (!account) {
        return read_failed_reply("the player", account.error());
    }
    const auto flags = store.moderation(player.id);
    if (!flags) {
        return read_failed_reply("the player", flags.error());
    }
    const auto rating_rows = store.ratings_of(player.id);
    if (!rating_rows) {
        return read_failed_reply("the player", rating_rows.error());
    }
    const auto history_rows = store.rating_history(player.id);
    if (!history_rows) {
        return read_failed_reply("the player", history_rows.error());
    }
    const auto tally = store.tally(player.id, viewer);
    if (!tally) {
        return read_failed_reply("the player", tally.error());
    }
    json ratings = json::object();
    for (const auto& row : *rating_rows) {
        ratings[row.variant] = rating_json(row);
    }
    // One point per rated game, oldest first; a private game's id only for its players.
    json history = json::object();
    std::map<std::string, bool> visible;
    for (const auto& row : *history_rows) {
        auto [seen, fresh] = visible.try_emplace(row.game_id, false);
        if (fresh) {
            const auto found = store.game(row.game_id);
            if (!found) {
                return read_failed_reply("the player", found.error());
            }
            const auto& game = *found;
            const bool sat = game && std::find(game->seats.begin(), game->seats.end(), viewer) !=
                                         game->seats.end();
            seen->second = game && (!game->is_private || sat);
        }
        history[row.variant].push_back({{"game_id", seen->second ? json(row.game_id) : json()},
                                        {"at", row.at},
                                        {"rating", row.after.rating},
                                        {"rd", row.after.rd},
                                        {"change", row.after.rating - row.before.rating}});
    }
    json body = {{"id", player.id},
                 {"name", player.name},
                 {"account", account->has_value()},
                 {"closed", flags->closed},
                 {"created_at", player.created_at},
                 {"ratings", ratings},
                 {"rating_history", history},
                 {"tally",
                  {{"games", tally->games},
                   {"wins", tally->wins},
                   {"draws", tally->draws},
                   {"losses", tally->losses}}}};
    return json_reply(200, protocol::to_text(body));
}

// The filters of /games: variant, result (win/draw/loss), rated (true/false); page from 1.
std::optional<HttpReply> read_query(std::string_view query, GameQuery& q, int& page) {
    page = 1;
    if (auto text = query_value(query, "page")) {
        const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), page);
        if (ec != std::errc() || end != text->data() + text->size() || page < 1 || page > 1000000) {
            return bad_request_reply("page must be a number from 1");
        }
    }
    if (auto variant = query_value(query, "variant"); variant && !variant->empty()) {
        if (!core::parse_variant(*variant)) {
            return bad_request_reply("variant must be chessence, chesica or sniderman");
        }
        q.variant = std::string(*variant);
    }
    if (auto result = query_value(query, "result"); result && !result->empty()) {
        if (*result != "win" && *result != "draw" && *result != "loss") {
            return bad_request_reply("result must be win, draw or loss");
        }
        q.result = std::string(*result);
    }
    if (auto rated = query_value(query, "rated"); rated && !rated->empty()) {
        if (*rated != "true" && *rated != "false") {
            return bad_request_reply("rated must be true or false");
        }
        q.rated = *rated == "true";
    }
    return std::nullopt;
}

core::Expected<json> game_line(Store& store, const GameRecord& game) {
    auto players = players_json(store, game);
    if (!players) {
        return core::make_error(players.error());
    }
    auto result = json::parse(game.result_json, nullptr, false);
    return json{{"game_id", game.id},
                {"variant", game.variant},
                {"rules", game.rules},
                {"rated", game.rated},
                {"players", std::move(*players)},
                {"result", result.is_object() ? result : json(nullptr)},
                {"created_at", game.created_at},
                {"finished_at", game.finished_at}};
}

HttpReply games_reply(Store& store, const PlayerRecord& player, std::string_view query,
                      const std::string& viewer) {
    GameQuery q;
    int page = 1;
    if (auto bad = read_query(query, q, page)) {
        return *bad;
    }
    q.player_id = player.id;
    q.viewer_id = viewer;
    q.offset = (page - 1) * games_page_size;
    q.limit = games_page_size + 1;
    auto games = store.find_games(q);
    if (!games) {
        return read_failed_reply("the games", games.error());
    }
    const bool has_more = games->size() > static_cast<std::size_t>(games_page_size);
    if (has_more) {
        games->pop_back();
    }
    json list = json::array();
    for (const auto& game : *games) {
        auto line = game_line(store, game);
        if (!line) {
            return read_failed_reply("the games", line.error());
        }
        list.push_back(std::move(*line));
    }
    json body = {{"player", {{"id", player.id}, {"name", player.name}}},
                 {"page", page},
                 {"page_size", games_page_size},
                 {"games", list},
                 {"has_more", has_more}};
    return json_reply(200, protocol::to_text(body));
}

HttpReply games_pgn_reply(Store& store, const PlayerRecord& player, std::string_view query,
                          const std::string& viewer) {
    GameQuery q;
    int page = 1;
    if (auto bad = read_query(query, q, page)) {
        return *bad;
    }
    q.player_id = player.id;
    q.viewer_id = viewer;
    q.limit = max_pgn_games;
    const auto games = store.find_games(q);
    if (!games) {
        return read_failed_reply("the games", games.error());
    }
    std::string text;
    for (const auto& game : *games) {
        const auto pgn = export_game_pgn(store, game.id, "Chessence Server");
        if (!pgn) {
            return read_failed_reply("the games", pgn.error());
        }
        if (*pgn) {
            if (!text.empty()) {
                text += "\n";
            }
            text += **pgn;
        }
    }
    return HttpReply{200, "application/x-chess-pgn; charset=utf-8", std::move(text)};
}

json leaderboard_line(const LeaderboardRow& row) {
    return {{"id", row.player_id},
            {"name", row.name},
            {"rating", row.rating.value.rating},
            {"rd", row.rating.value.rd},
            {"games", row.rating.games}};
}

// The best provisional ratings (RD above provisional_rd) active since `since`, highest first, at
// most leaderboard_size. The store lists ratings under an RD bound only, so this reads the ratings
// of any RD, established ones included, and reads further while those crowd out the provisional.
core::Expected<std::vector<LeaderboardRow>> provisional_rows(Store& store, std::string_view variant,
                                                             std::int64_t since) {
    // Any RD: no bound that rounding could put a capped RD (max_rd) just above.
    constexpr double any_rd = std::numeric_limits<double>::max();
    for (int limit = 2 * leaderboard_size;; limit = std::min(limit, INT_MAX / 2) * 2) {
        auto rows = store.leaderboard(variant, any_rd, since, limit);
        if (!rows) {
            return rows;
        }
        const bool all_read = rows->size() < static_cast<std::size_t>(limit);
        std::erase_if(*rows, [](const LeaderboardRow& row) {
            return row.rating.value.rd <= glicko2::provisional_rd;
        });
        if (all_read || rows->size() >= static_cast<std::size_t>(leaderboard_size)) {
            if (rows->size() > static_cast<std::size_t>(leaderboard_size)) {
                rows->resize(static_cast<std::size_t>(leaderboard_size));
            }
            return rows;
        }
    }
}

// The established players (RD at most provisional_rd) ranked, then the provisional ones unranked;
// both of those who played a rated game in the last leaderboard_days.
HttpReply leaderboard_reply(Store& store, std::string_view variant) {
    if (!core::parse_variant(variant)) {
        return not_found_reply();
    }
    const auto since = unix_now() - std::int64_t{leaderboard_days} * 86400;
    const auto rows = store.leaderboard(variant, glicko2::provisional_rd, since, leaderboard_size);
    if (!rows) {
        return read_failed_reply("the leaderboard", rows.error());
    }
    const auto unsure = provisional_rows(store, variant, since);
    if (!unsure) {
        return read_failed_reply("the leaderboard", unsure.error());
    }
    json players = json::array();
    int rank = 0;
    for (const auto& row : *rows) {
        players.push_back(leaderboard_line(row));
        players.back()["rank"] = ++rank;
    }
    json provisional = json::array();
    for (const auto& row : *unsure) {
        provisional.push_back(leaderboard_line(row));
    }
    return json_reply(
        200, protocol::to_text(
                 json{{"variant", variant}, {"players", players}, {"provisional", provisional}}));
}

}  // namespace

std::optional<std::string_view> query_value(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        const auto part = query.substr(0, amp);
        const auto eq = part.find('=');
        if (part.substr(0, eq) == key) {
            return eq == std::string_view::npos ? std::string_view{} : part.substr(eq + 1);
        }
        if (amp == std::string_view::npos) {
            break;
        }
        query.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

core::Expected<std::string> viewer_of(Store& store, std::string_view authorization) {
    constexpr std::string_view bearer = "Bearer ";
    if (authorization.substr(0, bearer.size()) != bearer) {
        return std::string();
    }
    const auto token = authorization.substr(bearer.size());
    if (token.empty() || token.size() > 128) {
        return std::string();
    }
    const auto player = store.player_by_token_hash(sha256_hex(token));
    if (!player) {
        return core::make_error(player.error());
    }
    return *player ? (*player)->id : std::string();
}

std::optional<HttpReply> serve_player_api(Store& store, std::string_view path,
                                          std::string_view query, const std::string& viewer_id) {
    constexpr std::string_view players_prefix = "/api/players/";
    constexpr std::string_view leaderboard_prefix = "/api/leaderboard/";
    if (path.substr(0, leaderboard_prefix.size()) == leaderboard_prefix) {
        return leaderboard_reply(store, path.substr(leaderboard_prefix.size()));
    }
    if (path.substr(0, players_prefix.size()) != players_prefix) {
        return std::nullopt;
    }
    const auto rest = path.substr(players_prefix.size());
    const auto slash = rest.find('/');
    const auto key = rest.substr(0, slash);
    const auto tail = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
    if (key.empty() || (!tail.empty() && tail != "/games" && tail != "/games.pgn")) {
        return not_found_reply();
    }
    const auto found = find_player(store, key);
    if (!found) {
        return read_failed_reply("the player", found.error());
    }
    const auto& player = *found;
    if (!player) {
        return not_found_reply();
    }
    if (tail.empty()) {
        return player_reply(store, *player, viewer_id);
    }
    if (tail == "/games") {
        return games_reply(store, *player, query, viewer_id);
    }
    return games_pgn_reply(store, *player, query, viewer_id);
}

}  // namespace server
