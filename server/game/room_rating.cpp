// Rated games (issue 16): the game's end and both players' new ratings are one batch; once it is
// stored the room pushes the rating change to everyone in it and keeps it for snapshots.
#include <memory>

#include "protocol/account_messages.h"
#include "server/blocking_pool.h"
#include "server/game/identity.h"
#include "server/game/rating_rules.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using nlohmann::json;

std::optional<WriteOp> Room::rating_write(const protocol::events::Result& result) const {
    if (!record_.rated) {
        return std::nullopt;
    }
    const auto score = first_seat_score(result, game_.seat_name(0));
    if (!score) {
        return std::nullopt;
    }
    return WriteOp(rate_game_write(record_, *score, unix_now()));
}

void Room::load_rating_change() {
    rating_change_.clear();
    if (!record_.rated || !game_.result) {
        return;
    }
    set_rating_change(state_.store().game_ratings(id()));
}

void Room::set_rating_change(const core::Expected<std::vector<GameRating>>& rows) {
    rating_change_.clear();
    if (!rows) {
        component_logger("room")->error("game {}: {}", id(), rows.error());
        return;
    }
    for (const auto& row : *rows) {
        rating_change_.push_back({game_.seat_name(row.seat),
                                  row.player_id,
                                  {row.before.rating, row.before.rd, row.before.volatility},
                                  {row.after.rating, row.after.rd, row.after.volatility}});
    }
}

void Room::announce_rating_change() {
    rating_change_.clear();
    if (!record_.rated || !game_.result) {
        return;
    }
    auto rows =
        std::make_shared<core::Expected<std::vector<GameRating>>>(core::make_error("not read"));
    const bool handed = off_strand(
        [this, rows] {
            *rows = state_.store().game_ratings(id());
            return core::ok_status();
        },
        [this, rows](const core::Status& status) {
            if (!status) {
                *rows = core::make_error(status.error());
            }
            set_rating_change(*rows);
            for (const auto& change : rating_change_) {
                component_logger("room")->info(
                    "game {}: {} {} -> {} (rd {} -> {})", id(), change.player_id,
                    change.before.rating, change.after.rating, change.before.rd, change.after.rd);
            }
            if (!rating_change_.empty()) {
                broadcast(make_frame(protocol::rating_change_message(id(), rating_change_)));
            }
            take_waiting();
        });
    if (!handed) {
        component_logger("room")->error("game {}: the rating change is not read: {}", id(),
                                        pool_busy_text);
    }
}

json Room::rating_change_json() const {
    return rating_change_.empty() ? json(nullptr) : protocol::rating_changes_json(rating_change_);
}

}  // namespace server
