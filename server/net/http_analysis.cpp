#include "server/net/http_analysis.h"

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "server/game/server_state.h"
#include "server/net/http_api.h"
#include "server/net/http_players.h"

namespace server {

using nlohmann::json;

namespace {

constexpr std::string_view analysis_games_prefix = "/api/games/";
constexpr std::string_view analysis_suffix = "/analysis";

// {"code": …, "error": …}: a stable code for programs, a sentence for people.
HttpReply coded_reply(int status, std::string_view code, std::string_view message) {
    return json_reply(status, protocol::to_text(json{{"code", code}, {"error", message}}));
}

// {"status": "queued"|"running", "positions": {"done", "total"}} or {"status": "done"}.
HttpReply status_reply(int status, const AnalysisStatus& analysis) {
    json body = {{"status", analysis_state_name(analysis.state)}};
    if (analysis.state != AnalysisState::done) {
        body["positions"] = {{"done", analysis.positions_done},
                             {"total", analysis.positions_total}};
    }
    return json_reply(status, protocol::to_text(body));
}

// From whichever node runs it (its claim in the store), or the stored answer.
HttpReply read_analysis(ServerState& state, const GameRecord& game) {
    const auto seen = state.analyses().look(game);
    if (const auto* refused = std::get_if<AnalysisRefusal>(&seen)) {
        return coded_reply(refused->status, refused->code, refused->message);
    }
    const auto& look = std::get<AnalysisLook>(seen);
    if (look.status && look.status->state == AnalysisState::done) {
        return json_reply(200, look.answer);
    }
    if (look.status) {
        return status_reply(200, *look.status);
    }
    return coded_reply(404, "not_analysed",
                       "this game has not been analysed yet: POST to this address to ask for it");
}

HttpReply ask_for_analysis(ServerState& state, const GameRecord& game,
                           std::string_view authorization, const std::string& address) {
    if (state.stopping()) {
        return coded_reply(503, "server_restarting",
                           "the server is restarting; ask again in a moment");
    }
    if (game.status != "finished") {
        return coded_reply(409, "game_not_finished",
                           "a game is analysed once it is over; ask again when it has ended");
    }
    if (state.limits().bot_threads <= 0) {
        return coded_reply(503, "analysis_unavailable",
                           "this server runs no computer players, so it analyses no games");
    }
    const auto viewer = viewer_of(state.store(), authorization);
    if (!viewer) {
        return read_failed_reply("your session", viewer.error());
    }
    const auto answer = state.analyses().request(game, *viewer, address);
    if (const auto* refused = std::get_if<AnalysisRefusal>(&answer)) {
        return coded_reply(refused->status, refused->code, refused->message);
    }
    const auto& status = std::get<AnalysisStatus>(answer);
    return status_reply(status.state == AnalysisState::done ? 200 : 202, status);
}

}  // namespace

std::optional<HttpReply> serve_analysis(ServerState& state, bool post, std::string_view target,
                                        std::string_view authorization,
                                        const std::string& address) {
    const auto query_at = target.find('?');
    const std::string_view path = target.substr(0, query_at);
    const std::string_view query =
        query_at == std::string_view::npos ? std::string_view{} : target.substr(query_at + 1);
    if (path.size() <= analysis_games_prefix.size() + analysis_suffix.size() ||
        !path.starts_with(analysis_games_prefix) || !path.ends_with(analysis_suffix)) {
        return std::nullopt;
    }
    const std::string_view id =
        path.substr(analysis_games_prefix.size(),
                    path.size() - analysis_games_prefix.size() - analysis_suffix.size());
    if (id.find('/') != std::string_view::npos) {
        return std::nullopt;
    }
    Store& store = state.store();
    const auto game = store.game(id);
    if (!game) {
        return read_failed_reply("the game", game.error());
    }
    if (!*game) {
        return coded_reply(404, "no_such_game", "there is no game with this id");
    }
    if (auto refused = private_refusal(store, **game, query, authorization)) {
        return refused;
    }
    return post ? ask_for_analysis(state, **game, authorization, address)
                : read_analysis(state, **game);
}

}  // namespace server
