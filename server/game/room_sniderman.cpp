// The phases of a Sniderman match in a room: naming the object, choosing ODD or EVEN, and the
// captures of each round, until a player has won the match.
#include <algorithm>

#include "core/sniderman/explain.h"
#include "protocol/messages.h"
#include "server/game/room.h"

namespace server {

using core::sniderman::MatchPhase;
using nlohmann::json;
using protocol::ErrorCode;
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

// Why a finished round went the way it did ({"why": "…"}), or nothing for a round not over.
json why_json(const core::sniderman::RoundRecord& record) {
    if (!record.winner) {
        return json::object();
    }
    auto why = core::sniderman::explain_round(record.start, record.object, record.moves);
    return why ? json{{"why", *why}} : json::object();
}

}  // namespace

events::RoundStarted Room::round_started_event() const {
    return {static_cast<int>(match_->records().size()), match_->round().fen(),
            seat_name(match_->namer())};
}

json Room::round_started_derived() const {
    return {{"board", protocol::board_json(match_->round().board())},
            {"available_objects", match_->available_objects()}};
}

json Room::final_round_position(const core::sniderman::RoundRecord& record) const {
    core::GameOptions options;
    options.rules = rules_;
    options.fen = record.start;
    options.object = record.object;
    auto round = core::make_game(core::VariantId::sniderman, options);
    if (!round) {
        return json::object();
    }
    for (const auto& move : record.moves) {
        (*round)->play(move);
    }
    return derived_position(**round);
}

core::Status Room::apply_sniderman(RoomEvent& event, json* derived) {
    return std::visit(
        [&](auto& e) -> core::Status {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, events::Move>) {
                const auto player = seat_from_name(e.player.value_or(""));
                if (!player) {
                    return core::make_error("a move without its player");
                }
                const auto rounds_before = match_->records().size();
                auto played = match_->play(*player, e.move);
                if (!played) {
                    return core::make_error(played.error());
                }
                e.move = std::move(*played);
                const bool round_over = match_->records().size() != rounds_before ||
                                        match_->phase() == MatchPhase::finished;
                if (!round_over) {
                    fens_.push_back(match_->round().fen());
                }
                if (derived) {
                    *derived = round_over
                                   ? final_round_position(match_->records()[rounds_before - 1])
                                   : derived_position(match_->round());
                }
            } else if constexpr (std::is_same_v<E, events::ObjectNamed>) {
                const auto by = seat_from_name(e.by);
                if (!by) {
                    return core::make_error("object_named by an unknown seat");
                }
                if (auto named = match_->name_object(*by, e.object); !named) {
                    return named;
                }
                if (derived) {
                    *derived = {{"text", core::sniderman::object_text(e.object)}};
                }
            } else if constexpr (std::is_same_v<E, events::SideChosen>) {
                const auto by = seat_from_name(e.by);
                if (!by) {
                    return core::make_error("side_chosen by an unknown seat");
                }
                if (auto chosen = match_->choose_side(*by, e.odd == e.by); !chosen) {
                    return chosen;
                }
                if (derived) {
                    *derived = derived_position(match_->round());
                }
            } else if constexpr (std::is_same_v<E, events::RoundStarted>) {
                // The consequence of the round before it (or of the match's start).
                round_version_ = static_cast<std::int64_t>(log_.size() + staged_.stored.size()) + 1;
                fens_ = {match_->round().fen()};
                if (derived) {
                    *derived = round_started_derived();
                }
            } else if constexpr (std::is_same_v<E, events::RoundOver>) {
                // The consequence of the move before it; the broadcast says why.
                const auto& records = match_->records();
                if (derived && e.round >= 1 &&
                    static_cast<std::size_t>(e.round) <= records.size()) {
                    *derived = why_json(records[static_cast<std::size_t>(e.round) - 1]);
                }
                return core::ok_status();
            } else {
                return core::make_error("a " + std::string(events::kind_name(e)) +
                                        " event in a sniderman game");
            }
            return core::ok_status();
        },
        event);
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
    const auto stamp = [&](RoomEvent& event) { stamp_action(event, seat, actor.lag_ms); };
    events::ObjectNamed object{seat_name(seat), request.object};
    if (auto named = emit(std::move(object), stamp); !named) {
        fail(actor, request, ErrorCode::bad_field, named.error());
        return;
    }
    commit(actor, request);
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
    events::SideChosen chosen{seat_name(seat), seat_name(odd ? seat : 1 - seat),
                              seat_name(odd ? 1 - seat : seat)};
    const auto stamp = [&](RoomEvent& event) { stamp_action(event, seat, actor.lag_ms); };
    if (auto status = emit(std::move(chosen), stamp); !status) {
        fail(actor, request, ErrorCode::bad_field, status.error());
        return;
    }
    commit(actor, request);
}

// A capture; the round's last one also ends the round and deals the next or ends the match, all in
// one commit.
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
    const std::size_t round_index = match_->records().size() - 1;
    const auto odd_player = match_->records()[round_index].odd_player;
    events::Move move{request.move, odd_player == seat ? "odd" : "even", seat_name(seat),
                      static_cast<int>(match_->round().moves().size()) + 1};
    const auto stamp = [&](RoomEvent& event) { stamp_action(event, seat, actor.lag_ms); };
    if (auto played = emit(std::move(move), stamp); !played) {
        fail(actor, request, ErrorCode::illegal_move, played.error());
        return;
    }
    const auto& record = match_->records()[round_index];
    if (record.winner) {
        const int winner = *record.winner;
        emit(events::RoundOver{static_cast<int>(round_index) + 1,
                               record.odd_player == winner ? "odd" : "even", seat_name(winner),
                               match_->score()});
        if (match_->phase() == MatchPhase::finished && match_->winner()) {
            end_game({seat_name(*match_->winner()), "match_won"});
        } else {
            emit(round_started_event());
        }
    }
    commit(actor, request);
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
        json entry = {{"start", round.start},
                      {"object", round.object},
                      {"odd", seat_or_null(round.odd_player)},
                      {"moves", round.moves},
                      {"winner", seat_or_null(round.winner)}};
        entry.update(why_json(round));
        rounds.push_back(std::move(entry));
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
