#pragma once
// Captures what some component loggers write while it lives. Create it before the server starts
// and let it go after the server stopped: spdlog's sink lists are not safe to change while other
// threads log.
#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <spdlog/sinks/base_sink.h>

#include "server/log.h"

namespace test {

class LogCapture {
public:
    explicit LogCapture(std::vector<std::string> components)
        : components_(std::move(components)), sink_(std::make_shared<Sink>()) {
        for (const auto& c : components_) {
            server::component_logger(c)->sinks().push_back(sink_);
        }
    }
    ~LogCapture() {
        for (const auto& c : components_) {
            auto& sinks = server::component_logger(c)->sinks();
            sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
        }
    }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    // Whether one line contains every one of `parts`.
    bool has_line_with(const std::vector<std::string>& parts) const {
        for (const auto& line : sink_->lines()) {
            if (std::all_of(parts.begin(), parts.end(), [&](const std::string& part) {
                    return line.find(part) != std::string::npos;
                })) {
                return true;
            }
        }
        return false;
    }
    std::string text() const {
        std::string all;
        for (const auto& line : sink_->lines()) {
            all += line;
        }
        return all;
    }

private:
    class Sink : public spdlog::sinks::base_sink<std::mutex> {
    public:
        std::vector<std::string> lines() {
            std::lock_guard lock(mutex_);
            return lines_;
        }

    protected:
        void sink_it_(const spdlog::details::log_msg& msg) override {
            spdlog::memory_buf_t formatted;
            formatter_->format(msg, formatted);
            lines_.push_back(fmt::to_string(formatted));
        }
        void flush_() override {}

    private:
        std::vector<std::string> lines_;
    };

    std::vector<std::string> components_;
    std::shared_ptr<Sink> sink_;
};

}  // namespace test
