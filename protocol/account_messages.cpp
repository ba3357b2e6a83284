#include "protocol/account_messages.h"

namespace protocol {

using nlohmann::json;

namespace {

std::string finish(json message, const json& id) {
    if (!id.is_null()) {
        message["id"] = id;
    }
    return to_text(message);
}

json rating_json(const RatingSnapshot& r) {
    return {{"rating", r.rating}, {"rd", r.rd}, {"volatility", r.volatility}};
}

}  // namespace

json account_json(const AccountInfo& account) {
    return {{"username", account.username}, {"admin", account.admin}};
}

std::string signed_in_message(const PlayerInfo& player, std::string_view token,
                              const AccountInfo& account, const std::vector<std::string>& games,
                              const json& id) {
    return finish({{"type", "signed_in"},
                   {"player", player_json(player)},
                   {"token", token},
                   {"account", account_json(account)},
                   {"games", games}},
                  id);
}

std::string signed_out_message(std::string_view reason, const json& id) {
    return finish({{"type", "signed_out"}, {"reason", reason}}, id);
}

std::string password_changed_message(const json& id) {
    return finish({{"type", "password_changed"}}, id);
}

std::string account_status_message(std::string_view player_id, std::string_view name, bool muted,
                                   bool closed, const json& id) {
    return finish({{"type", "account_status"},
                   {"player", {{"id", player_id}, {"name", name}}},
                   {"muted", muted},
                   {"closed", closed}},
                  id);
}

json rating_changes_json(const std::vector<SeatRatingChange>& changes) {
    json out = json::array();
    for (const auto& c : changes) {
        out.push_back({{"seat", c.seat},
                       {"player_id", c.player_id},
                       {"before", rating_json(c.before)},
                       {"after", rating_json(c.after)}});
    }
    return out;
}

std::string rating_change_message(std::string_view game_id,
                                  const std::vector<SeatRatingChange>& changes) {
    return to_text(json{{"type", "rating_change"},
                        {"game_id", game_id},
                        {"changes", rating_changes_json(changes)}});
}

}  // namespace protocol
