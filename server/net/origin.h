#pragma once
// Which web pages may open a WebSocket to this server (issue 23): a browser names the page's
// origin in the upgrade's Origin header, and a page from another site must not act for the player
// whose cookies and storage it cannot see but whose browser it runs in.
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace server {

// The origins of a comma-separated list ("https://chess.example, http://localhost:3000"), each
// normalised (lower case, no default port); an error naming the first entry that is not
// scheme://host[:port] with scheme http or https. An empty list is fine.
core::Expected<std::vector<std::string>> parse_origin_list(std::string_view list);

// Whether an upgrade with `origin` (the Origin header, "" when absent) to a server reached as
// `host` (the Host header) may open: no Origin (not a browser), the server's own origin (http or
// https with the same host and port: a TLS proxy in front changes only the scheme), or one of
// `allowed` (normalised by parse_origin_list). "null" and anything malformed are refused.
bool origin_allowed(std::string_view origin, std::string_view host,
                    const std::vector<std::string>& allowed);

}  // namespace server
