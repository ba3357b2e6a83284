#pragma once
// What an account's change means for the sessions open now, here and, in cluster mode, on every
// other node: a player muted (chat moderation, kept in memory: loaded at start, changed by
// admins) and a player signed out everywhere (logout everywhere, a new password, an account
// closed or registered). Each change is applied here at once and told to the other nodes as a
// record of the lobby channel ({"k": "muted" | "signed_out", ...}), which heard() applies there.
// Thread-safe.
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace server {

class Sessions;

class AccountNews {
public:
    // How a record reaches the other nodes (Relay::publish_lobby); unset: a node alone.
    using Share = std::function<void(nlohmann::json)>;

    explicit AccountNews(Sessions& sessions) : sessions_(sessions) {}
    // Cluster mode: from now on changes are told to the other nodes through `share`.
    void set_share(Share share);

    bool muted(std::string_view player_id);
    void set_muted(const std::string& player_id, bool muted);
    // The muted players as the store holds them (at start).
    void load_muted(const std::vector<std::string>& player_ids);
    // Every open session that speaks for `player_id`, except `except_client`, signs out.
    void sign_out(const std::string& player_id, std::uint64_t except_client,
                  const std::string& reason);
    // Another node's record of the lobby channel: applied here if it is account news (true),
    // else false (a seek or a game, for the lobby).
    bool heard(const nlohmann::json& record);

private:
    void mute_here(const std::string& player_id, bool muted);
    void sign_out_here(const std::string& player_id, std::uint64_t except_client,
                       const std::string& reason);
    void share(nlohmann::json record);

    Sessions& sessions_;
    std::mutex mutex_;  // guards what follows
    Share share_;
    std::set<std::string, std::less<>> muted_;
};

}  // namespace server
