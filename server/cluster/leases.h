#pragma once
// Cluster mode's room ownership (issue 27): a game is played on the one node that holds its lease
// in Redis. A lease is a key with a time to live that its node renews; each new lease of a game
// carries a fencing number greater than every earlier one, so a store can refuse the writes of a
// node that lost its lease without knowing it yet. docs/architecture.md, "Cluster mode: room
// ownership leases".
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/expected.h"
#include "server/cluster/redis_client.h"

namespace server::cluster {

// Room ownership across nodes: a game is owned by the one node holding its lease in Redis.
// Thread-safe: acquire, release and holds may be called from any thread while the renewal thread
// runs (acquire and release share one connection behind a mutex; renewal has its own).
class Leases {
public:
    struct Options {
        std::string url;                        // redis://… (parse_redis_url)
        std::string node_id;                    // unique per running node
        std::chrono::milliseconds ttl{5000};    // a lease not renewed for this long expires
        std::string key_prefix = "chessence:";  // tests use a unique prefix per test
        // Whether this node can still commit (its store's writer; issue 42): asked before each
        // renewal round, and while it says why not, no lease is renewed and the node does not
        // say it is alive, so its games go to a node that can play them once their leases run
        // out (within one ttl after the round before). Null: always healthy.
        std::function<core::Status()> healthy;
    };
    struct Claim {
        bool mine = false;       // this node holds the lease now
        std::int64_t fence = 0;  // the lease's fencing number (when mine, or the owner's)
        std::string owner;       // the owning node's id
        // A lease just taken (mine, not held before): how long the game had no live owner before,
        // by Redis's clock — since its last owner's last sign of life (a renewal round) when that
        // owner died, or since it gave the lease back. 0 when nothing is known of an owner.
        std::chrono::milliseconds unowned{0};
    };
    // Called from the renewal thread when a lease this node held was lost (expired or taken):
    // the node must stop acting for the game at once.
    // (It should return quickly: the next renewal round waits for it. It may call acquire or
    // release, but must not destroy the Leases.)
    using LostHandler = std::function<void(const std::string& game_id, std::int64_t fence)>;

    // Connects (twice) and starts the renewal thread; an error names what is wrong (the URL, the
    // node id, the ttl, or Redis).
    static core::Expected<std::unique_ptr<Leases>> open(Options options, LostHandler on_lost);
    Leases(const Leases&) = delete;
    Leases& operator=(const Leases&) = delete;
    ~Leases();  // stops renewing (does not release: a stopped node's leases expire)

    // Takes the game's lease if free (or returns this node's own, same fence); a fresh lease gets
    // a fence greater than both every fence Redis gave for the game and `floor` (the store's
    // newest fence, in case Redis lost its data). Another node's live lease: mine = false.
    core::Expected<Claim> acquire(const std::string& game_id, std::int64_t floor);
    // Gives the lease up if this node still holds it with this fence.
    void release(const std::string& game_id, std::int64_t fence);
    // Whether this node holds the game's lease with this fence and, by its own clock, it has not
    // expired.
    bool holds(const std::string& game_id, std::int64_t fence) const;
    // Those of `game_ids` whose lease is gone (no node holds one, this node included), in one
    // round trip to Redis (an MGET of their lease keys); an error when Redis cannot be asked.
    core::Expected<std::vector<std::string>> unleased(const std::vector<std::string>& game_ids);
    // Who holds the lease of each of `game_ids`, in their order: the node's id ("" where no node
    // holds one), in one round trip to Redis (an MGET of their lease keys); an error when Redis
    // cannot be asked. Any thread (the relay's sweep asks which owners still own its watched
    // games).
    core::Expected<std::vector<std::string>> holders(const std::vector<std::string>& game_ids);
    std::size_t held_count() const;
    const std::string& node_id() const;

    // What this node's leases did, for GET /metrics: read from atomics, so asking waits for
    // neither Redis nor the renewal thread.
    struct Stats {
        std::size_t held = 0;                // leases held now
        std::uint64_t renewal_failures = 0;  // renewal rounds that failed (Redis, or unhealthy)
        std::uint64_t lost = 0;              // leases lost: expired unrenewed, or taken
    };
    Stats stats() const;

private:
    using Clock = std::chrono::steady_clock;
    // A lease this node holds: its fence, and when it expires by this node's clock (ttl after the
    // start of the last command that set or renewed it).
    struct Held {
        std::int64_t fence = 0;
        Clock::time_point deadline;
    };
    // The SHA1s under which Redis caches the four scripts (SCRIPT LOAD at open; a Redis that
    // forgot them gets the text again through EVAL).
    struct ScriptShas {
        std::string acquire;
        std::string renew;
        std::string release;
        std::string alive;
    };

    Leases(Options options, LostHandler on_lost, ScriptShas shas,
           std::unique_ptr<RedisConnection> commands, std::unique_ptr<RedisConnection> renewals);
    std::string lease_key(const std::string& game_id) const;
    std::string fence_key(const std::string& game_id) const;
    std::string lease_value(std::int64_t fence) const;
    // Who held the game last (this run of a node: instance_, or "|<ms>" once given back), and
    // when this run was last alive (each renewal round): how long a game went without an owner.
    std::string holder_key(const std::string& game_id) const;
    std::string alive_key() const;
    // The lease keys of `game_ids`, read in one MGET on the commands connection: one reply each.
    core::Expected<std::vector<RedisReply>> lease_values(const std::vector<std::string>& game_ids);
    // Sets alive_key() to Redis's clock now.
    core::Status say_alive(RedisConnection& redis);
    void renew_loop();
    // One renewal round over every held lease (reporting those lost): how many Redis was asked
    // about, or why it could not be asked.
    core::Expected<std::size_t> renew_all();
    // Forgets the game's lease if it is still held with `fence`; true when it was.
    bool forget(const std::string& game_id, std::int64_t fence);

    const Options options_;
    const std::string instance_;  // this run: node id, '#', random
    const LostHandler on_lost_;
    ScriptShas shas_;

    std::mutex commands_mutex_;  // guards commands_
    std::unique_ptr<RedisConnection> commands_;
    std::unique_ptr<RedisConnection> renewals_;  // the renewal thread's own

    mutable std::mutex state_mutex_;  // guards held_ and stopping_
    std::map<std::string, Held, std::less<>> held_;
    bool stopping_ = false;
    // stats(): held_.size() as of its last change, and the counters the renewal thread keeps.
    std::atomic<std::size_t> held_now_{0};
    std::atomic<std::uint64_t> renewal_failures_{0};
    std::atomic<std::uint64_t> lost_{0};
    std::condition_variable wake_;
    std::thread renewer_;
};

}  // namespace server::cluster
