#include "server/log.h"

#include <mutex>
#include <string>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace server {

namespace {

std::mutex& registry_mutex() {
    static std::mutex mutex;
    return mutex;
}

spdlog::level::level_enum& current_level() {
    static spdlog::level::level_enum level = spdlog::level::info;
    return level;
}

}  // namespace

std::shared_ptr<spdlog::logger> component_logger(std::string_view component) {
    std::lock_guard lock(registry_mutex());
    const std::string name(component);
    if (auto existing = spdlog::get(name)) {
        return existing;
    }
    static auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto logger = std::make_shared<spdlog::logger>(name, sink);
    logger->set_level(current_level());
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%-5l%$ [%n] %v");
    spdlog::register_logger(logger);
    return logger;
}

bool set_log_level(std::string_view level) {
    const auto parsed = spdlog::level::from_str(std::string(level));
    if (parsed == spdlog::level::off && level != "off") {
        return false;
    }
    std::lock_guard lock(registry_mutex());
    current_level() = parsed;
    spdlog::apply_all([parsed](const std::shared_ptr<spdlog::logger>& l) { l->set_level(parsed); });
    return true;
}

}  // namespace server
