// The phases of a Sniderman match in a room: naming the object, choosing ODD or EVEN, and the
// captures of each round, until a player has won the match.
#include <algorithm>

#include "protocol/messages.h"
#include "server/game/room.h"

namespace server {

using core::sniderman::MatchPhase;
using nlohmann::json;
using protocol::ErrorCode;

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

json Room::round_started_event() const {
    const auto& round = match_->round();
    return {{"kind", "round_started"},
            {"round", match_->records().size()},
            {"fen", round.fen()},
            {"board", protocol::board_json(round.board())},
            {"namer", seat_name(match_->namer())},
            {"available_objects", match_->available_objects()}};
}

core::Status Room::apply_sniderman(const std::string& kind, const json& event) {
    const auto by = seat_from_name(event.value("by", ""));
    if (kind == "round_started" || kind == "round_over") {
        return core::ok_status();  // consequences of the events before them
    }
    if (kind == "object_named" && by) {
        return match_->name_object(*by, event.value("object", 0));
    }
    if (kind == "side_chosen" && by) {
        return match_->choose_side(*by, event.value("odd", "") == seat_name(*by));
    }
    if (kind == "move") {
        const auto player = seat_from_name(event.value("player", ""));
        if (!player) {
            return core::make_error("move without a player");
        }
        auto played = match_->play(*player, event.value("move", ""));
        if (!played) {
            return core::make_error(played.error());
        }
        return core::ok_status();
    }
    return core::make_error("unknown Sniderman event kind `" + kind + "`");
}

void Room::name_object(const Actor& actor, const protocol::Request& request, int seat) {
    if (!match_) {
        fail(actor, request, ErrorCode::not_supported, "only Sniderman has objects");
        return;
    }
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the match is over");
        return;
    }
    if (match_->phase() != MatchPhase::naming) {
        fail(actor, request, ErrorCode::wrong_phase, "the object has been named");
        return;
    }
    if (match_->namer() != seat) {
        fail(actor, request, ErrorCode::not_your_turn, "your opponent names this round's object");
        return;
    }
    const auto available = match_->available_objects();
    if (std::find(available.begin(), available.end(), request.object) == available.end()) {
        fail(actor, request, ErrorCode::object_used, "this object was used in an earlier round");
        return;
    }
    auto trial = *match_;
    if (auto named = trial.name_object(seat, request.object); !named) {
        fail(actor, request, ErrorCode::bad_field, named.error());
        return;
    }
    commit({{"kind", "object_named"},
            {"by", seat_name(seat)},
            {"object", request.object},
            {"text", core::sniderman::object_text(request.object)}});
}

void Room::choose_side(const Actor& actor, const protocol::Request& request, int seat) {
    if (!match_) {
        fail(actor, request, ErrorCode::not_supported, "only Sniderman has ODD and EVEN");
        return;
    }
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the match is over");
        return;
    }
    if (match_->phase() != MatchPhase::choosing) {
        fail(actor, request, ErrorCode::wrong_phase, "this is not the time to choose a side");
        return;
    }
    if (match_->chooser() != seat) {
        fail(actor, request, ErrorCode::not_your_turn, "your opponent chooses the side");
        return;
    }
    const bool odd = request.side == core::Side::first;
    auto trial = *match_;
    if (auto chosen = trial.choose_side(seat, odd); !chosen) {
        fail(actor, request, ErrorCode::bad_field, chosen.error());
        return;
    }
    json event = {{"kind", "side_chosen"},
                  {"by", seat_name(seat)},
                  {"odd", seat_name(odd ? seat : 1 - seat)},
                  {"even", seat_name(odd ? 1 - seat : seat)}};
    event.update(protocol::position_json(trial.round()));
    commit(std::move(event));
}

void Room::play_round_move(const Actor& actor, const protocol::Request& request, int seat) {
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the match is over");
        return;
    }
    if (match_->phase() != MatchPhase::playing) {
        fail(actor, request, ErrorCode::wrong_phase, "the round has not started yet");
        return;
    }
    if (match_->to_move_player() != seat) {
        fail(actor, request, ErrorCode::not_your_turn, "it is not your turn");
        return;
    }
    auto trial = *match_;
    auto played = trial.play(seat, request.move);
    if (!played) {
        fail(actor, request, ErrorCode::illegal_move, played.error());
        return;
    }
    const std::size_t round_index = match_->records().size() - 1;
    const auto odd_player = match_->records()[round_index].odd_player;
    // The round's own position after the capture (the match may have dealt the next round).
    auto after = match_->round().clone();
    after->play(*played);
    json event = move_event(*after, *played, seat);
    event["by"] = odd_player == seat ? "odd" : "even";
    event["player"] = seat_name(seat);
    if (!commit(std::move(event))) {
        fail(actor, request, ErrorCode::internal_error, "the move could not be stored");
        return;
    }
    const auto& record = match_->records()[round_index];
    if (record.winner) {
        const int winner = *record.winner;
        commit({{"kind", "round_over"},
                {"round", round_index + 1},
                {"winner", record.odd_player == winner ? "odd" : "even"},
                {"winner_player", seat_name(winner)},
                {"score", match_->score()}});
        if (match_->phase() == MatchPhase::finished && match_->winner()) {
            end_game({{"winner", seat_name(*match_->winner())}, {"reason", "match_won"}});
        } else {
            commit(round_started_event());
        }
    }
    publish_summary();
}

json Room::match_json() const {
    const auto& records = match_->records();
    const auto seat_or_null = [&](std::optional<int> seat) {
        return seat ? json(seat_name(*seat)) : json(nullptr);
    };
    const auto available = match_->available_objects();
    json objects = json::array();
    for (int object = 1; object <= 10; ++object) {
        objects.push_back({{"object", object},
                           {"text", core::sniderman::object_text(object)},
                           {"available", std::find(available.begin(), available.end(), object) !=
                                             available.end()}});
    }
    json rounds = json::array();
    for (const auto& round : records) {
        rounds.push_back({{"start", round.start},
                          {"object", round.object},
                          {"odd", seat_or_null(round.odd_player)},
                          {"moves", round.moves},
                          {"winner", seat_or_null(round.winner)}});
    }
    const auto& current = records.back();
    const std::optional<int> odd = current.odd_player;
    return {{"rounds", match_->rounds_total()},
            {"round", records.size()},
            {"phase", phase_name(match_->phase())},
            {"namer", seat_name(match_->namer())},
            {"chooser", seat_name(match_->chooser())},
            {"odd", seat_or_null(odd)},
            {"even", odd ? json(seat_name(1 - *odd)) : json(nullptr)},
            {"objects", objects},
            {"object", current.object == 0 ? json(nullptr) : json(current.object)},
            {"score", match_->score()},
            {"records", rounds},
            {"winner", seat_or_null(match_->winner())}};
}

}  // namespace server
