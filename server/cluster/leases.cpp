#include "server/cluster/leases.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <iterator>
#include <optional>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "server/log.h"

namespace server::cluster {

namespace {

// The shortest ttl accepted: renewal runs every ttl/3.
constexpr std::chrono::milliseconds min_lease_ttl{30};
// A renewal round sends at most this many scripts in one pipeline.
constexpr std::size_t renewals_per_round = 512;

// How long the traces of an owner (holder and alive keys) are kept: a game untouched for longer
// is taken over without knowing for how long it had no owner.
constexpr std::chrono::hours owner_traces_kept{24 * 7};

// KEYS: lease, fence, holder. ARGV: node id, ttl in ms, floor, instance, alive key prefix, keep
// ms. A live lease is returned as it is (and refreshed when it is this node's), with 0; a free one
// gets the next fence, above `floor`, with how long the game had no owner (ms, by Redis's clock):
// since its holder's last sign of life, or since it was given back.
constexpr std::string_view acquire_lua = R"lua(
local held = redis.call('GET', KEYS[1])
if held then
  if string.sub(held, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  end
  return {held, 0}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local unowned = 0
local holder = redis.call('GET', KEYS[3])
if holder then
  local since = nil
  if string.sub(holder, 1, 1) == '|' then
    since = tonumber(string.sub(holder, 2))
  else
    since = tonumber(redis.call('GET', ARGV[5] .. holder))
  end
  if since and now > since then
    unowned = now - since
  end
end
local fence = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if fence <= floor then
  fence = floor + 1
  redis.call('SET', KEYS[2], string.format('%d', fence))
end
local value = ARGV[1] .. '|' .. string.format('%d', fence)
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[6])
return {value, unowned}
)lua";

// KEYS: lease. ARGV: "node|fence", ttl in ms. 1 when renewed, 0 when the lease is gone or taken.
constexpr std::string_view renew_lua = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
)lua";

// KEYS: lease, holder. ARGV: "node|fence", instance, keep ms. 1 when deleted (the holder then
// says when it was given back), 0 when it was no longer this lease.
constexpr std::string_view release_lua = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if redis.call('GET', KEYS[2]) == ARGV[2] then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    redis.call('SET', KEYS[2], '|' .. string.format('%d', now), 'PX', ARGV[3])
  end
  return 1
end
return 0
)lua";

// KEYS: alive. ARGV: keep ms. The key holds Redis's clock now, in ms.
constexpr std::string_view alive_lua = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], string.format('%d', now), 'PX', ARGV[1])
return 1
)lua";

// This run's name among the holders of games: the node id and a random suffix (a node restarted
// with the same id is another run, whose liveness says nothing of the one before).
std::string new_instance(const std::string& node_id) {
    std::random_device random;
    std::uniform_int_distribution<std::uint64_t> digits;
    char suffix[17];
    std::snprintf(suffix, sizeof suffix, "%016llx",
                  static_cast<unsigned long long>(digits(random)));
    return node_id + "#" + suffix;
}

const std::shared_ptr<spdlog::logger>& cluster_log() {
    return component_logger("cluster");
}

// EVALSHA `sha` (or, by_text, EVAL `text`) with `keys` and `args`.
std::vector<std::string> script_command(std::string_view text, const std::string& sha, bool by_text,
                                        std::vector<std::string> keys,
                                        std::vector<std::string> args) {
    std::vector<std::string> argv = {by_text ? "EVAL" : "EVALSHA",
                                     by_text ? std::string(text) : sha,
                                     std::to_string(keys.size())};
    std::move(keys.begin(), keys.end(), std::back_inserter(argv));
    std::move(args.begin(), args.end(), std::back_inserter(argv));
    return argv;
}

bool is_noscript(std::string_view error) {
    return error.find("NOSCRIPT") != std::string_view::npos;
}

// Runs a script by its SHA1, and by its text when Redis no longer has it cached.
core::Expected<RedisReply> run_script(RedisConnection& redis, std::string_view text,
                                      const std::string& sha, std::vector<std::string> keys,
                                      std::vector<std::string> args) {
    auto reply = redis.command(script_command(text, sha, false, keys, args));
    if (!reply && is_noscript(reply.error())) {
        reply = redis.command(script_command(text, sha, true, std::move(keys), std::move(args)));
    }
    return reply;
}

core::Expected<std::string> load_script(RedisConnection& redis, std::string_view text) {
    auto reply = redis.command({"SCRIPT", "LOAD", std::string(text)});
    if (!reply) {
        return core::make_error(reply.error());
    }
    return reply->text;
}

