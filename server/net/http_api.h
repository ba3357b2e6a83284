#pragma once
// The JSON (and PGN) endpoints: /healthz, /api/games/<id>, /api/games/<id>.pgn,
// /api/players/<id>/games?page=N, /api/legal?variant=…&fen=…&moves=…, /api/seeks/<id>.
// Anything else is not an API path.
#include <optional>
#include <string_view>

#include "server/net/http_reply.h"
#include "server/store/store.h"

namespace server {

// The reply for an API path, or nothing when `target` is not one (then it is a static file).
std::optional<HttpReply> serve_api(Store& store, std::string_view target);

}  // namespace server
