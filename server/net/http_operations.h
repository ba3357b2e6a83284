#pragma once
// The operator's endpoints (docs/operations.md): GET /metrics (Prometheus text format, behind
// --metrics-token when one is set) and GET /readyz (200 while the server is not draining, its store
// can be written and read and, in cluster mode, Redis answers, else 503 saying why; from what
// game/readiness.h last found). /healthz, which only says the process serves, is in http_api.h.
#include <optional>
#include <string_view>

#include "server/net/http_reply.h"

namespace server {

class ServerState;

// The reply for /metrics or /readyz, or nothing for any other target.
std::optional<HttpReply> serve_operations(ServerState& state, std::string_view target,
                                          std::string_view authorization);

}  // namespace server
