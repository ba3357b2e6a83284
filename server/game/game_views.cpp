#include "server/game/game_views.h"

#include <algorithm>

#include "core/sniderman/explain.h"
#include "protocol/messages.h"
#include "server/bots/bot_identity.h"

namespace server {

using core::sniderman::MatchPhase;
using nlohmann::json;
namespace events = protocol::events;

namespace {

const char* phase_name(MatchPhase phase) {
    switch (phase) {
        case MatchPhase::naming:
            return "naming";
        case MatchPhase::choosing:
            return "choosing";
        case MatchPhase::playing:
            return "playing";
        case MatchPhase::finished:
            return "finished";
    }
    return "finished";
}

}  // namespace

json round_why_json(const core::sniderman::RoundRecord& record) {
    if (!record.winner) {
        return json::object();
    }
    auto why = core::sniderman::explain_round(record.start, record.object, record.moves);
    return why ? json{{"why", *why}} : json::object();
}

json clock_fields(const GameState& state, ServerTime now) {
    const bool abort_pending = state.abort_deadline && !state.result;
    return {{"time_control", protocol::time_control_json(state.time_control)},
            {"clock",
             state.clock.timed() ? events::clock_json(state.clock.reading(now)) : json(nullptr)},
            {"abort_in", abort_pending
                             ? json(std::max<std::int64_t>(0, ms_until(now, *state.abort_deadline)))
                             : json(nullptr)}};
}

json position_now_json(const GameState& state, ServerTime now) {
    json position = protocol::position_json(state.current_game());
    if (state.result) {
        position["to_move"] = nullptr;
        position["legal"] = json::array();
    }
    position["clock"] = clock_fields(state, now)["clock"];
    return position;
}

json match_json(const GameState& state) {
    const auto& match = *state.match;
    const auto& records = match.records();
    const auto seat_or_null = [&](std::optional<int> seat) {
        return seat ? json(state.seat_name(*seat)) : json(nullptr);
    };
    const auto available = match.available_objects();
    json objects = json::array();
    for (int object = 1; object <= 10; ++object) {
        objects.push_back({{"object", object},
                           {"text", core::sniderman::object_text(object)},
                           {"available", std::find(available.begin(), available.end(), object) !=
                                             available.end()}});
    }
    json rounds = json::array();
    for (const auto& round : records) {
        json entry = {{"start", round.start},
                      {"object", round.object},
                      {"odd", seat_or_null(round.odd_player)},
                      {"moves", round.moves},
                      {"winner", seat_or_null(round.winner)}};
        entry.update(round_why_json(round));
        rounds.push_back(std::move(entry));
    }
    const auto& current = records.back();
    const std::optional<int> odd = current.odd_player;
    return {{"rounds", match.rounds_total()},
            {"round", records.size()},
            {"phase", phase_name(match.phase())},
            {"namer", state.seat_name(match.namer())},
            {"chooser", state.seat_name(match.chooser())},
            {"odd", seat_or_null(odd)},
            {"even", odd ? json(state.seat_name(1 - *odd)) : json(nullptr)},
            {"objects", objects},
            {"object", current.object == 0 ? json(nullptr) : json(current.object)},
            {"score", match.score()},
            {"records", rounds},
            {"winner", seat_or_null(match.winner())}};
}

json chat_line_json(const ChatLine& line) {
    return {{"channel", line.channel},
            {"from", line.from},
            {"player_id", line.player_id},
            {"seat", line.seat.empty() ? json(nullptr) : json(line.seat)},
            {"text", line.text},
            {"at", line.at}};
}

json snapshot_json(const GameState& state, const std::array<SeatPresence, 2>& seats, int spectators,
                   const json& rating_change, ServerTime now) {
    const auto& game = state.current_game();
    const auto& record = state.record;
    json players = json::array();
    for (int seat = 0; seat < 2; ++seat) {
        const auto& presence = seats[static_cast<std::size_t>(seat)];
        players.push_back(
            {{"seat", state.seat_name(seat)},
             {"id", record.seats[static_cast<std::size_t>(seat)]},
             {"name", presence.name},
             {"online", presence.online},
             {"lag_ms", presence.lag_ms ? json(*presence.lag_ms) : json(nullptr)},
             {"claim_in", presence.claim_in ? json(*presence.claim_in) : json(nullptr)}});
        if (const auto level = bot_level(record.seats[static_cast<std::size_t>(seat)])) {
            players.back()["bot"] = true;  // issue 25: the computer's seat
            players.back()["level"] = *level;
        }
    }
    const auto seat_or_null = [&](std::optional<int> seat) {
        return seat ? json(state.seat_name(*seat)) : json(nullptr);
    };
    json snapshot = {{"game_id", record.id},          {"version", state.version},
                     {"variant", record.variant},     {"rules", record.rules},
                     {"private", record.is_private},  {"players", players},
                     {"start_fen", game.start_fen()}, {"moves", game.moves()},
                     {"positions", state.fens}};
    snapshot.update(protocol::position_json(game));
    snapshot["result"] = state.result ? events::result_json(*state.result) : json(nullptr);
    if (state.result) {
        // Over by resignation or agreement too, not only by the rules: nobody is to move.
        snapshot["to_move"] = nullptr;
        snapshot["legal"] = json::array();
    }
    snapshot["draw_offer"] = seat_or_null(state.draw_offer);
    snapshot["rematch_offer"] = seat_or_null(state.rematch_offer);
    snapshot["takeback_offer"] = seat_or_null(state.takeback_offer);
    snapshot.update(clock_fields(state, now));
    snapshot["rematch_game_id"] = state.rematch_game ? json(*state.rematch_game) : json(nullptr);
    snapshot["spectators"] = spectators;
    // The spectators' chat closes with the game, whatever the players last set.
    snapshot["spectator_chat"] = state.spectator_chat && !state.result;
    snapshot["match"] = state.match ? match_json(state) : json(nullptr);
    snapshot["rated"] = record.rated;
    snapshot["rating_change"] = rating_change;
    if (state.in_tournament()) {
        snapshot["tournament_id"] = record.tournament_id;  // issue 43
    }
    snapshot["berserkable"] = record.berserkable && state.in_tournament();
    snapshot["berserk"] = state.berserk;
    return snapshot;
}

}  // namespace server
