#include "server/game/server_state.h"

#include <algorithm>
#include <atomic>

#include "core/game.h"
#include "protocol/limits.h"
#include "protocol/messages.h"
#include "server/bots/bot_identity.h"
#include "server/game/lobby.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/log.h"

namespace server {

namespace {

// The display names of the seated players ("Unknown" for a player the store does not have); an
// error when a player cannot be read.
core::Expected<std::vector<std::string>> seat_names(Store& store,
                                                    const std::vector<std::string>& seats) {
    std::vector<std::string> names;
    for (const auto& id : seats) {
        auto player = store.player(id);
        if (!player) {
            return core::make_error(player.error());
        }
        names.push_back(*player ? (*player)->name : "Unknown");
    }
    return names;
}

}  // namespace

ServerState::ServerState(boost::asio::io_context& io, Store& store, Limits limits,
                         std::string web_root, std::shared_ptr<TimeSource> time)
    : io_(io),
      store_(store),
      limits_(limits),
      web_root_(std::move(web_root)),
      identities_(store),
      passwords_(PasswordCost{limits.password_ops, limits.password_memory}),
      login_limiter_(limits.login),
      address_limits_(limits),
      time_(time ? std::move(time) : std::make_shared<ServerClock>()),
      heartbeat_(io, store, *time_),
      lobby_(std::make_shared<Lobby>(*this, io)),
      bots_(limits.bot_threads, static_cast<std::size_t>(std::max(1, limits.bot_queue))),
      analyses_(store, bots_, limits),
      rooms_([this](std::string_view game_id) { return load_room(game_id); }) {
    time_listener_ = time_->on_jump([this] { check_clocks(); });
}

bool ServerState::muted(std::string_view player_id) {
    std::lock_guard lock(muted_mutex_);
    return muted_.find(player_id) != muted_.end();
}

void ServerState::set_muted(const std::string& player_id, bool muted) {
    std::lock_guard lock(muted_mutex_);
    if (muted) {
        muted_.insert(player_id);
    } else {
        muted_.erase(player_id);
    }
}

void ServerState::sign_out(const std::string& player_id, std::uint64_t except_client,
                           const std::string& reason) {
    std::vector<std::shared_ptr<Client>> open;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [id, weak] : sessions_) {
            if (id == except_client) {
                continue;
            }
            if (auto client = weak.lock()) {
                open.push_back(std::move(client));
            }
        }
    }
    for (auto& client : open) {
        client->signed_out(player_id, reason);
    }
}

ServerState::~ServerState() {
    bots_.stop();
    heartbeat_.stop();
    time_->forget(time_listener_);
}

void ServerState::check_clocks() {
    for (const auto& room : rooms_.held()) {
        room->post_clock_check();
    }
}

core::Status ServerState::restore_games() {
    auto log = component_logger("server");
    // The clocks of the games restored below are not charged for the time the server was down.
    auto downtime = heartbeat_.start();
    if (!downtime) {
        return core::make_error(downtime.error());
    }
    downtime_ = std::move(*downtime);
    for (int level = protocol::min_bot_level; level <= protocol::max_bot_level; ++level) {
        const auto id = bot_player_id(level);
        auto known = store_.player(id);
        if (!known) {
            return core::make_error("cannot read the computer players: " + known.error());
        }
        if (*known) {
            continue;
        }
        PlayerRecord bot{id, bot_name(level), bot_token_hash(level), unix_now()};
        if (auto stored = store_.insert_player(bot); !stored) {
            return core::make_error("cannot store the computer players: " + stored.error());
        }
    }
    auto muted = store_.muted_players();
    if (!muted) {
        return core::make_error("cannot read the muted players: " + muted.error());
    }
    {
        std::lock_guard lock(muted_mutex_);
        muted_.insert(muted->begin(), muted->end());
    }
    auto seeks = store_.seeks();
    if (!seeks) {
        return core::make_error("cannot read the seeks: " + seeks.error());
    }
    for (const auto& seek : *seeks) {
        // Seeks belong to a live connection; none survives a restart.
        store_.delete_seek(seek.id);
    }
    auto unfinished = store_.unfinished_games();
    if (!unfinished) {
        return core::make_error("cannot list the unfinished games: " + unfinished.error());
    }
    int restored = 0;
    for (auto& record : *unfinished) {
        auto names = seat_names(store_, record.seats);
        if (!names) {
            return core::make_error("game " + record.id + ": " + names.error());
        }
        const auto events = store_.events(record.id);
        if (!events) {
            return core::make_error("game " + record.id + ": " + events.error());
        }
        auto chat = store_.chat_lines(record.id);
        if (!chat) {
            return core::make_error("game " + record.id + ": " + chat.error());
        }
        auto room = std::make_shared<Room>(*this, record, std::move(*names));
        if (auto status = room->restore(*events); !status) {
            log->error("game {}: cannot be restored: {}", record.id, status.error());
            continue;
        }
        room->restore_chat(std::move(*chat));
        room->post_summary();
        room->post_bot_check();
        rooms_.add(record.id, std::move(room));
        ++restored;
    }
    log->info("restored {} unfinished game(s)", restored);
    // Issue 25: the analyses asked for before the restart and not done yet.
    return analyses_.restore();
}

