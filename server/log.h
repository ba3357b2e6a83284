#pragma once
// One spdlog logger per component ("server", "http", "ws", "lobby", "room", …), all writing to
// stderr. Looking a logger up takes no lock: loggers are created once and never removed.
#include <memory>
#include <string_view>

#include <spdlog/spdlog.h>

namespace server {

// The logger of `component`, created on first use at the current level. The reference stays valid
// for the life of the process.
const std::shared_ptr<spdlog::logger>& component_logger(std::string_view component);
// Whether `level` names a level (trace, debug, info, warn, error, critical, off).
bool is_log_level(std::string_view level);
// Sets the level of every component logger, present and future; false for an unknown name.
bool set_log_level(std::string_view level);

}  // namespace server
