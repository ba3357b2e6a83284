#pragma once
// Exception containment: no exception from a handler may take the process down. `guarded` runs a
// callable; anything it throws is logged with the context (built only then) and swallowed.
#include <exception>
#include <string>

#include "server/log.h"

namespace server {

// Runs `body`; an exception is logged as "<context()>: <what>" on the "guard" logger. Returns
// false if `body` threw.
template <class Context, class Body>
bool guarded(Context&& context, Body&& body) {
    try {
        body();
        return true;
    } catch (const std::exception& e) {
        component_logger("guard")->error("{}: unexpected exception: {}", std::string(context()),
                                         e.what());
    } catch (...) {
        component_logger("guard")->error("{}: unexpected exception", std::string(context()));
    }
    return false;
}

}  // namespace server