// "node|fence" → the owner and the fence.
std::optional<std::pair<std::string, std::int64_t>> parsed_lease(std::string_view value) {
    const auto bar = value.rfind('|');
    if (bar == std::string_view::npos || bar == 0) {
        return std::nullopt;
    }
    std::int64_t fence = 0;
    const auto digits = value.substr(bar + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), fence);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) {
        return std::nullopt;
    }
    return std::pair{std::string(value.substr(0, bar)), fence};
}

}  // namespace

core::Expected<std::unique_ptr<Leases>> Leases::open(Options options, LostHandler on_lost) {
    auto url = parse_redis_url(options.url);
    if (!url) {
        return core::make_error(url.error());
    }
    if (options.node_id.empty() || options.node_id.find('|') != std::string::npos) {
        return core::make_error("leases: the node id must be non-empty and without '|'");
    }
    if (options.ttl < min_lease_ttl) {
        return core::make_error("leases: the ttl must be at least " +
                                std::to_string(min_lease_ttl.count()) + " ms");
    }
    // A renewal that cannot finish within a third of the ttl is better abandoned and retried.
    const auto timeout =
        std::clamp(options.ttl / 3, std::chrono::milliseconds(10), std::chrono::milliseconds(2000));
    auto commands = RedisConnection::open(*url, timeout);
    if (!commands) {
        return core::make_error(commands.error());
    }
    auto renewals = RedisConnection::open(*url, timeout);
    if (!renewals) {
        return core::make_error(renewals.error());
    }
    ScriptShas shas;
    for (auto [text, sha] :
         {std::pair{acquire_lua, &shas.acquire}, std::pair{renew_lua, &shas.renew},
          std::pair{release_lua, &shas.release}, std::pair{alive_lua, &shas.alive}}) {
        auto loaded = load_script(**commands, text);
        if (!loaded) {
            return core::make_error(loaded.error());
        }
        *sha = std::move(*loaded);
    }
    std::unique_ptr<Leases> leases(new Leases(std::move(options), std::move(on_lost),
                                              std::move(shas), std::move(*commands),
                                              std::move(*renewals)));
    {
        std::lock_guard lock(leases->commands_mutex_);
        if (auto alive = leases->say_alive(*leases->commands_); !alive) {
            return core::make_error(alive.error());
        }
    }
    return leases;
}

Leases::Leases(Options options, LostHandler on_lost, ScriptShas shas,
               std::unique_ptr<RedisConnection> commands, std::unique_ptr<RedisConnection> renewals)
    : options_(std::move(options)),
      instance_(new_instance(options_.node_id)),
      on_lost_(std::move(on_lost)),
      shas_(std::move(shas)),
      commands_(std::move(commands)),
      renewals_(std::move(renewals)) {
    renewer_ = std::thread([this] { renew_loop(); });
}

