#include "server/game/tournaments.h"

#include <cmath>
#include <future>

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "protocol/tournament_messages.h"
#include "server/game/arena_actor.h"
#include "server/game/glicko2.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/log.h"
#include "server/tournament/arena.h"
#include "server/tournament/arena_json.h"

namespace server {

using protocol::ErrorCode;
using protocol::RequestType;
namespace ti = tournament::arena_input;

namespace {

TournamentRefusal refusal(int status, ErrorCode code, std::string message) {
    return TournamentRefusal{status, protocol::ProtocolError{code, std::move(message)}};
}

TournamentRefusal read_refusal(std::string_view what, const std::string& error) {
    component_logger("tournament")->error("cannot read {}: {}", what, error);
    return refusal(500, ErrorCode::internal_error,
                   "the server could not read " + std::string(what) + "; try again");
}

// A player's rating in `variant` as an arena counts it (their Glicko-2 rating, rounded; the
// default rating before their first rated game there).
core::Expected<int> arena_rating(Store& store, const std::string& player_id,
                                 core::VariantId variant) {
    auto ratings = store.ratings_of(player_id);
    if (!ratings) {
        return core::make_error(ratings.error());
    }
    for (const auto& rating : *ratings) {
        if (rating.variant == core::variant_name(variant)) {
            return static_cast<int>(std::lround(rating.value.rating));
        }
    }
    return static_cast<int>(glicko2::default_rating);
}

// The end of a finished tournament game as its room would have told it, read from its record
// and its events (a news lost with the process that stored the end).
TournamentGameEnd stored_game_end(const GameRecord& game, const std::vector<StoredEvent>& events) {
    TournamentGameEnd end;
    end.tournament_id = game.tournament_id;
    end.game_id = game.id;
    const auto result = nlohmann::json::parse(game.result_json, nullptr, false);
    if (result.is_object()) {
        end.reason = result.value("reason", "");
        const auto winner = result.find("winner");
        if (winner != result.end() && winner->is_string()) {
            const auto name = winner->get<std::string>();
            end.winner_seat = name == "white" || name == "player0" ? 0 : 1;
        }
    }
    for (const auto& stored : events) {
        const auto event = nlohmann::json::parse(stored.json, nullptr, false);
        if (!event.is_object()) {
            continue;
        }
        const auto kind = event.value("kind", "");
        if (kind == "move") {
            ++end.plies;
        } else if (kind == "berserk") {
            const auto by = event.value("by", "");
            end.berserk[by == "white" || by == "player0" ? 0 : 1] = true;
        }
    }
    if (end.reason == "no_start" && end.winner_seat) {
        end.missed_first_move_seat = 1 - *end.winner_seat;
    }
    return end;
}

// The name a tournament shows for a player: the account's username, else the display name; ""
// for a player the store does not have.
core::Expected<std::string> tournament_name(Store& store, const std::string& player_id) {
    auto account = store.account(player_id);
    if (!account) {
        return core::make_error(account.error());
    }
    if (*account) {
        return (*account)->username;
    }
    auto player = store.player(player_id);
    if (!player) {
        return core::make_error(player.error());
    }
    return *player ? (*player)->name : std::string();
}

std::map<std::string, std::string> player_names(Store& store, const TournamentRecord& record,
                                                const tournament::ArenaState& arena) {
    std::map<std::string, std::string> names;
    auto learn = [&](const std::string& id) {
        if (id.empty() || names.count(id)) {
            return;
        }
        if (auto name = tournament_name(store, id); name && !name->empty()) {
            names[id] = *name;
        }
    };
    if (record.created_by.empty()) {
        names[""] = std::string(server_creator_name);
    }
    learn(record.created_by);
    for (const auto& [id, player] : arena.players) {
        learn(id);
    }
    return names;
}

}  // namespace

Tournaments::Tournaments(ServerState& state) : state_(state) {}

Tournaments::~Tournaments() = default;

std::shared_ptr<ArenaActor> Tournaments::add(std::shared_ptr<ArenaActor> actor) {
    bool stopping = false;
    {
        std::lock_guard lock(mutex_);
        running_[actor->id()] = actor;
        stopping = stopped_;
    }
    // One added while the server drains (a creation that was under way) does not pair: stop()
    // has passed already.
    if (!stopping) {
        actor->start();
    }
    return actor;
}

std::shared_ptr<ArenaActor> Tournaments::running(std::string_view id) {
    std::lock_guard lock(mutex_);
    const auto found = running_.find(id);
    return found == running_.end() ? nullptr : found->second;
}

void Tournaments::stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    for (const auto& [id, actor] : running_) {
        actor->stop();
    }
}

