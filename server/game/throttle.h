#pragma once
// At most one run of an action per interval, on a strand: the first request runs it at once, and
// the requests that come within the interval after a run are coalesced into one run at its end.
// A room's spectator count and its line in the lobby go through one each, so a burst of changes
// costs one frame a second, not one a change.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

namespace server {

class Throttle {
public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    // `action` runs on `strand` and returns whether it did something: only then does an interval
    // start. `label` names it in the log if it throws ("room <id>: spectators").
    Throttle(const Strand& strand, std::chrono::milliseconds interval, std::string label,
             std::function<bool()> action);

    // On the strand: runs the action now, or at the end of the current interval if one runs.
    // `owner` holds this throttle; the timer does nothing once it is gone.
    void request(const std::weak_ptr<void>& owner);

private:
    boost::asio::steady_timer timer_;
    std::chrono::milliseconds interval_;
    std::string label_;
    std::function<bool()> action_;
    bool held_ = false;  // the action ran less than an interval ago
    bool due_ = false;   // and was asked for again since
};

}  // namespace server
