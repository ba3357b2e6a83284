#include "server/log.h"

#include <array>
#include <atomic>
#include <cassert>
#include <mutex>
#include <string>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace server {

namespace {

// An append-only table of loggers. Readers scan the published prefix without a lock; a writer
// (a component's first use, or a level change) holds `mutex`, fills the next slot and then
// publishes it by raising `count` (release), so a reader that sees the count sees the slot.
struct LoggerRegistry {
    static constexpr std::size_t capacity = 32;

    LoggerRegistry() {
        for (const char* name : {"server", "http", "ws", "lobby", "room", "store"}) {
            add(name);
        }
    }

    // Creates the logger `name` in the next slot; the caller holds `mutex` (or is the constructor).
    const std::shared_ptr<spdlog::logger>& add(std::string_view name) {
        const auto n = count.load(std::memory_order_relaxed);
        assert(n < capacity && "more logger components than LoggerRegistry::capacity");
        if (n == capacity) {
            return loggers[0];
        }
        names[n] = std::string(name);
        loggers[n] = std::make_shared<spdlog::logger>(names[n], sink);
        loggers[n]->set_level(level);
        loggers[n]->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%-5l%$ [%n] %v");
        count.store(n + 1, std::memory_order_release);
        return loggers[n];
    }

    // The published logger `name`, or null.
    const std::shared_ptr<spdlog::logger>* find(std::string_view name) const {
        const auto n = count.load(std::memory_order_acquire);
        for (std::size_t i = 0; i < n; ++i) {
            if (names[i] == name) {
                return &loggers[i];
            }
        }
        return nullptr;
    }

    std::shared_ptr<spdlog::sinks::stderr_color_sink_mt> sink =
        std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    spdlog::level::level_enum level = spdlog::level::info;  // guarded by `mutex`
    std::array<std::string, capacity> names;
    std::array<std::shared_ptr<spdlog::logger>, capacity> loggers;
    std::atomic<std::size_t> count{0};
    std::mutex mutex;
};

LoggerRegistry& registry() {
    static LoggerRegistry instance;
    return instance;
}

}  // namespace

const std::shared_ptr<spdlog::logger>& component_logger(std::string_view component) {
    auto& r = registry();
    if (const auto* found = r.find(component)) {
        return *found;
    }
    std::lock_guard lock(r.mutex);
    if (const auto* found = r.find(component)) {
        return *found;
    }
    return r.add(component);
}

bool is_log_level(std::string_view level) {
    return spdlog::level::from_str(std::string(level)) != spdlog::level::off || level == "off";
}

bool set_log_level(std::string_view level) {
    if (!is_log_level(level)) {
        return false;
    }
    const auto parsed = spdlog::level::from_str(std::string(level));
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    r.level = parsed;
    const auto n = r.count.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < n; ++i) {
        r.loggers[i]->set_level(parsed);  // spdlog keeps the level in an atomic
    }
    return true;
}

}  // namespace server
