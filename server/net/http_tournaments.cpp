// GET/POST /api/tournament…: lichess's tournament API for our arenas (docs/tournaments.md,
// "HTTP API"). Field names and types follow lichess's OpenAPI description (lichess-org/api,
// doc/specs): times in milliseconds (startsAt an ISO 8601 text in the full view, as there),
// clock limits in seconds, status 10 created / 20 started / 30 finished.
#include "server/net/http_tournaments.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/percent.h"
#include "protocol/json_text.h"
#include "protocol/messages.h"
#include "server/game/arena_view.h"
#include "server/game/server_state.h"
#include "server/game/tournaments.h"
#include "server/net/http_api.h"
#include "server/net/http_players.h"
#include "server/tournament/arena.h"
#include "server/tournament/arena_json.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;

namespace {

constexpr std::string_view tournament_prefix = "/api/tournament";
// A standings page of GET /api/tournament/<id> (lichess's size).
constexpr int standing_page_size = 10;
// How many of each status GET /api/tournament lists.
constexpr int tournament_list_limit = 50;
// createdBy of the server's own (scheduled) tournaments, as lichess says "lichess" for its own.
constexpr std::string_view server_creator = "chessence";

// The creator's username as lichess's createdBy gives it (`names`: player id → name; the id when
// the name is not known).
std::string created_by(const TournamentRecord& record,
                       const std::map<std::string, std::string>& names) {
    if (record.created_by.empty()) {
        return std::string(server_creator);
    }
    const auto name = names.find(record.created_by);
    return name == names.end() ? record.created_by : name->second;
}

HttpReply tournament_error(int status, ErrorCode code, std::string_view message) {
    return json_reply(status, protocol::to_text(json{{"code", protocol::error_code_name(code)},
                                                     {"error", message}}));
}

HttpReply refusal_reply(const TournamentRefusal& refused) {
    return tournament_error(refused.status, refused.error.code, refused.error.message);
}

int status_number(std::string_view status) {
    return status == "finished" ? 30 : status == "started" ? 20 : 10;
}

std::string variant_title(std::string_view key) {
    std::string name(key);
    if (!name.empty()) {
        name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    }
    return name;
}

json lichess_clock(const protocol::TimeControl& clock) {
    return {{"limit", clock.initial_seconds}, {"increment", clock.increment_seconds}};
}

// A tournament in a list (lichess's ArenaTournament), from its stored record.
json listed_tournament(const TournamentRecord& record, std::int64_t now,
                       const std::map<std::string, std::string>& names) {
    json out = {{"id", record.id},
                {"createdBy", created_by(record, names)},
                {"system", record.kind},
                {"fullName", record.name},
                {"nbPlayers", record.players},
                {"variant",
                 {{"key", record.variant},
                  {"short", variant_title(record.variant).substr(0, 3)},
                  {"name", variant_title(record.variant)}}},
                {"startsAt", record.starts_at},
                {"finishesAt", record.ends_at},
                {"status", status_number(record.status)},
                {"perf", {{"key", record.variant}, {"name", variant_title(record.variant)}}},
                {"private", !record.password_hash.empty()}};
    if (auto config = tournament::decode_config(record.config_json)) {
        out["minutes"] = config->duration_ms / 60'000;
        out["clock"] = lichess_clock(config->clock);
        out["rated"] = config->rated;
        out["berserkable"] = config->berserkable;
    }
    if (record.status == "created") {
        out["secondsToStart"] = std::max<std::int64_t>(0, (record.starts_at - now) / 1000);
    }
    if (!record.winner_json.empty()) {
        const auto winner = json::parse(record.winner_json, nullptr, false);
        if (winner.is_object()) {
            out["winner"] = {{"id", winner.value("player_id", "")},
                             {"name", winner.value("name", "")}};
        }
    }
    return out;
}

json standing_player(const protocol::TournamentRow& row) {
    json sheet = {{"scores", row.sheet}};
    if (row.fire) {
        sheet["fire"] = true;
    }
    json out = {{"name", row.name},
                {"id", row.player_id},
                {"rank", row.rank},
                {"rating", row.rating},
                {"score", row.score},
                {"sheet", sheet},
                {"performance", row.performance}};
    if (row.status == "withdrawn") {
        out["withdraw"] = true;
    }
    return out;
}

// lichess's ArenaTournamentFull for our arena, standings page `page` (1-based).
json full_tournament(const ArenaView& view, std::int64_t now, int page) {
    const auto info = arena_info(view, now);
    const auto rows = arena_rows(view);
    json out = {{"id", info.id},
                {"fullName", info.name},
                {"createdBy", created_by(view.record, view.names)},
                {"system", info.kind},
                {"rated", info.rated},
                {"berserkable", info.berserkable},
                {"clock", lichess_clock(info.clock)},
                {"minutes", info.minutes},
                {"variant", core::variant_name(info.variant)},
                {"perf",
                 {{"key", core::variant_name(info.variant)},
                  {"name", variant_title(core::variant_name(info.variant))},
                  {"icon", ""}}},
                {"startsAt", protocol::iso_utc(info.starts_at)},
                {"finishesAt", info.ends_at},
                {"status", status_number(info.status)},
                {"isStarted", info.status != "created"},
                {"isFinished", info.status == "finished"},
                {"pairingsClosed", info.pairings_closed},
                {"nbPlayers", info.players},
                {"private", info.is_private},
                {"duels", json::array()}};
    // lichess's duels: the games in progress, best placed first, {id, p: [{n, r, k}, …]}.
    for (const auto& duel : arena_duels(view)) {
        json pair = json::array();
        for (const auto* duelist : {&duel.first, &duel.second}) {
            pair.push_back({{"n", duelist->name}, {"r", duelist->rating}, {"k", duelist->rank}});
        }
        out["duels"].push_back({{"id", duel.game_id}, {"p", pair}});
    }
    if (info.status == "created") {
        out["secondsToStart"] = std::max<std::int64_t>(0, (info.starts_at - now) / 1000);
    } else if (info.status == "started") {
        out["secondsToFinish"] = std::max<std::int64_t>(0, (info.ends_at - now) / 1000);
    }
    json players = json::array();
    const auto first = static_cast<std::size_t>((page - 1) * standing_page_size);
    for (std::size_t i = first; i < rows.size() && i < first + standing_page_size; ++i) {
        players.push_back(standing_player(rows[i]));
    }
    out["standing"] = {{"page", page}, {"players", players}};
    // The statistics the state knows (each game is on two sheets).
    int game_sheets = 0, berserks = 0, draws = 0, plies = 0;
    long long ratings = 0;
    for (const auto& [id, player] : view.state.players) {
        ratings += player.rating;
        for (const auto& game : player.sheet) {
            ++game_sheets;
            plies += game.plies;
            berserks += game.berserk ? 1 : 0;
            draws += game.outcome == tournament::Outcome::draw ? 1 : 0;
        }
    }
    const auto count = static_cast<long long>(view.state.players.size());
    out["stats"] = {{"games", game_sheets / 2},
                    {"moves", plies / 2},
                    {"draws", draws / 2},
                    {"berserks", berserks},
                    {"averageRating", count ? ratings / count : 0}};
    if (info.status == "finished") {
        json podium = json::array();
        for (std::size_t i = 0; i < rows.size() && i < 3; ++i) {
            auto line = standing_player(rows[i]);
            const auto& sheet = view.state.players.at(rows[i].player_id).sheet;
            int wins = 0, berserked = 0;
            for (const auto& game : sheet) {
                wins += game.outcome == tournament::Outcome::win ? 1 : 0;
                berserked += game.berserk ? 1 : 0;
            }
            line["nb"] = {{"game", sheet.size()}, {"berserk", berserked}, {"win", wins}};
            podium.push_back(line);
        }
        out["podium"] = podium;
    }
    return out;
}

// The asker: an account, by the bearer token; a refusal otherwise.
std::variant<Actor, HttpReply> account_asker(ServerState& state, std::string_view authorization) {
    auto viewer = viewer_of(state.store(), authorization);
    if (!viewer) {
        return read_failed_reply("your session", viewer.error());
    }
    if (viewer->empty()) {
        return tournament_error(401, ErrorCode::account_required,
                                "log in (send your session token as a bearer token)");
    }
    auto account = state.store().account(*viewer);
    if (!account) {
        return read_failed_reply("your account", account.error());
    }
    if (!*account) {
        return tournament_error(403, ErrorCode::account_required,
                                "register to create and play in tournaments");
    }
    Actor actor;
    actor.player_id = *viewer;
    actor.name = (*account)->username;
    actor.account = true;
    return actor;
}

// lichess's clockTime (minutes, a fraction allowed: 0.25, 0.5, …) in whole seconds.
std::optional<int> clock_seconds(std::string_view text) {
    try {
        std::size_t used = 0;
        const double minutes = std::stod(std::string(text), &used);
        if (used != text.size() || !(minutes >= 0) || minutes > 180) {
            return std::nullopt;
        }
        return static_cast<int>(std::lround(minutes * 60));
    } catch (...) {
        return std::nullopt;
    }
}

std::optional<long long> whole_number(std::string_view text, long long low, long long high) {
    try {
        std::size_t used = 0;
        const long long n = std::stoll(std::string(text), &used);
        if (used != text.size() || n < low || n > high) {
            return std::nullopt;
        }
        return n;
    } catch (...) {
        return std::nullopt;
    }
}

std::optional<bool> truth(std::string_view text) {
    if (text == "true" || text == "1" || text == "on") {
        return true;
    }
    if (text == "false" || text == "0" || text == "off") {
        return false;
    }
    return std::nullopt;
}

// POST /api/tournament: an arena from lichess's form fields.
HttpReply create_reply(ServerState& state, std::string_view authorization, std::string_view body) {
    auto asker = account_asker(state, authorization);
    if (auto* refused = std::get_if<HttpReply>(&asker)) {
        return *refused;
    }
    const auto& creator = std::get<Actor>(asker);
    const auto form = parse_form(body);
    if (!form) {
        return tournament_error(400, ErrorCode::bad_field, "the form's escapes are malformed");
    }
    auto field = [&](std::string_view name) -> std::optional<std::string_view> {
        const auto it = form->find(name);
        return it == form->end() ? std::nullopt : std::optional<std::string_view>(it->second);
    };
    const auto now = unix_ms(state.time().now());
    ArenaCreation creation;
    auto& config = creation.config;
    creation.name = std::string(field("name").value_or(""));
    if (creation.name.size() > 60) {
        return tournament_error(400, ErrorCode::bad_field, "`name` has at most 60 characters");
    }
    const auto clock_time = field("clockTime");
    const auto clock_increment = field("clockIncrement");
    const auto limit = clock_time ? clock_seconds(*clock_time) : std::nullopt;
    const auto increment = clock_increment ? whole_number(*clock_increment, 0, 180) : std::nullopt;
    if (!limit || !increment) {
        return tournament_error(400, ErrorCode::bad_field,
                                "`clockTime` (minutes) and `clockIncrement` (seconds, 0-180) are "
                                "required");
    }
    if (*limit == 0 && *increment == 0) {
        return tournament_error(400, ErrorCode::bad_field, "a clock needs a time or an increment");
    }
    config.clock.kind = protocol::ClockKind::real_time;
    config.clock.initial_seconds = *limit;
    config.clock.increment_seconds = static_cast<int>(*increment);
    const auto minutes_field = field("minutes");
    const auto minutes = minutes_field ? whole_number(*minutes_field, 1, 100'000) : std::nullopt;
    if (!minutes) {
        return tournament_error(400, ErrorCode::bad_field, "`minutes` (20-180) is required");
    }
    config.duration_ms = *minutes * 60'000;
    if (const auto start = field("startDate")) {
        const auto at = whole_number(*start, now - 60'000, now + 365LL * 86'400'000);
        if (!at) {
            return tournament_error(400, ErrorCode::bad_field,
                                    "`startDate` is a time in milliseconds from now on");
        }
        config.starts_at = *at;
    } else {
        const auto wait = whole_number(field("waitMinutes").value_or("5"), 0, 10'080);
        if (!wait) {
            return tournament_error(400, ErrorCode::bad_field,
                                    "`waitMinutes` is a whole number of minutes");
        }
        config.starts_at = now + *wait * 60'000;
    }
    const auto variant = core::parse_variant(field("variant").value_or("chessence"));
    if (!variant) {
        return tournament_error(400, ErrorCode::bad_field,
                                "`variant` must be chessence, chesica or sniderman");
    }
    config.variant = *variant;
    const auto rules = core::parse_rule_set(field("rules").value_or("house"));
    if (!rules) {
        return tournament_error(400, ErrorCode::bad_field, "`rules` must be house or strict");
    }
    config.rules = *rules;
    const auto rated = truth(field("rated").value_or("true"));
    const auto berserkable = truth(field("berserkable").value_or("true"));
    const auto bots = truth(field("conditions.bots").value_or("false"));
    if (!rated || !berserkable || !bots) {
        return tournament_error(400, ErrorCode::bad_field,
                                "`rated`, `berserkable` and `conditions.bots` are true or false");
    }
    if (*bots) {
        return tournament_error(400, ErrorCode::not_supported,
                                "computer players cannot join tournaments yet");
    }
    config.rated = *rated;
    config.berserkable = *berserkable;
    creation.password = std::string(field("password").value_or(""));
    if (creation.password.size() > protocol::max_join_code_length) {
        return tournament_error(400, ErrorCode::bad_field, "`password` is too long");
    }
    auto created = state.tournaments().create_arena(creation, creator.player_id, creator.name);
    if (auto* refused = std::get_if<TournamentRefusal>(&created)) {
        return refusal_reply(*refused);
    }
    auto shown = state.tournaments().view(std::get<TournamentRecord>(created).id);
    if (!shown || !*shown) {
        return read_failed_reply("the new tournament", shown ? "gone" : shown.error());
    }
    return json_reply(200, protocol::to_text(full_tournament(***shown, now, 1)));
}

HttpReply list_reply(ServerState& state) {
    json out = json::object();
    const auto now = unix_ms(state.time().now());
    std::map<std::string, std::string> creators;  // player id → username
    for (const char* status : {"created", "started", "finished"}) {
        auto listed = state.store().tournaments(TournamentQuery{status, "", tournament_list_limit});
        if (!listed) {
            return read_failed_reply("the tournaments", listed.error());
        }
        json list = json::array();
        for (const auto& record : *listed) {
            if (!record.created_by.empty() && !creators.count(record.created_by)) {
                auto account = state.store().account(record.created_by);
                if (!account) {
                    return read_failed_reply("the tournaments", account.error());
                }
                creators[record.created_by] = *account ? (*account)->username : record.created_by;
            }
            list.push_back(listed_tournament(record, now, creators));
        }
        out[status] = list;
    }
    return json_reply(200, protocol::to_text(out));
}

HttpReply ndjson_reply(std::string body) {
    return HttpReply{200, "application/x-ndjson", std::move(body)};
}

// GET /api/tournament/<id>/results[?nb=N]: one player a line, best first.
HttpReply results_reply(const ArenaView& view, std::string_view query) {
    const auto nb_field = query_value(query, "nb");
    const auto nb = nb_field ? whole_number(*nb_field, 1, 100'000) : std::nullopt;
    std::string body;
    long long written = 0;
    for (const auto& row : arena_rows(view)) {
        if (nb && written >= *nb) {
            break;
        }
        body += protocol::to_text({{"rank", row.rank},
                                   {"score", row.score},
                                   {"rating", row.rating},
                                   {"username", row.name},
                                   {"performance", row.performance}});
        body += '\n';
        ++written;
    }
    return ndjson_reply(std::move(body));
}

// GET /api/tournament/<id>/games: each game's record as GET /api/games/<id> shows it.
HttpReply games_reply(ServerState& state, std::string_view id) {
    auto games = state.store().tournament_games(id);
    if (!games) {
        return read_failed_reply("the tournament's games", games.error());
    }
    std::string body;
    for (const auto& game : *games) {
        auto shown = game_json(state.store(), game);
        if (!shown) {
            return read_failed_reply("the tournament's games", shown.error());
        }
        body += protocol::to_text(*shown);
        body += '\n';
    }
    return ndjson_reply(std::move(body));
}

}  // namespace

std::optional<std::map<std::string, std::string, std::less<>>> parse_form(std::string_view text) {
    std::map<std::string, std::string, std::less<>> fields;
    while (!text.empty()) {
        const auto amp = text.find('&');
        std::string pair(text.substr(0, amp));
        text = amp == std::string_view::npos ? std::string_view{} : text.substr(amp + 1);
        std::replace(pair.begin(), pair.end(), '+', ' ');
        const auto eq = pair.find('=');
        auto name = core::percent_decode(std::string_view(pair).substr(0, eq));
        auto value = core::percent_decode(
            eq == std::string::npos ? std::string_view{} : std::string_view(pair).substr(eq + 1));
        if (!name || !value) {
            return std::nullopt;
        }
        if (!name->empty()) {
            fields.emplace(std::move(*name), std::move(*value));
        }
    }
    return fields;
}

std::optional<HttpReply> serve_tournaments(ServerState& state, bool post, std::string_view target,
                                           std::string_view authorization, std::string_view body) {
    const auto question = target.find('?');
    const auto path = target.substr(0, question);
    const auto query =
        question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
    if (path.substr(0, tournament_prefix.size()) != tournament_prefix ||
        (path.size() > tournament_prefix.size() && path[tournament_prefix.size()] != '/')) {
        return std::nullopt;
    }
    if (state.stopping() && post) {
        return tournament_error(503, ErrorCode::server_restarting,
                                "the server is restarting; ask again in a moment");
    }
    auto rest = path.substr(tournament_prefix.size());
    if (rest.empty() || rest == "/") {
        return post ? create_reply(state, authorization, body) : list_reply(state);
    }
    rest.remove_prefix(1);
    const auto slash = rest.find('/');
    const auto id = rest.substr(0, slash);
    const auto action =
        slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
    if (id.empty() || id.size() > protocol::max_ref_length) {
        return tournament_error(404, ErrorCode::no_such_tournament, "there is no such tournament");
    }
    if (action == "join" || action == "withdraw") {
        if (!post) {
            return json_reply(405, R"({"error":"method not allowed"})");
        }
        auto asker = account_asker(state, authorization);
        if (auto* refused = std::get_if<HttpReply>(&asker)) {
            return *refused;
        }
        const auto form = parse_form(body);
        if (!form) {
            return tournament_error(400, ErrorCode::bad_field, "the form's escapes are malformed");
        }
        const auto code = form->find("password");
        auto answered = state.tournaments().ask_sync(
            id,
            action == "join" ? protocol::RequestType::tournament_join
                             : protocol::RequestType::tournament_withdraw,
            std::get<Actor>(asker), code == form->end() ? std::string_view{} : code->second);
        if (auto* refused = std::get_if<TournamentRefusal>(&answered)) {
            return refusal_reply(*refused);
        }
        return json_reply(200, R"({"ok":true})");
    }
    if (post) {
        return json_reply(405, R"({"error":"method not allowed"})");
    }
    if (!action.empty() && action != "results" && action != "games") {
        return not_found_reply();
    }
    auto shown = state.tournaments().view(id);
    if (!shown) {
        return read_failed_reply("the tournament", shown.error());
    }
    if (!*shown) {
        return tournament_error(404, ErrorCode::no_such_tournament, "there is no such tournament");
    }
    if (action == "results") {
        return results_reply(***shown, query);
    }
    if (action == "games") {
        return games_reply(state, id);
    }
    const auto page_field = query_value(query, "page");
    const auto page =
        (page_field ? whole_number(*page_field, 1, 10'000) : std::nullopt).value_or(1);
    return json_reply(200, protocol::to_text(full_tournament(***shown, unix_ms(state.time().now()),
                                                             static_cast<int>(page))));
}

}  // namespace server
