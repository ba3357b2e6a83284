#pragma once
// The server's configuration from command-line flags and their environment equivalents (a flag
// wins over the environment, the environment over the default).
#include <string>
#include <vector>

#include "core/expected.h"
#include "server/server.h"

namespace server {

struct Config {
    ServerOptions server;
    std::string db = "data/chessence.db";  // ":memory:" for an in-memory store
    std::string log_level = "info";
    bool help = false;
};

// `args` without the program name; `getenv` looks up an environment variable (nullptr if unset).
core::Expected<Config> parse_config(const std::vector<std::string>& args,
                                    const char* (*getenv)(const char*));

std::string usage_text();

}  // namespace server
