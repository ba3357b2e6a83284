#include "server/game/client.h"

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "server/metrics/metrics.h"

namespace server {

Frame error_frame(protocol::ErrorCode code, std::string_view message, const nlohmann::json& id,
                  std::string_view game_id) {
    metrics().error_sent(code);
    return make_frame(protocol::error_message(code, message, id, game_id));
}

Frame error_frame(const protocol::ProtocolError& error, const nlohmann::json& id,
                  std::string_view game_id) {
    metrics().error_sent(error.code);
    return make_frame(protocol::error_message(error, id, game_id));
}

}  // namespace server
