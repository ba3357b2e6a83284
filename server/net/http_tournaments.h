#pragma once
// The tournament API (issue 43; docs/tournaments.md "HTTP API"), shaped like lichess's so that a
// program written for it needs only a new base URL: GET /api/tournament (created, started,
// finished), POST /api/tournament (create an arena from lichess's form fields), GET
// /api/tournament/<id>[?page=N], POST /api/tournament/<id>/join and /withdraw, GET
// /api/tournament/<id>/results (NDJSON) and /games (NDJSON). The asker is the account of the
// bearer token in `authorization` (the browser's session token). Runs on the blocking pool.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "server/net/http_reply.h"

namespace server {

class ServerState;

// The answer, or nothing when `target` is not a tournament path. `body` is a POST's
// application/x-www-form-urlencoded body.
std::optional<HttpReply> serve_tournaments(ServerState& state, bool post, std::string_view target,
                                           std::string_view authorization, std::string_view body);

// The fields of an application/x-www-form-urlencoded text ('+' a space, %XX a byte); nothing
// when an escape is malformed. A repeated name keeps its first value.
std::optional<std::map<std::string, std::string, std::less<>>> parse_form(std::string_view text);

}  // namespace server
