#pragma once
// What the server sends about accounts and ratings (issue 16; docs/protocol.md, "Accounts").
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace protocol {

struct AccountInfo {
    std::string username;
    bool admin = false;
};

nlohmann::json account_json(const AccountInfo& account);

// The answer to register and login: the player, its new secret token (like welcome), the
// account, and the unfinished games in which the player holds a seat.
std::string signed_in_message(const PlayerInfo& player, std::string_view token,
                              const AccountInfo& account, const std::vector<std::string>& games,
                              const nlohmann::json& id);
// The connection speaks for nobody any more: the answer to logout, and a push to the account's
// other connections after "log out everywhere", a password change or a closed account.
std::string signed_out_message(std::string_view reason, const nlohmann::json& id);
std::string password_changed_message(const nlohmann::json& id);
// The answer to admin_mute and admin_close: the player's moderation flags now.
std::string account_status_message(std::string_view player_id, std::string_view name, bool muted,
                                   bool closed, const nlohmann::json& id);

struct RatingSnapshot {
    double rating = 0.0;
    double rd = 0.0;
    double volatility = 0.0;
};
struct SeatRatingChange {
    std::string seat;
    std::string player_id;
    RatingSnapshot before;
    RatingSnapshot after;
};
// [{seat, player_id, before: {rating, rd, volatility}, after: {…}}], numbers unrounded.
nlohmann::json rating_changes_json(const std::vector<SeatRatingChange>& changes);
// Pushed to a room when its rated game's ratings are stored (with the game's end).
std::string rating_change_message(std::string_view game_id,
                                  const std::vector<SeatRatingChange>& changes);

}  // namespace protocol
