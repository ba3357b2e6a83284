#pragma once
// Files under the web root. A request path is percent-decoded once and refused if it holds "..",
// a backslash or a NUL; the resolved file (symlinks followed) must still lie inside the root.
#include <optional>
#include <string>
#include <string_view>

#include "server/net/http_reply.h"

namespace server {

// The MIME type for a file name by its extension.
std::string_view mime_type(std::string_view file_name);
// The file for `target` (query string ignored): 200 with its bytes, 400 for a refused path, 404.
// `/` and directories serve their index.html; a path without an extension that names no file
// serves the root's index.html (client-side routes such as /game/g_…).
HttpReply serve_static(const std::string& web_root, std::string_view target);

}  // namespace server
