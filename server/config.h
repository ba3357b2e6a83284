#pragma once
// The server's configuration from command-line flags and their environment equivalents (a flag
// wins over the environment, the environment over the default). The flags are parsed by CLI11; the
// table of flags is `flags()` in config.cpp: a new setting is one entry there.
#include <string>
#include <vector>

#include "core/expected.h"
#include "server/server.h"

namespace server {

struct Config {
    ServerOptions server;
    std::string db = "data/chessence.db";  // ":memory:" for an in-memory store
    int store_timeout_ms = 5000;           // a PostgreSQL call's deadline (pg::default_timeout)
    std::string log_level = "info";        // checked with is_log_level (server/log.h)
    // Issue 43: the file the scheduled arenas come from ("" the default schedule); its arenas are
    // read into server.tournament_schedule by parse_config.
    std::string tournament_schedule_file;
    bool help = false;  // --help was given: print usage_text() and stop
};

// `args` without the program name; `getenv` looks up an environment variable (nullptr if unset).
// An error names the flag (or the environment variable) and says what it accepts; a schedule
// file (--tournament-schedule) that cannot be read or is not a schedule is an error naming the
// file and the problem.
core::Expected<Config> parse_config(const std::vector<std::string>& args,
                                    const char* (*getenv)(const char*));

// The --help text: every flag with its environment variable, accepted values and default.
std::string usage_text();

}  // namespace server
