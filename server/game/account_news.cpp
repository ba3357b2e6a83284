#include "server/game/account_news.h"

#include <nlohmann/json.hpp>

#include "server/game/sessions.h"
#include "server/log.h"

namespace server {

void AccountNews::set_share(Share share) {
    std::lock_guard lock(mutex_);
    share_ = std::move(share);
}

bool AccountNews::muted(std::string_view player_id) {
    std::lock_guard lock(mutex_);
    return muted_.find(player_id) != muted_.end();
}

void AccountNews::set_muted(const std::string& player_id, bool muted) {
    mute_here(player_id, muted);
    share({{"k", "muted"}, {"player", player_id}, {"on", muted}});
}

void AccountNews::load_muted(const std::vector<std::string>& player_ids) {
    std::lock_guard lock(mutex_);
    muted_.insert(player_ids.begin(), player_ids.end());
}

void AccountNews::mute_here(const std::string& player_id, bool muted) {
    std::lock_guard lock(mutex_);
    if (muted) {
        muted_.insert(player_id);
    } else {
        muted_.erase(player_id);
    }
}

void AccountNews::sign_out(const std::string& player_id, std::uint64_t except_client,
                           const std::string& reason) {
    sign_out_here(player_id, except_client, reason);
    share({{"k", "signed_out"}, {"player", player_id}, {"reason", reason}});
}

void AccountNews::sign_out_here(const std::string& player_id, std::uint64_t except_client,
                                const std::string& reason) {
    for (auto& client : sessions_.open(except_client)) {
        client->signed_out(player_id, reason);
    }
}

void AccountNews::share(nlohmann::json record) {
    Share share;
    {
        std::lock_guard lock(mutex_);
        share = share_;
    }
    if (share) {
        share(std::move(record));
    }
}

bool AccountNews::heard(const nlohmann::json& record) {
    const auto kind = record.value("k", "");
    if (kind != "muted" && kind != "signed_out") {
        return false;
    }
    const auto player = record.value("player", "");
    if (player.empty()) {
        component_logger("relay")->warn("node {}: a {} record without its player",
                                        record.value("node", "?"), kind);
    } else if (kind == "muted") {
        mute_here(player, record.value("on", false));
    } else {
        sign_out_here(player, 0, record.value("reason", "logout_everywhere"));
    }
    return true;
}

}  // namespace server
