#include "server/game/throttle.h"

#include <utility>

#include "server/guard.h"

namespace server {

Throttle::Throttle(const Strand& strand, std::chrono::milliseconds interval, std::string label,
                   std::function<bool()> action)
    : timer_(strand), interval_(interval), label_(std::move(label)), action_(std::move(action)) {}

void Throttle::request(const std::weak_ptr<void>& owner) {
    if (held_) {
        due_ = true;
        return;
    }
    if (!action_()) {
        return;
    }
    held_ = true;
    timer_.expires_after(interval_);
    timer_.async_wait([this, owner](const boost::system::error_code& ec) {
        const auto alive = owner.lock();
        if (ec || !alive) {
            return;
        }
        guarded(
            "room", [&] { return label_; },
            [&] {
                held_ = false;
                if (due_) {
                    due_ = false;
                    request(owner);
                }
            });
    });
}

}  // namespace server