core::Status Tournaments::resume(const TournamentRecord& record) {
    auto events = state_.store().tournament_events(record.id);
    if (!events) {
        return core::make_error(events.error());
    }
    auto replayed = replay_arena(record, *events);
    if (!replayed) {
        component_logger("tournament")->error("{}", replayed.error());
        return core::ok_status();  // left out; the others run
    }
    auto names = player_names(state_.store(), record, replayed->state);
    auto actor = std::make_shared<ArenaActor>(state_, record, replayed->state, replayed->version,
                                              std::move(names));
    add(actor);
    // The games it holds in progress whose end was stored while the news was lost.
    for (const auto& [number, game] : replayed->state.games) {
        if (!game.game_id) {
            continue;
        }
        auto stored = state_.store().game(*game.game_id);
        if (!stored) {
            return core::make_error(stored.error());
        }
        if (!*stored || (*stored)->status != "finished") {
            continue;
        }
        auto game_events = state_.store().events(*game.game_id);
        if (!game_events) {
            return core::make_error(game_events.error());
        }
        actor->post_game_ended(stored_game_end(**stored, *game_events));
    }
    component_logger("tournament")
        ->info("tournament {}: resumed with {} player(s) and {} game(s) in progress", record.id,
               replayed->state.players.size(), replayed->state.games.size());
    return core::ok_status();
}

core::Status Tournaments::restore() {
    if (state_.leases()) {
        return core::ok_status();  // cluster mode: none yet (slice 5)
    }
    auto unfinished = state_.store().unfinished_tournaments();
    if (!unfinished) {
        return core::make_error("cannot read the tournaments: " + unfinished.error());
    }
    for (const auto& record : *unfinished) {
        if (auto resumed = resume(record); !resumed) {
            return core::make_error("tournament " + record.id + ": " + resumed.error());
        }
    }
    return core::ok_status();
}

TournamentResult<TournamentRecord> Tournaments::create_arena(const ArenaCreation& creation,
                                                             const std::string& creator_id,
                                                             const std::string& creator_name) {
    if (state_.leases()) {
        return refusal(501, ErrorCode::not_supported,
                       "tournaments are not available in cluster mode yet");
    }
    if (auto checked = tournament::check_config(creation.config); !checked) {
        return refusal(400, ErrorCode::bad_field, checked.error());
    }
    const auto now = unix_ms(state_.time().now());
    const bool own = creator_id.empty();  // the server's own (arena_scheduler.h): no daily limit
    if (!own) {
        auto created = state_.store().tournaments_created_since(creator_id, now - 24 * 3'600'000LL);
        if (!created) {
            return read_refusal("your tournaments", created.error());
        }
        if (*created >= tournaments_per_day) {
            return refusal(429, ErrorCode::rate_limited,
                           "an account creates at most " + std::to_string(tournaments_per_day) +
                               " tournaments a day; try again tomorrow");
        }
    }
    TournamentRecord record;
    record.id = random_id("t_");
    record.kind = "arena";
    record.name = creation.name.empty()
                      ? std::string(core::variant_name(creation.config.variant)) + " Arena"
                      : creation.name;
    // The server's own keep their schedule's name as it is: it is half of their schedule key.
    if (!record.name.empty() && !own) {
        record.name[0] =
            static_cast<char>(std::toupper(static_cast<unsigned char>(record.name[0])));
    }
    record.variant = std::string(core::variant_name(creation.config.variant));
    record.created_by = creator_id;
    record.config_json = tournament::encode_config(creation.config);
    record.status = "created";
    record.starts_at = creation.config.starts_at;
    record.ends_at = creation.config.ends_at();
    record.created_at = now;
    if (!creation.password.empty()) {
        record.password_hash = sha256_hex(creation.password);
    }
    if (auto stored = state_.store().commit_sync({CreateTournament{record}}); !stored) {
        component_logger("tournament")->error("cannot store a new tournament: {}", stored.error());
        return refusal(500, ErrorCode::internal_error,
                       "the tournament could not be stored; try again");
    }
    add(std::make_shared<ArenaActor>(
        state_, record, tournament::new_arena(creation.config), 0,
        std::map<std::string, std::string>{
            {creator_id, own ? std::string(server_creator_name) : creator_name}}));
    component_logger("tournament")
        ->info("tournament {}: {} created by {}", record.id, record.name,
               own ? std::string(server_creator_name) : creator_id);
    return record;
}

