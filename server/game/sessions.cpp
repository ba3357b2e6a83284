#include "server/game/sessions.h"

namespace server {

void Sessions::join(const std::shared_ptr<Client>& client) {
    std::lock_guard lock(mutex_);
    sessions_[client->client_id()] = client;
}

void Sessions::leave(std::uint64_t client_id) {
    std::lock_guard lock(mutex_);
    sessions_.erase(client_id);
}

std::vector<std::shared_ptr<Client>> Sessions::open(std::uint64_t except_client) {
    std::vector<std::shared_ptr<Client>> open;
    std::lock_guard lock(mutex_);
    for (auto& [id, weak] : sessions_) {
        if (id == except_client) {
            continue;
        }
        if (auto client = weak.lock()) {
            open.push_back(std::move(client));
        }
    }
    return open;
}

std::size_t Sessions::count() {
    std::lock_guard lock(mutex_);
    return sessions_.size();
}

}  // namespace server
