#pragma once
// Game analysis over HTTP (issue 25, docs/protocol.md "Game analysis"): POST
// /api/games/<id>/analysis asks for it (idempotent), GET /api/games/<id>/analysis reads it. The
// work is done by the analyses of the server state (server/analysis/analyses.h).
#include <optional>
#include <string>
#include <string_view>

#include "server/net/http_reply.h"

namespace server {

class ServerState;

// The reply to a GET (`post` false; HEAD too) or a POST of `target`, or nothing when `target`
// is not /api/games/<id>/analysis[?…]. `authorization` names the asking player (a bearer token,
// for private games and the per-player limit); `address` is the client's, for the per-address
// limit.
std::optional<HttpReply> serve_analysis(ServerState& state, bool post, std::string_view target,
                                        std::string_view authorization, const std::string& address);

}  // namespace server
