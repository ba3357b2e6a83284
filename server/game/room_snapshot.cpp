// The whole room as one `snapshot` message (docs/protocol.md, "Snapshot").
#include "protocol/messages.h"
#include "server/game/room.h"

namespace server {

using nlohmann::json;

const core::Game& Room::current_game() const {
    return match_ ? match_->round() : *game_;
}

json Room::snapshot_json() const {
    const auto& game = current_game();
    json players = json::array();
    for (int seat = 0; seat < 2; ++seat) {
        const auto& player_id = record_.seats[static_cast<std::size_t>(seat)];
        const auto lag = seat_lag(seat);
        const auto claim = claim_in(seat);
        players.push_back({{"seat", seat_name(seat)},
                           {"id", player_id},
                           {"name", seat_names_[static_cast<std::size_t>(seat)]},
                           {"online", online(player_id)},
                           {"lag_ms", lag ? json(*lag) : json(nullptr)},
                           {"claim_in", claim ? json(*claim) : json(nullptr)}});
    }
    const auto seat_or_null = [&](std::optional<int> seat) {
        return seat ? json(seat_name(*seat)) : json(nullptr);
    };
    json snapshot = {{"game_id", id()},
                     {"version", log_.size()},
                     {"variant", record_.variant},
                     {"rules", record_.rules},
                     {"private", record_.is_private},
                     {"players", players},
                     {"start_fen", game.start_fen()},
                     {"moves", game.moves()},
                     {"positions", fens_}};
    snapshot.update(protocol::position_json(game));
    snapshot["result"] = result_ ? protocol::events::result_json(*result_) : json(nullptr);
    if (result_) {
        // Over by resignation or agreement too, not only by the rules: nobody is to move.
        snapshot["to_move"] = nullptr;
        snapshot["legal"] = json::array();
    }
    snapshot["draw_offer"] = seat_or_null(draw_offer_);
    snapshot["rematch_offer"] = seat_or_null(rematch_offer_);
    snapshot["takeback_offer"] = seat_or_null(takeback_offer_);
    snapshot.update(clock_fields());
    snapshot["rematch_game_id"] = rematch_game_ ? json(*rematch_game_) : json(nullptr);
    snapshot["spectators"] = spectator_count();
    json chat = json::array();
    for (const auto& line : chat_) {
        chat.push_back(line);
    }
    snapshot["chat"] = std::move(chat);
    snapshot["match"] = match_ ? match_json() : json(nullptr);
    snapshot["rated"] = record_.rated;
    snapshot["rating_change"] = rating_change_json();
    return snapshot;
}

}  // namespace server
