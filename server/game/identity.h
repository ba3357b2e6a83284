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

    // A new guest ("Guest 4821" unless a valid name is given) with its secret token. Not stored
    // yet: commit InsertPlayer{issued.record} before using it.
    static IssuedIdentity new_guest(const std::optional<std::string>& name);
    // The identity whose token this is, or nothing (the token is unknown); an error when the store
    // could not be read (the token may well be good: never treat that as unknown).
    core::Expected<std::optional<PlayerRecord>> restore(std::string_view token);

private:
    Store& store_;
};

std::int64_t unix_now();

}  // namespace server
