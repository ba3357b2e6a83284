#pragma once
// The open sessions of this node, by client id: what the drain tells and closes, what a sign-out
// reaches, and the count GET /metrics shows. A session joins when its WebSocket opens and leaves
// when it closes; the table holds weak references only. Thread-safe.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "server/game/client.h"

namespace server {

class Sessions {
public:
    void join(const std::shared_ptr<Client>& client);
    void leave(std::uint64_t client_id);
    // The sessions still open, but `except_client`'s (0: none excepted).
    std::vector<std::shared_ptr<Client>> open(std::uint64_t except_client = 0);
    std::size_t count();
    // A new client id, never given before in this process (sessions and remote clients alike).
    std::uint64_t next_client_id() { return ++last_client_id_; }

private:
    std::mutex mutex_;
    std::map<std::uint64_t, std::weak_ptr<Client>> sessions_;
    std::atomic<std::uint64_t> last_client_id_{0};
};

}  // namespace server
