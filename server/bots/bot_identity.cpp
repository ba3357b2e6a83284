#include "server/bots/bot_identity.h"

#include "protocol/limits.h"

namespace server {

namespace {

constexpr std::string_view bot_id_prefix = "computer:";

}  // namespace

std::string bot_player_id(int level) {
    return std::string(bot_id_prefix) + std::to_string(level);
}

std::string bot_name(int level) {
    return "Computer level " + std::to_string(level);
}

std::optional<int> bot_level(std::string_view player_id) {
    if (player_id.size() != bot_id_prefix.size() + 1 ||
        player_id.substr(0, bot_id_prefix.size()) != bot_id_prefix) {
        return std::nullopt;
    }
    const int level = player_id.back() - '0';
    if (level < protocol::min_bot_level || level > protocol::max_bot_level) {
        return std::nullopt;
    }
    return level;
}

std::string bot_token_hash(int level) {
    return "computer-" + std::to_string(level);  // not hex: no SHA-256 is ever equal to it
}

}  // namespace server
