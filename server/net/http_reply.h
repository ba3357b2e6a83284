#pragma once
// An HTTP answer before it meets the wire: what the static files and the JSON API produce, so that
// neither needs Beast.
#include <string>

namespace server {

struct HttpReply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
};

HttpReply json_reply(int status, std::string body);
HttpReply not_found_reply();

}  // namespace server
