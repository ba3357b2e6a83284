#pragma once
// The rooms in memory, by game id (issue 23), with at most one live copy of each game:
// - a room is loaded from the store outside the registry's lock, one load per id at a time (a
//   second caller for the same id waits for the first one's result instead of reading again, at
//   most load_wait: then it gets an error, and its requester tries again);
// - an id the store does not know is remembered for a while (unknown_ttl, at most unknown_max ids),
//   so a flood of made-up ids costs one read per id, not one per request; a failed read is never
//   remembered (the next request reads again);
// - a finished room nobody watches is released, but kept weakly: while anything still holds it
//   (a session, a handler in flight), the same object comes back instead of a second copy.
// get() reads the store (the loader) or waits for another thread's read: only the blocking pool's
// threads call it (RoomDirectory::lookup), never an I/O thread, a strand or the relay's receiving
// thread (issue 42). Everything else here takes only the mutex, held for map operations alone,
// and may be called from any thread.
// A template only so that its tests need no real rooms; the server uses RoomRegistry (below).
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace server {

template <class T>
class Registry {
public:
    using Clock = std::chrono::steady_clock;
    // Reads a game's room from the store: null when there is no such game, an error when the
    // store could not be read.
    using Loader = std::function<core::Expected<std::shared_ptr<T>>(std::string_view id)>;

    static constexpr std::chrono::seconds unknown_ttl{30};
    static constexpr std::size_t unknown_max = 10000;
    // How long a second caller waits for another's load of the same id (the store's reads have
    // deadlines of their own; this bounds the wait should a load outlast them).
    static constexpr std::chrono::seconds load_wait{30};
    // The error a caller gets when that wait ran out.
    static constexpr std::string_view still_loading_text =
        "another request is still loading this game";

    explicit Registry(Loader load, std::function<Clock::time_point()> now = &Clock::now)
        : load_(std::move(load)), now_(std::move(now)) {}

    // The room of `id`, loaded if needed (see above); null when there is no such game. Blocks:
    // pool threads only.
    core::Expected<std::shared_ptr<T>> get(std::string_view id) { return get(id, load_); }

    // As get(id), with `load` in place of the registry's loader should this call be the one that
    // loads (a caller that has read the game's record already hands over what it read).
    core::Expected<std::shared_ptr<T>> get(std::string_view id, const Loader& load) {
        std::unique_lock lock(mutex_);
        const auto give_up = std::chrono::steady_clock::now() + load_wait;
        for (;;) {
            if (auto room = find(id)) {
                return room;
            }
            if (auto unknown = unknown_.find(id); unknown != unknown_.end()) {
                if (now_() < unknown->second) {
                    return std::shared_ptr<T>();
                }
                unknown_.erase(unknown);
            }
            if (!loading_.count(id)) {
                break;
            }
            // Another thread reads this game; its result serves us too.
            if (loaded_.wait_until(lock, give_up) == std::cv_status::timeout &&
                loading_.count(id)) {
                return core::make_error(std::string(still_loading_text));
            }
        }
        const std::string key(id);
        loading_.insert(key);
        lock.unlock();
        core::Expected<std::shared_ptr<T>> result = core::make_error("not loaded");
        try {
            result = load(id);
        } catch (...) {
            finish_load(key);
            throw;
        }
        lock.lock();
        loading_.erase(key);
        if (result && *result) {
            rooms_[key] = Entry{*result, *result};
        } else if (result) {
            remember_unknown(key);
        }
        loaded_.notify_all();
        return result;
    }

    // Whether `id` is remembered as no game (reads nothing).
    bool known_unknown(std::string_view id) {
        std::lock_guard lock(mutex_);
        const auto unknown = unknown_.find(id);
        return unknown != unknown_.end() && now_() < unknown->second;
    }

    // Registers a room whose game was just created (or restored at start-up).
    void add(const std::string& id, std::shared_ptr<T> room) {
        std::lock_guard lock(mutex_);
        unknown_.erase(id);
        rooms_[id] = Entry{room, room};
    }

    // The room of `id` if it is in memory, else null (reads nothing).
    std::shared_ptr<T> loaded(std::string_view id) {
        std::lock_guard lock(mutex_);
        return find(id);
    }

    // Stops holding the room of `id` (a finished game nobody watches); it stays reachable while
    // anything else holds it.
    void release(std::string_view id) {
        std::lock_guard lock(mutex_);
        if (auto it = rooms_.find(id); it != rooms_.end()) {
            it->second.held.reset();
        }
        if (++releases_ % 64 == 0) {
            for (auto it = rooms_.begin(); it != rooms_.end();) {
                it =
                    !it->second.held && it->second.any.expired() ? rooms_.erase(it) : std::next(it);
            }
        }
    }

    // Forgets `id` if its live copy is `room` (one that stopped acting for its game): the next
    // get() loads the game afresh. Another copy registered since is left alone.
    void forget(std::string_view id, const T* room) {
        std::lock_guard lock(mutex_);
        auto it = rooms_.find(id);
        if (it == rooms_.end()) {
            return;
        }
        const auto any = it->second.any.lock();
        if (it->second.held.get() == room || any.get() == room) {
            rooms_.erase(it);
        }
    }

    // Every room held, for walks over them outside the lock.
    std::vector<std::shared_ptr<T>> held() {
        std::lock_guard lock(mutex_);
        std::vector<std::shared_ptr<T>> rooms;
        for (const auto& [id, entry] : rooms_) {
            if (entry.held) {
                rooms.push_back(entry.held);
            }
        }
        return rooms;
    }

    std::size_t held_count() {
        std::lock_guard lock(mutex_);
        std::size_t count = 0;
        for (const auto& [id, entry] : rooms_) {
            count += entry.held ? 1 : 0;
        }
        return count;
    }

    std::size_t unknown_count() {
        std::lock_guard lock(mutex_);
        return unknown_.size();
    }

private:
    struct Entry {
        std::shared_ptr<T> held;  // null once released
        std::weak_ptr<T> any;     // the one copy, while anything holds it
    };

    // The live copy of `id`, held again if it had been released. Call with the lock held.
    std::shared_ptr<T> find(std::string_view id) {
        auto it = rooms_.find(id);
        if (it == rooms_.end()) {
            return nullptr;
        }
        if (!it->second.held) {
            it->second.held = it->second.any.lock();
            if (!it->second.held) {
                rooms_.erase(it);
                return nullptr;
            }
        }
        return it->second.held;
    }

    void remember_unknown(const std::string& id) {
        if (unknown_.size() >= unknown_max) {
            // Forget the oldest half: a flood of made-up ids cannot grow the memory.
            while (unknown_order_.size() > unknown_max / 2) {
                unknown_.erase(unknown_order_.front());
                unknown_order_.pop_front();
            }
        }
        if (unknown_.insert_or_assign(id, now_() + unknown_ttl).second) {
            unknown_order_.push_back(id);
        }
        if (unknown_order_.size() > 2 * unknown_max) {  // ids forgotten one by one since
            unknown_order_.clear();
            for (const auto& [known, until] : unknown_) {
                unknown_order_.push_back(known);
            }
        }
    }

    void finish_load(const std::string& id) {
        std::lock_guard lock(mutex_);
        loading_.erase(id);
        loaded_.notify_all();
    }

    Loader load_;
    std::function<Clock::time_point()> now_;
    std::mutex mutex_;
    std::condition_variable loaded_;
    std::map<std::string, Entry, std::less<>> rooms_;
    std::set<std::string, std::less<>> loading_;
    std::map<std::string, Clock::time_point, std::less<>> unknown_;  // id → forgotten at
    std::deque<std::string> unknown_order_;
    std::size_t releases_ = 0;
};

class Room;
using RoomRegistry = Registry<Room>;

}  // namespace server
