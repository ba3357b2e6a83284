#pragma once
// Player identities: guests get a random public id and a secret token; only the token's SHA-256 is
// stored, so a stolen database does not hand out sessions.
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "server/store/store.h"

namespace server {

struct IssuedIdentity {
    PlayerRecord record;
    std::string token;  // shown to the client once, in `welcome`
};

class Identities {
public:
    explicit Identities(Store& store) : store_(store) {}

    // A new guest ("Guest 4821" unless a valid name is given), saved before it is returned.
    core::Expected<IssuedIdentity> create_guest(const std::optional<std::string>& name);
    // The identity whose token this is, or nothing.
    std::optional<PlayerRecord> restore(std::string_view token);
    // Renames a player (the name has been validated by the protocol layer).
    core::Status rename(std::string_view player_id, const std::string& name);

private:
    Store& store_;
};

std::int64_t unix_now();

}  // namespace server