Leases::~Leases() {
    {
        std::lock_guard lock(state_mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    renewer_.join();
}

std::string Leases::lease_key(const std::string& game_id) const {
    return options_.key_prefix + "lease:" + game_id;
}

std::string Leases::fence_key(const std::string& game_id) const {
    return options_.key_prefix + "fence:" + game_id;
}

std::string Leases::holder_key(const std::string& game_id) const {
    return options_.key_prefix + "holder:" + game_id;
}

std::string Leases::alive_key() const {
    return options_.key_prefix + "alive:" + instance_;
}

core::Status Leases::say_alive(RedisConnection& redis) {
    auto done = run_script(redis, alive_lua, shas_.alive, {alive_key()},
                           {std::to_string(std::chrono::milliseconds(owner_traces_kept).count())});
    if (!done) {
        return core::make_error("cannot say this node is alive: " + done.error());
    }
    return core::ok_status();
}

std::string Leases::lease_value(std::int64_t fence) const {
    return options_.node_id + "|" + std::to_string(fence);
}

core::Expected<Leases::Claim> Leases::acquire(const std::string& game_id, std::int64_t floor) {
    const auto started = Clock::now();
    auto reply = [&] {
        std::lock_guard lock(commands_mutex_);
        return run_script(*commands_, acquire_lua, shas_.acquire,
                          {lease_key(game_id), fence_key(game_id), holder_key(game_id)},
                          {options_.node_id, std::to_string(options_.ttl.count()),
                           std::to_string(floor), instance_, options_.key_prefix + "alive:",
                           std::to_string(std::chrono::milliseconds(owner_traces_kept).count())});
    }();
    if (!reply) {
        return core::make_error("lease of game " + game_id + ": " + reply.error());
    }
    const bool shaped = reply->kind == RedisReply::Kind::array && reply->elements.size() == 2 &&
                        reply->elements[0].kind == RedisReply::Kind::string &&
                        reply->elements[1].kind == RedisReply::Kind::integer;
    const auto lease = shaped ? parsed_lease(reply->elements[0].text) : std::nullopt;
    if (!lease) {
        return core::make_error("lease of game " + game_id + ": Redis holds '" +
                                (shaped ? reply->elements[0].text : reply->text) +
                                "', not 'node|fence'");
    }
    Claim claim{lease->first == options_.node_id, lease->second, lease->first,
                std::chrono::milliseconds(reply->elements[1].integer)};
    if (claim.mine) {
        std::lock_guard lock(state_mutex_);
        auto& held = held_[game_id];
        const auto deadline = started + options_.ttl;
        held.deadline = held.fence == claim.fence ? std::max(held.deadline, deadline) : deadline;
        held.fence = claim.fence;
        held_now_.store(held_.size(), std::memory_order_relaxed);
    }
    return claim;
}

void Leases::release(const std::string& game_id, std::int64_t fence) {
    forget(game_id, fence);
    std::lock_guard lock(commands_mutex_);
    if (auto done = run_script(
            *commands_, release_lua, shas_.release, {lease_key(game_id), holder_key(game_id)},
            {lease_value(fence), instance_,
             std::to_string(std::chrono::milliseconds(owner_traces_kept).count())});
        !done) {
        cluster_log()->warn("lease of game {} (fence {}) not released, it will expire: {}", game_id,
                            fence, done.error());
    }
}

bool Leases::holds(const std::string& game_id, std::int64_t fence) const {
    std::lock_guard lock(state_mutex_);
    const auto found = held_.find(game_id);
    return found != held_.end() && found->second.fence == fence &&
           Clock::now() < found->second.deadline;
}

core::Expected<std::vector<RedisReply>> Leases::lease_values(
    const std::vector<std::string>& game_ids) {
    if (game_ids.empty()) {
        return std::vector<RedisReply>{};
    }
    std::vector<std::string> command{"MGET"};
    command.reserve(game_ids.size() + 1);
    for (const auto& id : game_ids) {
        command.push_back(lease_key(id));
    }
    auto reply = [&] {
        std::lock_guard lock(commands_mutex_);
        return commands_->command(command);
    }();
    if (!reply) {
        return core::make_error("the games' leases: " + reply.error());
    }
    if (reply->kind != RedisReply::Kind::array || reply->elements.size() != game_ids.size()) {
        return core::make_error("the games' leases: Redis answered MGET with something else");
    }
    return std::move(reply->elements);
}

core::Expected<std::vector<std::string>> Leases::unleased(
    const std::vector<std::string>& game_ids) {
    auto values = lease_values(game_ids);
    if (!values) {
        return core::make_error(values.error());
    }
    std::vector<std::string> free;
    for (std::size_t i = 0; i < game_ids.size(); ++i) {
        if ((*values)[i].kind == RedisReply::Kind::nil) {
            free.push_back(game_ids[i]);
        }
    }
    return free;
}

core::Expected<std::vector<std::string>> Leases::holders(const std::vector<std::string>& game_ids) {
    auto values = lease_values(game_ids);
    if (!values) {
        return core::make_error(values.error());
    }
    std::vector<std::string> owners;
    owners.reserve(values->size());
    for (const auto& value : *values) {
        if (value.kind == RedisReply::Kind::nil) {
            owners.emplace_back();
        } else if (const auto lease = parsed_lease(value.text)) {
            owners.push_back(lease->first);
        } else {
            owners.push_back(value.text);  // not "node|fence": no node's lease, and not empty
        }
    }
    return owners;
}

std::size_t Leases::held_count() const {
    std::lock_guard lock(state_mutex_);
    return held_.size();
}

const std::string& Leases::node_id() const {
    return options_.node_id;
}

Leases::Stats Leases::stats() const {
    Stats stats;
    stats.held = held_now_.load(std::memory_order_relaxed);
    stats.renewal_failures = renewal_failures_.load(std::memory_order_relaxed);
    stats.lost = lost_.load(std::memory_order_relaxed);
    return stats;
}

bool Leases::forget(const std::string& game_id, std::int64_t fence) {
    std::lock_guard lock(state_mutex_);
    const auto found = held_.find(game_id);
    if (found == held_.end() || found->second.fence != fence) {
        return false;
    }
    held_.erase(found);
    held_now_.store(held_.size(), std::memory_order_relaxed);
    return true;
}

void Leases::renew_loop() {
    // A third of the ttl, and at most a second: the round is also the node's sign of life, from
    // which a takeover counts the time a dead owner's games had no owner (refunded to the player
    // to move), so a crash gives back at most a second more than the games really stood still.
    const auto period =
        std::clamp(options_.ttl / 3, std::chrono::milliseconds(1), std::chrono::milliseconds(1000));
    bool failing = false;
    std::unique_lock lock(state_mutex_);
    while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
        lock.unlock();
        const auto renewed = renew_all();
        if (!renewed) {
            renewal_failures_.fetch_add(1, std::memory_order_relaxed);
        }
        if (!renewed && !failing) {
            cluster_log()->warn("lease renewal failed, retrying every {} ms: {}", period.count(),
                                renewed.error());
            failing = true;
        } else if (renewed && failing) {
            cluster_log()->info("lease renewal works again");
            failing = false;
        }
        lock.lock();
    }
}

core::Expected<std::size_t> Leases::renew_all() {
    const auto started = Clock::now();
    std::vector<std::pair<std::string, std::int64_t>> due;
    std::vector<std::pair<std::string, std::int64_t>> lost;
    {
        std::lock_guard lock(state_mutex_);
        for (auto it = held_.begin(); it != held_.end();) {
            if (it->second.deadline <= started) {
                lost.emplace_back(it->first, it->second.fence);
                it = held_.erase(it);
            } else {
                due.emplace_back(it->first, it->second.fence);
                ++it;
            }
        }
        held_now_.store(held_.size(), std::memory_order_relaxed);
    }
    core::Expected<std::size_t> reached = std::size_t{0};
    core::Status healthy = core::ok_status();
    if (options_.healthy) {
        try {
            healthy = options_.healthy();
        } catch (const std::exception& e) {
            healthy = core::make_error(std::string("the health check threw: ") + e.what());
        }
    }
    if (!healthy) {
        // A node that cannot commit must not keep its games: their leases run out.
        reached =
            core::make_error("this node cannot commit, so it renews no lease: " + healthy.error());
        due.clear();
    } else if (auto alive = say_alive(*renewals_); !alive) {
        reached = core::make_error(alive.error());
        due.clear();  // Redis cannot be reached: the leases past their deadline are still lost
    }
    for (std::size_t first = 0; first < due.size(); first += renewals_per_round) {
        const auto round_started = Clock::now();
        const auto last = std::min(due.size(), first + renewals_per_round);
        const auto commands = [&](bool by_text) {
            std::vector<std::vector<std::string>> list;
            for (std::size_t i = first; i < last; ++i) {
                list.push_back(script_command(
                    renew_lua, shas_.renew, by_text, {lease_key(due[i].first)},
                    {lease_value(due[i].second), std::to_string(options_.ttl.count())}));
            }
            return list;
        };
        auto replies = renewals_->pipeline(commands(false));
        if (replies && std::any_of(replies->begin(), replies->end(), [](const RedisReply& r) {
                return r.is_error() && is_noscript(r.text);
            })) {
            replies = renewals_->pipeline(commands(true));
        }
        if (!replies) {
            reached = core::make_error(replies.error());
            break;
        }
        *reached += last - first;
        for (std::size_t i = first; i < last; ++i) {
            const auto& reply = (*replies)[i - first];
            const auto& [game_id, fence] = due[i];
            if (reply.kind == RedisReply::Kind::integer && reply.integer == 1) {
                std::lock_guard lock(state_mutex_);
                if (const auto found = held_.find(game_id);
                    found != held_.end() && found->second.fence == fence) {
                    found->second.deadline =
                        std::max(found->second.deadline, round_started + options_.ttl);
                }
            } else if (reply.kind == RedisReply::Kind::integer) {
                if (forget(game_id, fence)) {
                    lost.emplace_back(game_id, fence);
                }
            } else {
                cluster_log()->warn("lease of game {} (fence {}) not renewed: {}", game_id, fence,
                                    reply.text);
            }
        }
    }
    lost_.fetch_add(lost.size(), std::memory_order_relaxed);
    for (const auto& [game_id, fence] : lost) {
        cluster_log()->warn("lease of game {} (fence {}) lost", game_id, fence);
        if (!on_lost_) {
            continue;
        }
        try {
            on_lost_(game_id, fence);
        } catch (const std::exception& e) {
            cluster_log()->error("lease of game {}: the lost handler threw: {}", game_id, e.what());
        } catch (...) {
            cluster_log()->error("lease of game {}: the lost handler threw", game_id);
        }
    }
    return reached;
}

}  // namespace server::cluster
