#pragma once
// Exception containment: no exception may take the process down or silently kill a session. Run
// handler code through guarded(); report a coroutine's exception_ptr with log_exception().
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "server/log.h"

namespace server {

// What an exception says: its what() for a std::exception, "unknown exception" otherwise.
inline std::string describe_exception(const std::exception_ptr& error) {
    if (!error) {
        return "no exception";
    }
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "unknown exception (not a std::exception)";
    }
}

// `context` is text, or a callable returning text (built only when something is logged).
template <class Context>
std::string context_text(const Context& context) {
    if constexpr (std::is_invocable_v<const Context&>) {
        return std::string(context());
    } else {
        return std::string(std::string_view(context));
    }
}

// Logs `error` at error level on `component`'s logger as "<context>: exception: <what>". Never
// throws (a failure to log is dropped).
template <class Context>
void log_exception(std::string_view component, const Context& context,
                   const std::exception_ptr& error) noexcept {
    try {
        component_logger(component)->error("{}: exception: {}", context_text(context),
                                           describe_exception(error));
    } catch (...) {
    }
}

// Runs `work()`. If it throws (anything), the exception is logged with `context` on `component`'s
// logger and swallowed; returns whether `work` finished normally. Example, in a strand handler:
//   guarded("room", [&] { return "game " + id_ + ": " + what; }, [&] { handle(request); });
template <class Context, class Work>
bool guarded(std::string_view component, const Context& context, Work&& work) noexcept {
    try {
        std::forward<Work>(work)();
        return true;
    } catch (...) {
        log_exception(component, context, std::current_exception());
        return false;
    }
}

}  // namespace server
