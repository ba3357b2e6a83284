#pragma once
// One spdlog logger per component ("server", "http", "ws", "lobby", "room"), all writing to stderr.
#include <memory>
#include <string_view>

#include <spdlog/spdlog.h>

namespace server {

// The logger of `component`, created on first use at the current default level.
std::shared_ptr<spdlog::logger> component_logger(std::string_view component);
// Sets the level of every component logger, present and future; false for an unknown name.
bool set_log_level(std::string_view level);

}  // namespace server
