#pragma once
// Passwords: Argon2id hashes from libsodium (crypto_pwhash_str, whose output carries the algorithm,
// its parameters and a random salt), checked in constant time (crypto_pwhash_str_verify), and a
// small worker thread that does this slow work away from the I/O threads, the room strands and
// the store's writer. A password is never logged and never stored.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "server/limits.h"

namespace server {

// Argon2id's cost: passes over memory and memory in bytes. The defaults are libsodium's
// "interactive" limits for Argon2id (2 passes, 64 MiB); tests use the minimum (1 pass, 8 KiB).
struct PasswordCost {
    std::uint64_t ops = default_password_ops;
    std::size_t memory_bytes = default_password_memory;
};

inline constexpr PasswordCost cheapest_password_cost{1, 8192};

// The crypto_pwhash_str text for `password` (Argon2id v1.3), or an error (out of memory).
core::Expected<std::string> hash_password(std::string_view password, PasswordCost cost);
// True when `password` matches `hash` (a crypto_pwhash_str text); false for anything else,
// including a hash that is not one. The comparison takes the same time wherever they differ.
bool verify_password(std::string_view hash, std::string_view password);
// True when `hash` was made with other parameters than `cost` (then it is worth rehashing).
bool needs_rehash(std::string_view hash, PasswordCost cost);
// A valid hash of no password anyone knows, made once per cost: verifying against it takes as
// long as a real check, so a wrong username costs the same time as a wrong password.
const std::string& decoy_hash(PasswordCost cost);

// One worker thread with a bounded queue. Argon2id uses cost.memory_bytes per hash, so one thread
// bounds the memory password checks can take; a flood waits in the queue or is refused.
class PasswordWorker {
public:
    explicit PasswordWorker(PasswordCost cost, std::size_t max_pending = password_queue);
    ~PasswordWorker();
    PasswordWorker(const PasswordWorker&) = delete;
    PasswordWorker& operator=(const PasswordWorker&) = delete;

    const PasswordCost& cost() const { return cost_; }
    // Runs `job` on the worker thread, after the jobs before it. False (and nothing queued) when
    // max_pending jobs are waiting already, or the worker is stopping.
    bool submit(std::function<void()> job);

private:
    struct Queue;
    PasswordCost cost_;
    std::unique_ptr<Queue> queue_;
};

}  // namespace server
