#include "server/game/identity.h"

#include <chrono>

#include "server/game/secrets.h"

namespace server {

std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

IssuedIdentity Identities::new_guest(const std::optional<std::string>& name) {
    IssuedIdentity issued;
    issued.token = new_token();
    issued.record.id = random_id("p_");
    issued.record.name = name ? *name : "Guest " + std::to_string(1000 + random_below(9000));
    issued.record.token_hash = sha256_hex(issued.token);
    issued.record.created_at = unix_now();
    return issued;
}

core::Expected<std::optional<PlayerRecord>> Identities::restore(std::string_view token) {
    return store_.player_by_token_hash(sha256_hex(token));
}

}  // namespace server
