#include "server/game/passwords.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include <sodium.h>

#include "server/game/secrets.h"
#include "server/guard.h"

namespace server {

core::Expected<std::string> hash_password(std::string_view password, PasswordCost cost) {
    if (auto ready = init_secrets(); !ready) {
        return core::make_error(ready.error());
    }
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.ops, cost.memory_bytes,
                              crypto_pwhash_ALG_ARGON2ID13) != 0) {
        return core::make_error("password hashing failed (out of memory)");
    }
    return std::string(out);
}

bool verify_password(std::string_view hash, std::string_view password) {
    if (!init_secrets() || hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) {
        return false;
    }
    char stored[crypto_pwhash_STRBYTES] = {};
    hash.copy(stored, hash.size());
    return crypto_pwhash_str_verify(stored, password.data(), password.size()) == 0;
}

bool needs_rehash(std::string_view hash, PasswordCost cost) {
    if (hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) {
        return true;
    }
    char stored[crypto_pwhash_STRBYTES] = {};
    hash.copy(stored, hash.size());
    return crypto_pwhash_str_needs_rehash(stored, cost.ops, cost.memory_bytes) != 0;
}

const std::string& decoy_hash(PasswordCost cost) {
    static std::mutex mutex;
    static std::map<std::pair<std::uint64_t, std::size_t>, std::string> made;
    std::lock_guard lock(mutex);
    auto& hash = made[{cost.ops, cost.memory_bytes}];
    if (hash.empty()) {
        auto made_now = hash_password(random_hex(32), cost);
        hash = made_now ? *made_now : std::string();
    }
    return hash;
}

struct PasswordWorker::Queue {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;
    std::size_t max_pending = 0;
    bool stopping = false;
    std::thread thread;

    void run() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [&] { return stopping || !jobs.empty(); });
                if (jobs.empty()) {
                    return;
                }
                job = std::move(jobs.front());
                jobs.pop_front();
            }
            guarded("accounts", "password worker", job);
        }
    }
};

PasswordWorker::PasswordWorker(PasswordCost cost, std::size_t max_pending)
    : cost_(cost), queue_(std::make_unique<Queue>()) {
    queue_->max_pending = max_pending;
    queue_->thread = std::thread([queue = queue_.get()] { queue->run(); });
}

// Finishes the jobs queued (each only posts its answer to a strand) and joins the thread.
PasswordWorker::~PasswordWorker() {
    {
        std::lock_guard lock(queue_->mutex);
        queue_->stopping = true;
    }
    queue_->wake.notify_one();
    queue_->thread.join();
}

bool PasswordWorker::submit(std::function<void()> job) {
    {
        std::lock_guard lock(queue_->mutex);
        if (queue_->stopping || queue_->jobs.size() >= queue_->max_pending) {
            return false;
        }
        queue_->jobs.push_back(std::move(job));
    }
    queue_->wake.notify_one();
    return true;
}

}  // namespace server