core::Expected<std::optional<std::shared_ptr<const ArenaView>>> Tournaments::view(
    std::string_view id) {
    if (auto actor = running(id)) {
        return std::optional<std::shared_ptr<const ArenaView>>(actor->view());
    }
    auto record = state_.store().tournament(id);
    if (!record) {
        return core::make_error(record.error());
    }
    if (!*record) {
        return std::optional<std::shared_ptr<const ArenaView>>();
    }
    auto events = state_.store().tournament_events(id);
    if (!events) {
        return core::make_error(events.error());
    }
    auto replayed = replay_arena(**record, *events);
    if (!replayed) {
        return core::make_error(replayed.error());
    }
    auto names = player_names(state_.store(), **record, replayed->state);
    return std::optional<std::shared_ptr<const ArenaView>>(std::make_shared<const ArenaView>(
        ArenaView{**record, std::move(replayed->state), std::move(names), 0}));
}

TournamentRefusal Tournaments::absent_refusal(std::string_view id) {
    auto record = state_.store().tournament(id);
    if (!record) {
        return read_refusal("the tournament", record.error());
    }
    if (!*record) {
        return refusal(404, ErrorCode::no_such_tournament, "there is no such tournament");
    }
    return refusal(409, ErrorCode::tournament_finished, "the tournament is over");
}

TournamentResult<Tournaments::Prepared> Tournaments::prepare_ask(std::string_view id,
                                                                 RequestType type,
                                                                 const Actor& player,
                                                                 std::string_view code) {
    auto actor = running(id);
    if (!actor) {
        return absent_refusal(id);
    }
    const auto shown = actor->view();
    switch (type) {
        case RequestType::tournament_join: {
            if (!player.account) {
                return refusal(403, ErrorCode::account_required,
                               "register or log in to play in tournaments");
            }
            const auto& hash = shown->record.password_hash;
            if (!hash.empty() && (code.empty() || !same_secret(sha256_hex(code), hash))) {
                return refusal(403, ErrorCode::wrong_code,
                               code.empty() ? "this tournament is private: give its join code"
                                            : "that is not this tournament's join code");
            }
            const auto in = shown->state.players.find(player.player_id);
            if (in != shown->state.players.end() &&
                in->second.status == tournament::PlayerStatus::paused) {
                return Prepared{actor, ti::ComeBack{player.player_id}};
            }
            auto rating =
                arena_rating(state_.store(), player.player_id, shown->state.config.variant);
            if (!rating) {
                return read_refusal("your rating", rating.error());
            }
            auto name = tournament_name(state_.store(), player.player_id);
            if (!name) {
                return read_refusal("your name", name.error());
            }
            return Prepared{actor, ti::Join{player.player_id, *rating}, *name};
        }
        case RequestType::tournament_withdraw:
            return Prepared{actor, ti::Withdraw{player.player_id}};
        case RequestType::tournament_pause:
            return Prepared{actor, ti::Pause{player.player_id}};
        default:
            break;
    }
    return refusal(400, ErrorCode::bad_field, "not a tournament ask");
}