core::Expected<PreparedGame> ServerState::prepare_game(const GameSpec& spec) {
    GameRecord record;
    record.id = spec.id.empty() ? random_id("g_") : spec.id;
    record.variant = std::string(core::variant_name(spec.variant));
    record.rules = std::string(core::rule_set_name(spec.rules));
    record.seats = spec.seats;
    record.is_private = spec.is_private;
    if (spec.is_private) {
        record.access_key = random_hex(16);
    }
    record.rated = spec.rated;
    record.time_control = protocol::time_control_text(spec.clock);
    record.created_at = unix_now();
    if (spec.variant == core::VariantId::sniderman) {
        record.seed = random_u64() >> 1;  // stays positive in a signed 64-bit column
        record.rounds = spec.rounds;
    } else {
        core::GameOptions options;
        options.rules = spec.rules;
        auto game = core::make_game(spec.variant, options);
        if (!game) {
            return core::make_error("cannot start a " + record.variant + " game: " + game.error());
        }
        record.start_fen = (*game)->start_fen();
    }
    auto names = seat_names(store_, record.seats);
    if (!names) {
        return core::make_error("cannot read the players: " + names.error());
    }
    auto room = std::make_shared<Room>(*this, record, std::move(*names));
    auto writes = room->start_fresh();
    if (!writes) {
        return core::make_error("cannot start the game: " + writes.error());
    }
    return PreparedGame{std::move(room), std::move(*writes)};
}

void ServerState::add_room(const std::shared_ptr<Room>& room) {
    rooms_.add(room->id(), room);
}

core::Expected<std::shared_ptr<Room>> ServerState::room(std::string_view game_id) {
    return rooms_.get(game_id);
}

// A finished game from before the last restart (or released since): rebuilt from its events.
core::Expected<std::shared_ptr<Room>> ServerState::load_room(std::string_view game_id) {
    auto record = store_.game(game_id);
    if (!record) {
        return core::make_error(record.error());
    }
    if (!*record) {
        return std::shared_ptr<Room>();
    }
    const auto& game = **record;
    auto names = seat_names(store_, game.seats);
    if (!names) {
        return core::make_error(names.error());
    }
    auto events = store_.events(game.id);
    if (!events) {
        return core::make_error(events.error());
    }
    auto chat = store_.chat_lines(game.id);
    if (!chat) {
        return core::make_error(chat.error());
    }
    auto room = std::make_shared<Room>(*this, game, std::move(*names));
    if (auto status = room->restore(*events); !status) {
        return core::make_error("game " + game.id + " cannot be replayed: " + status.error());
    }
    room->restore_chat(std::move(*chat));
    return room;
}

std::shared_ptr<Room> ServerState::loaded_room(std::string_view game_id) {
    return rooms_.loaded(game_id);
}

void ServerState::release_room(std::string_view game_id) {
    if (auto room = rooms_.loaded(game_id); room && room->finished()) {
        rooms_.release(game_id);
    }
}

std::vector<std::string> ServerState::unfinished_games_of(std::string_view player_id) {
    std::vector<std::string> games;
    for (const auto& room : rooms_.held()) {
        if (room->finished()) {
            continue;
        }
        for (const auto& seat : room->seats()) {
            if (seat == player_id) {
                games.push_back(room->id());
                break;
            }
        }
    }
    return games;
}

std::size_t ServerState::room_count() {
    return rooms_.held_count();
}

void ServerState::join(const std::shared_ptr<Client>& client) {
    std::lock_guard lock(sessions_mutex_);
    sessions_[client->client_id()] = client;
}

void ServerState::leave(std::uint64_t client_id) {
    std::lock_guard lock(sessions_mutex_);
    sessions_.erase(client_id);
}

std::vector<std::shared_ptr<Client>> ServerState::open_sessions() {
    std::vector<std::shared_ptr<Client>> open;
    std::lock_guard lock(sessions_mutex_);
    for (auto& [id, weak] : sessions_) {
        if (auto client = weak.lock()) {
            open.push_back(std::move(client));
        }
    }
    return open;
}

void ServerState::begin_drain() {
    stopping_ = true;
    bots_.cancel();
    const auto frame = make_frame(protocol::server_restart_message(restart_reconnect_ms));
    for (auto& client : open_sessions()) {
        client->send(frame);
    }
}

void ServerState::after_posted_work(std::function<void()> then) {
    auto rooms = rooms_.held();
    auto left = std::make_shared<std::atomic<std::size_t>>(rooms.size() + 1);
    auto done = [left, then = std::move(then)] {
        if (left->fetch_sub(1) == 1) {
            then();
        }
    };
    lobby_->post_barrier(done);
    for (const auto& room : rooms) {
        room->post_barrier(done);
    }
}

std::size_t ServerState::games_active() {
    const auto rooms = rooms_.held();
    return static_cast<std::size_t>(std::count_if(
        rooms.begin(), rooms.end(), [](const auto& room) { return !room->finished(); }));
}

void ServerState::close_all(std::uint16_t code) {
    stopping_ = true;
    for (auto& client : open_sessions()) {
        client->close_after_queued(code);
    }
}

std::size_t ServerState::session_count() {
    std::lock_guard lock(sessions_mutex_);
    return sessions_.size();
}

}  // namespace server
