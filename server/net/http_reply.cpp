#include "server/net/http_reply.h"

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "server/log.h"

namespace server {

HttpReply bad_request_reply(const std::string& message) {
    return json_reply(400, protocol::to_text(nlohmann::json{{"error", message}}));
}

HttpReply read_failed_reply(std::string_view what, std::string_view error) {
    component_logger("http")->error("cannot read {}: {}", what, error);
    const nlohmann::json body = {
        {"error", "the server could not read " + std::string(what) + "; try again"}};
    return json_reply(500, body.dump());
}

}  // namespace server