TournamentResult<bool> Tournaments::ask_sync(std::string_view id, RequestType type,
                                             const Actor& player, std::string_view code) {
    auto prepared = prepare_ask(id, type, player, code);
    if (auto* refused = std::get_if<TournamentRefusal>(&prepared)) {
        return *refused;
    }
    auto& ask = std::get<Prepared>(prepared);
    auto answered = std::make_shared<std::promise<std::optional<protocol::ProtocolError>>>();
    auto future = answered->get_future();
    Actor asker = player;
    if (!ask.name.empty()) {
        asker.name = ask.name;
    }
    ask.actor->post_ask(asker, ask.input, [answered](std::optional<protocol::ProtocolError> error) {
        answered->set_value(std::move(error));
    });
    if (future.wait_for(tournament_answer_wait) != std::future_status::ready) {
        return refusal(503, ErrorCode::rate_limited, "the tournament is busy; try again");
    }
    if (auto error = future.get()) {
        const int status = error->code == ErrorCode::internal_error ? 500 : 400;
        return TournamentRefusal{status, std::move(*error)};
    }
    return true;
}

void Tournaments::request(const Actor& actor, const protocol::Request& request) {
    const auto id = request.tournament_id;
    if (request.type == RequestType::tournament_unwatch) {
        if (auto running_actor = running(id)) {
            running_actor->post_unwatch(actor.client_id);
        }
        actor.send(make_frame(protocol::ack_message(request.id)));
        return;
    }
    if (request.type == RequestType::tournament_watch) {
        if (auto running_actor = running(id)) {
            running_actor->post_watch(actor, request.id);
            return;
        }
    }
    if (request.type == RequestType::tournament_chat) {
        if (!actor.account) {
            actor.send(error_frame(ErrorCode::account_required,
                                   "register or log in to talk in tournaments", request.id));
            return;
        }
        if (auto running_actor = running(id)) {
            running_actor->post_say(actor, request.text, request.id);
            return;
        }
    }
    // The rest reads the store first: on the pool.
    const bool handed = state_.blocking().run([this, actor, request] {
        if (request.type == RequestType::tournament_watch) {
            auto shown = view(request.tournament_id);
            if (!shown) {
                component_logger("tournament")
                    ->error("cannot read tournament {}: {}", request.tournament_id, shown.error());
                actor.send(error_frame(ErrorCode::internal_error,
                                       "the server could not read the tournament; try again",
                                       request.id));
            } else if (!*shown) {
                actor.send(error_frame(ErrorCode::no_such_tournament, "there is no such tournament",
                                       request.id));
            } else {
                actor.send(make_frame(arena_watch_message(
                    ***shown, actor.player_id, unix_ms(state_.time().now()), request.id)));
            }
            return;
        }
        if (request.type == RequestType::tournament_chat) {
            // Not running: finished (its chat is closed) or none.
            actor.send(error_frame(absent_refusal(request.tournament_id).error, request.id));
            return;
        }
        auto prepared = prepare_ask(request.tournament_id, request.type, actor, request.code);
        if (auto* refused = std::get_if<TournamentRefusal>(&prepared)) {
            actor.send(error_frame(refused->error, request.id));
            return;
        }
        auto& ask = std::get<Prepared>(prepared);
        const bool join = request.type == RequestType::tournament_join;
        auto target = ask.actor;
        Actor asker = actor;
        if (!ask.name.empty()) {
            asker.name = ask.name;
        }
        target->post_ask(
            asker, ask.input,
            [actor, id = request.id, join, target](std::optional<protocol::ProtocolError> error) {
                if (error) {
                    actor.send(error_frame(*error, id));
                    return;
                }
                actor.send(make_frame(protocol::ack_message(id)));
                if (join) {
                    target->post_watch(actor, nullptr);
                }
            });
    });
    if (!handed) {
        actor.send(error_frame(ErrorCode::rate_limited, std::string(pool_busy_text), request.id));
    }
}

void Tournaments::forget(std::string_view id) {
    std::shared_ptr<ArenaActor> gone;
    {
        std::lock_guard lock(mutex_);
        const auto found = running_.find(id);
        if (found == running_.end()) {
            return;
        }
        gone = std::move(found->second);
        running_.erase(found);
    }
    gone->stop();
}

void Tournaments::game_ended(TournamentGameEnd end) {
    if (auto actor = running(end.tournament_id)) {
        actor->post_game_ended(std::move(end));
    }
}

}  // namespace server
