#pragma once
// An HTTP answer before it meets the wire: what the static files and the JSON API produce, so that
// neither needs Beast.
#include <string>
#include <string_view>

namespace server {

struct HttpReply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
};

HttpReply json_reply(int status, std::string body);
HttpReply not_found_reply();
// 400 with a JSON body {"error": message}.
HttpReply bad_request_reply(const std::string& message);
// A store read failed: logs `error` (component "http") and answers 500 with a JSON body
// {"error": "the server could not read <what>; try again"}, never 404 or an empty list.
HttpReply read_failed_reply(std::string_view what, std::string_view error);

}  // namespace server
