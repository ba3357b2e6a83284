// A room's life: building it (fresh or from stored events), the road of every request on its
// strand (decide → commit → apply → broadcast), and the timer that lets time decide.
#include "server/game/room.h"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/blocking_pool.h"
#include "server/bots/bot_identity.h"
#include "server/game/identity.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/limits.h"
#include "server/log.h"
#include "server/metrics/metrics.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

namespace {

// `t` as a chat line's time: UTC, ISO 8601, to the second.
std::string iso_time(ServerTime t) {
    const std::time_t seconds = unix_ms(t) / 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::size_t channel_index(const std::string& channel) {
    return channel == "players" ? 0 : 1;
}

// Adds a line to its channel, which keeps only its newest chat_lines_kept.
void keep_chat_line(std::array<std::deque<ChatLine>, 2>& chat, ChatLine line) {
    auto& channel = chat[channel_index(line.channel)];
    channel.push_back(std::move(line));
    if (channel.size() > chat_lines_kept) {
        channel.pop_front();
    }
}

}  // namespace

Room::Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names)
    : state_(state),
      strand_(boost::asio::make_strand(state.io())),
      record_(std::move(record)),
      seat_names_(std::move(seat_names)),
      clock_timer_(strand_),
      spectators_throttle_(strand_, spectators_interval, "room " + record_.id + ": spectators",
                           [this] { return send_spectator_count(); }),
      summary_throttle_(strand_, summary_interval, "room " + record_.id + ": summary",
                        [this] {
                            publish_summary();
                            return true;
                        }),
      bot_timer_(strand_) {
    for (std::size_t seat = 0; seat < record_.seats.size(); ++seat) {
        if (bot_level(record_.seats[seat])) {
            bot_seat_ = static_cast<int>(seat);
        }
    }
    refunded_until_ = now();
    pauses_seen_ = state_.outages().pause_count();
}

ServerTime Room::now() const {
    return state_.time().now();
}

core::Expected<WriteBatch> Room::start_fresh() {
    const auto t = now();
    auto initial = initial_state(record_, t);
    if (!initial) {
        return core::make_error(initial.error());
    }
    game_ = std::move(*initial);
    gone_since_ = {t, t};  // nobody watches a room before it is shared
    if (bot_seat_) {
        gone_since_[static_cast<std::size_t>(*bot_seat_)].reset();  // the computer never leaves
    }
    WriteBatch batch = {CreateGame{record_}};
    std::vector<std::string> opening;
    for (auto event : opening_events(game_)) {
        if (auto status = apply(game_, event, t); !status) {
            return core::make_error(status.error());
        }
        opening.push_back(events::encode_event_text(event));
    }
    if (!opening.empty()) {
        batch.push_back(AppendEvents{id(), 1, opening});
    }
    // Not shared yet: the opening counts as committed once the caller's batch is.
    fens_by_version_.assign(opening.size(), std::string());
    log_ = std::move(opening);
    schedule_clock();
    return batch;
}

core::Status Room::restore(const std::vector<StoredEvent>& stored,
                           std::chrono::milliseconds unowned) {
    // A room here stopped acting for the game (its lease lost) and nobody played it since: the
    // time until now is refunded, whatever the claim knows of a former owner.
    const std::int64_t version = stored.empty() ? 0 : stored.back().version;
    if (const auto since = state_.outages().take_stopped(id(), version, record_.fence)) {
        refunds_ = refunds_.with_gap(*since, now());
    }
    if (auto status = replay_stored(stored, unowned); !status) {
        return status;
    }
    load_rating_change();
    return core::ok_status();
}

core::Status Room::replay_stored(const std::vector<StoredEvent>& stored,
                                 std::chrono::milliseconds unowned) {
    const auto t = now();
    std::vector<std::string> fens;
    fens.reserve(stored.size());
    auto replayed = replay(record_, stored, t, [&](const GameState& state, const RoomEvent& event) {
        const auto* move = std::get_if<events::Move>(&event);
        // A Sniderman round's last capture has dealt the next round already: no position.
        const bool on_board =
            move && static_cast<std::size_t>(move->ply) == state.current_game().moves().size();
        fens.push_back(on_board ? state.current_game().fen() : std::string());
    });
    if (!replayed) {
        return core::make_error(replayed.error());
    }
    fens_by_version_ = std::move(fens);
    game_ = std::move(*replayed);
    // The refunds so far, the takeover's, the store's outage this replay ends and the pauses not
    // refunded yet: those before the last clock reading count for nothing (it holds them).
    const auto pauses_seen = state_.outages().pause_count();
    auto refunds = refunds_.with_gap(t - unowned, t)
                       .with(state_.outages().pauses().within(refunded_until_, t));
    if (outage_since_) {
        const auto span = outage_span(t);
        refunds = refunds.with_gap(span.from, span.until);
    }
    resume(game_, t, state_.downtime().with(refunds));
    refunds_ = std::move(refunds);
    refunded_until_ = t;
    pauses_seen_ = pauses_seen;
    outage_since_.reset();
    log_.clear();
    log_.reserve(stored.size());
    for (const auto& event : stored) {
        log_.push_back(event.json);
    }
    for (int seat = 0; seat < 2; ++seat) {
        const bool here = online(record_.seats[static_cast<std::size_t>(seat)]);
        gone_since_[static_cast<std::size_t>(seat)] =
            here ? std::nullopt : std::optional<ServerTime>(t);
    }
    finished_flag_ = game_.result.has_value();
    rating_change_.clear();
    schedule_clock();
    return core::ok_status();
}

void Room::restore_chat(std::vector<ChatLine> lines) {
    for (auto& line : lines) {
        keep_chat_line(chat_, std::move(line));
    }
}

void Room::post_request(Actor actor, protocol::Request request) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                request = std::move(request)] {
        self->handle(actor, request);
        self->release_if_idle();
    });
}

void Room::post_seated(std::vector<Actor> players, std::uint64_t answer_client, json request_id) {
    boost::asio::post(strand_, [self = shared_from_this(), players = std::move(players),
                                answer_client, request_id = std::move(request_id)] {
        guarded(
            "room", [&] { return "room " + self->id() + ": seating"; },
            [&] {
                for (const auto& actor : players) {
                    const auto seat = self->game_.seat_of(actor.player_id);
                    const json& echo =
                        actor.client_id == answer_client ? request_id : json(nullptr);
                    self->add_watcher(actor);
                    actor.send(make_frame(protocol::game_started_message(
                        self->id(), self->game_.variant, self->game_.seat_name(seat.value_or(0)),
                        echo)));
                    actor.send(make_frame(
                        protocol::snapshot_message(self->snapshot(actor.player_id), echo)));
                }
                self->watchers_changed();
                self->publish_summary();
                self->bot_turn();
            });
    });
}

void Room::post_client_gone(std::uint64_t client_id) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id] {
        guarded(
            "room", [&] { return "room " + self->id() + ": client gone"; },
            [&] {
                self->watchers_.erase(client_id);
                self->watchers_changed();
                self->release_if_idle();
            });
    });
}

void Room::post_looked_away(std::uint64_t client_id) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id] {
        guarded(
            "room", [&] { return "room " + self->id() + ": looked away"; },
            [&] {
                if (self->finished()) {
                    self->unwatch(client_id);
                }
            });
    });
}

void Room::post_summary() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->publish_summary(); });
}

void Room::post_clock_check() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        guarded(
            "room", [&] { return "room " + self->id() + ": clock check"; },
            [&] { self->check_clock(); });
    });
}

void Room::post_barrier(std::function<void()> then) {
    boost::asio::post(strand_, [self = shared_from_this(), then = std::move(then)] {
        guarded("room", "barrier", then);
    });
}

void Room::post_lag(std::uint64_t client_id, int lag_ms) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id, lag_ms] {
        if (auto it = self->watchers_.find(client_id); it != self->watchers_.end()) {
            it->second.lag_ms = lag_ms;
            self->push_presence();
        }
    });
}

void Room::handle(const Actor& actor, const protocol::Request& request) {
    if (lost()) {
        refuse_lost(actor, request.id);
        return;
    }
    if (busy_) {
        wait_turn(actor, request);
        return;
    }
    if (!owns()) {
        // Cluster mode: the lease ran out (a node paused, cut off from Redis): nothing this room
        // knows may be current, so it answers nothing but "reconnect".
        lose("its lease ran out");
        refuse_lost(actor, request.id);
        return;
    }
    if (broken_) {
        rebuild(Waiting{actor, request});  // the request runs once the room is rebuilt
        return;
    }
    refund_outages();
    bool deferred = false;
    const bool ok = guarded(
        "room", [&] { return "room " + id() + " client " + std::to_string(actor.client_id); },
        [&] {
            // A flag that fell (or a first move that is late) ends the game before anything else
            // is looked at; the request then waits for that ending to be stored.
            if (auto ending = decide_time(game_, now()); !ending.empty()) {
                end_by_time(std::move(ending));
            }
            if (busy_) {
                deferred = true;
                return;
            }
            dispatch(actor, request);
        });
    if (deferred) {
        wait_turn(actor, request);
        return;
    }
    if (!ok && !busy_) {
        rebuild();
        fail(actor, request, ErrorCode::internal_error, "the server could not do this");
    }
}

void Room::wait_turn(const Actor& actor, const protocol::Request& request) {
    if (actor.bot_version < 0) {
        const auto mine = std::count_if(waiting_.begin(), waiting_.end(), [&](const auto& w) {
            return w.first.bot_version < 0 && w.first.client_id == actor.client_id;
        });
        if (waiting_.size() >= room_waiting_max ||
            static_cast<std::size_t>(mine) >= room_waiting_per_client) {
            fail(actor, request, ErrorCode::rate_limited,
                 "the game is busy; try again in a moment");
            return;
        }
    }
    waiting_.emplace_back(actor, request);
}

void Room::dispatch(const Actor& actor, const protocol::Request& request) {
    if (drop_bot_request(actor, request)) {
        return;
    }
    if (request.type == RequestType::watch) {
        watch(actor, request);
        return;
    }
    if (request.type == RequestType::unwatch) {
        unwatch(actor, request);
        return;
    }
    if (request.type == RequestType::chat) {
        if (auto refused = may_chat(actor, game_.seat_of(actor.player_id))) {
            fail(actor, request, refused->code, refused->message);
            return;
        }
        say(actor, request);
        return;
    }
    auto decision = decide(game_, command_for(actor, request), now());
    if (decision.error) {
        if (actor.bot_version >= 0) {
            // The computer's answer was refused (it should not be): it is asked again later, so
            // the game never waits for it forever.
            component_logger("room")->warn("game {}: the computer's {} was refused: {}", id(),
                                           protocol::request_type_name(request.type),
                                           decision.error->message);
            bot_asked_ = -1;
            retry_bot_later();
        }
        fail(actor, request, decision.error->code, decision.error->message);
        return;
    }
    const bool rematch = !decision.events.empty() &&
                         std::holds_alternative<events::RematchStarted>(decision.events.back());
    if (rematch) {
        start_rematch(std::move(decision), actor, request);
        return;
    }
    commit(std::move(decision.events), actor, request.id);
}

std::optional<protocol::ProtocolError> Room::may_chat(const Actor& actor,
                                                      const std::optional<int>& seat) {
    if (!seat && game_.result) {
        // After the end only the players talk (a rematch, a good game); spectators' chat closes,
        // for a watcher or not (a finished game not in memory answers so too: finished_games.cpp).
        return protocol::ProtocolError{ErrorCode::game_over, spectators_chat_over_text};
    }
    if (!seat && !watchers_.count(actor.client_id)) {
        return protocol::ProtocolError{ErrorCode::not_a_player, "watch the game to chat in it"};
    }
    if (!seat && !game_.spectator_chat) {
        return protocol::ProtocolError{ErrorCode::chat_closed,
                                       "the players have closed the spectators' chat"};
    }
    if (state_.muted(actor.player_id)) {
        return protocol::ProtocolError{ErrorCode::muted, "an admin has muted your chat"};
    }
    auto& times = chat_times_[actor.player_id];
    const auto t = std::chrono::steady_clock::now();
    while (!times.empty() && t - times.front() > chat_window) {
        times.pop_front();
    }
    if (times.size() >= static_cast<std::size_t>(chat_burst)) {
        return protocol::ProtocolError{ErrorCode::rate_limited,
                                       "too many chat messages; wait a little"};
    }
    if (!actor.ip.empty() && !state_.address_limits().try_chat(actor.ip)) {
        return protocol::ProtocolError{ErrorCode::rate_limited,
                                       "too many chat messages from your address; wait a little"};
    }
    times.push_back(t);
    return std::nullopt;
}

void Room::say(const Actor& actor, const protocol::Request& request) {
    const auto seat = game_.seat_of(actor.player_id);
    ChatLine line;
    line.game_id = id();
    line.channel = seat ? "players" : "spectators";
    line.player_id = actor.player_id;
    line.from = seat ? seat_names_[static_cast<std::size_t>(*seat)] : actor.name;
    line.seat = seat ? game_.seat_name(*seat) : std::string();
    line.text = request.text;
    line.at = iso_time(now());
    InFlight batch;
    batch.chat = line;
    batch.requester = actor;
    batch.request_id = request.id;
    store(WriteBatch{AddChatLine{std::move(line)}}, std::move(batch));
}

void Room::chat_committed(ChatLine line) {
    const bool players = line.channel == "players";
    const auto frame = make_frame(protocol::chat_message(id(), chat_line_json(line)));
    for (const auto& [client_id, watcher] : watchers_) {
        if (game_.seat_of(watcher.player_id).has_value() == players) {
            if (auto client = watcher.client.lock()) {
                client->send(frame);
            }
        }
    }
    keep_chat_line(chat_, std::move(line));
}

Command Room::command_for(const Actor& actor, const protocol::Request& request) const {
    Command command;
    command.request = request;
    command.seat = game_.seat_of(actor.player_id);
    command.player_id = actor.player_id;
    command.name = command.seat ? seat_names_[static_cast<std::size_t>(*command.seat)] : actor.name;
    command.lag_ms = actor.lag_ms;
    command.gone_since = gone_since_;
    if (request.type == RequestType::rematch_offer || request.type == RequestType::rematch_accept) {
        command.new_game_id = random_id("g_");
    }
    return command;
}

// The new game and this room's rematch_started commit together: either both exist or neither.
void Room::start_rematch(Decision decision, const Actor& actor, const protocol::Request& request) {
    const auto& started = std::get<events::RematchStarted>(decision.events.back());
    GameSpec spec;
    spec.id = started.new_game_id;
    spec.variant = game_.variant;
    spec.rules = game_.rules;
    spec.rounds = record_.rounds > 0 ? record_.rounds : 3;
    spec.is_private = record_.is_private;
    spec.rated = record_.rated;
    spec.clock = game_.time_control;
    spec.seats = {record_.seats[1], record_.seats[0]};  // colours (or seats) change hands
    auto prepared =
        std::make_shared<core::Expected<PreparedGame>>(core::make_error("not prepared"));
    auto decided = std::make_shared<std::vector<RoomEvent>>(std::move(decision.events));
    const bool handed = off_strand(
        [this, prepared, spec] {
            *prepared = state_.prepare_game(spec);
            return core::ok_status();
        },
        [this, prepared, decided, actor, request](const core::Status& status) {
            if (!status) {
                *prepared = core::make_error(status.error());
            }
            if (lost()) {
                refuse_lost(actor, request.id);  // (its waiting requests were refused)
                return;
            }
            if (!*prepared) {
                fail(actor, request, ErrorCode::internal_error, prepared->error());
                take_waiting();
                return;
            }
            auto room = (*prepared)->room;
            commit(std::move(*decided), actor, request.id, std::move((*prepared)->writes),
                   [this, room] {
                       state_.add_room(room);
                       std::vector<Actor> players;
                       for (const auto& [client_id, watcher] : watchers_) {
                           if (auto seat = game_.seat_of(watcher.player_id)) {
                               Actor player;
                               player.client = watcher.client;
                               player.client_id = client_id;
                               player.player_id = watcher.player_id;
                               player.name = seat_names_[static_cast<std::size_t>(*seat)];
                               players.push_back(std::move(player));
                           }
                       }
                       room->post_seated(std::move(players));
                   });
            take_waiting();
        });
    if (!handed) {
        fail(actor, request, ErrorCode::rate_limited, std::string(pool_busy_text));
    }
}

void Room::commit(std::vector<RoomEvent> decided, const Actor& actor, const json& request_id,
                  WriteBatch extra, std::function<void()> after) {
    if (decided.empty() && extra.empty()) {
        if (after) {
            after();
        }
        if (!request_id.is_null()) {
            actor.send(make_frame(protocol::ack_message(request_id, id(), game_.version)));
        }
        return;
    }
    InFlight batch;
    for (const auto& event : decided) {
        batch.stored.push_back(events::encode_event_text(event));
        if (const auto* over = std::get_if<events::GameOver>(&event)) {
            batch.finish = over->result;
        }
    }
    batch.events = std::move(decided);
    batch.after = std::move(after);
    batch.requester = actor;
    batch.request_id = request_id;
    WriteBatch writes = std::move(extra);
    writes.push_back(AppendEvents{id(), game_.version + 1, batch.stored});
    if (batch.finish) {
        writes.push_back(
            FinishGame{id(), protocol::to_text(events::result_json(*batch.finish)), unix_now()});
        if (auto rating = rating_write(*batch.finish)) {
            writes.push_back(std::move(*rating));
        }
    }
    store(std::move(writes), std::move(batch));
}

void Room::store(WriteBatch writes, InFlight batch) {
    if (fence_ > 0) {
        // Cluster mode: only while the lease is held, and the store refuses the batch should a
        // newer owner have claimed the game meanwhile.
        if (!owns()) {
            lose("its lease expired");
            refuse_lost(batch.requester, batch.request_id);
            return;
        }
        writes.insert(writes.begin(), CheckFence{id(), fence_});
    }
    batch.sent_at = now();
    state_.store().commit(std::move(writes), [self = shared_from_this(), batch = std::move(batch)](
                                                 core::Status status) mutable {
        boost::asio::post(self->strand_,
                          [self, status = std::move(status), batch = std::move(batch)]() mutable {
                              self->committed(std::move(status), std::move(batch));
                          });
    });
    // After the call: a store that throws leaves the room free; the outcome always arrives later,
    // on the strand.
    busy_ = true;
}

void Room::committed(core::Status status, InFlight batch) {
    if (status || batch.chat || is_fenced(status.error())) {
        finish_commit(std::move(status), std::move(batch), std::nullopt);
        return;
    }
    // Reported failed: perhaps it landed all the same. The store is read back off the strand, and
    // the room stays busy until then.
    auto after =
        std::make_shared<core::Expected<std::vector<StoredEvent>>>(core::make_error("not read"));
    auto held = std::make_shared<InFlight>(std::move(batch));
    const auto version = game_.version;
    const bool handed = off_strand(
        [this, after, version] {
            *after = state_.store().events(id(), version);
            return core::ok_status();
        },
        [this, after, held, status](const core::Status& read) {
            if (!read) {
                *after = core::make_error(read.error());
            }
            finish_commit(status, std::move(*held), std::move(*after));
        });
    if (!handed) {
        finish_commit(std::move(status), std::move(*held),
                      core::make_error(std::string(pool_busy_text)));
    }
}

bool Room::off_strand(std::function<core::Status()> read, std::function<void(core::Status)> then) {
    const bool handed = state_.blocking().run_then(
        strand_, std::move(read),
        [self = shared_from_this(), then = std::move(then)](core::Status status) {
            self->busy_ = false;
            const bool ok = guarded(
                "room", [&] { return "room " + self->id() + ": after a read"; },
                [&] { then(std::move(status)); });
            if (!ok && !self->busy_) {
                self->take_waiting();
            }
        });
    if (handed) {
        busy_ = true;
    }
    return handed;
}

// The batch is durable (or refused): apply, tell everyone, then take the next request.
void Room::finish_commit(core::Status status, InFlight batch,
                         std::optional<core::Expected<std::vector<StoredEvent>>> read_back) {
    busy_ = false;
    auto log = component_logger("room");
    const bool ok = guarded(
        "room", [&] { return "room " + id() + ": committed"; },
        [&] {
            if (!status && is_fenced(status.error())) {
                lose(status.error());  // logged before the requester hears of it
                refuse_lost(batch.requester, batch.request_id);
                return;
            }
            if (!status && read_back && landed(batch, *read_back)) {
                // A COMMIT whose answer was lost: the batch is durable, so it happened.
                log->warn("game {}: a batch reported failed ({}) is in the store: carried on", id(),
                          status.error());
                status = core::ok_status();
            }
            if (!status) {
                store_failed(batch.sent_at);
                log->error("game {}: cannot store {}: {}", id(),
                           batch.chat ? std::string("a chat line")
                                      : std::to_string(batch.stored.size()) + " event(s)",
                           status.error());
                batch.requester.send(error_frame(ErrorCode::internal_error,
                                                 "the server could not store this; try again",
                                                 batch.request_id, id()));
                if (batch.requester.bot_version >= 0) {
                    bot_asked_ = -1;  // the computer's action was not stored: it acts again
                    retry_bot_later();
                }
                return;
            }
            outage_since_.reset();  // the store works: the game plays again
            if (batch.chat) {
                chat_committed(std::move(*batch.chat));
                if (!batch.request_id.is_null()) {
                    batch.requester.send(
                        make_frame(protocol::ack_message(batch.request_id, id(), game_.version)));
                }
                return;
            }
            // The log is what the store holds, even should applying an event throw.
            const auto first = log_.size();
            for (auto& text : batch.stored) {
                log_.push_back(std::move(text));
            }
            fens_by_version_.resize(log_.size());
            const auto t = now();
            for (std::size_t i = 0; i < batch.events.size(); ++i) {
                json derived;          // null until the event adds something
                std::string position;  // a Chessence or Chesica move's position, as text
                if (auto applied = apply(game_, batch.events[i], t, &derived, &position);
                    !applied) {
                    throw std::logic_error("a committed event does not apply: " + applied.error());
                }
                if (std::holds_alternative<events::Move>(batch.events[i])) {
                    if (!position.empty()) {
                        fens_by_version_[first + i] = game_.fens.back();
                    } else if (derived.contains("fen")) {
                        fens_by_version_[first + i] = derived["fen"];
                    }
                }
                broadcast(make_frame(
                    protocol::event_message(id(), static_cast<std::int64_t>(first + i) + 1,
                                            log_[first + i], derived, position)));
            }
            if (!batch.request_id.is_null()) {
                batch.requester.send(
                    make_frame(protocol::ack_message(batch.request_id, id(), game_.version)));
            }
            count_moves(batch);
            if (batch.finish) {
                finished_flag_ = true;
                log->info("game {}: over, {}", id(),
                          protocol::to_text(events::result_json(*batch.finish)));
                announce_rating_change();
            }
            if (batch.after) {
                batch.after();
            }
            if (batch.finish || batch.after) {
                publish_summary();
            } else {
                publish_summary_soon();  // a move, an offer: only counters changed
            }
        });
    if (lost()) {
        return;
    }
    if (!ok) {
        rebuild();
    }
    take_waiting();
}

void Room::take_waiting() {
    if (lost()) {
        return;
    }
    schedule_clock();
    while (!busy_ && !waiting_.empty()) {
        auto [actor, request] = std::move(waiting_.front());
        waiting_.pop_front();
        handle(actor, request);
    }
    if (!busy_) {
        bot_turn();
    }
    release_if_idle();
}

bool Room::landed(const InFlight& batch, const core::Expected<std::vector<StoredEvent>>& after) {
    if (!after) {
        component_logger("room")->error(
            "game {}: cannot tell whether a failed batch landed: {}; rebuilding before the next "
            "request",
            id(), after.error());
        broken_ = true;
        return false;
    }
    if (after->empty()) {
        return false;
    }
    const bool same = after->size() == batch.stored.size() &&
                      std::equal(after->begin(), after->end(), batch.stored.begin(),
                                 [](const StoredEvent& stored, const std::string& text) {
                                     return stored.json == text;
                                 });
    if (!same) {
        component_logger("room")->error(
            "game {}: the store holds {} event(s) after version {} that this room did not write; "
            "rebuilding before the next request",
            id(), after->size(), game_.version);
        broken_ = true;
    }
    return same;
}

void Room::rebuild(std::optional<Waiting> first) {
    broken_ = true;  // until the events are read and replayed
    if (busy_) {
        // (A read is pending already; the next request rebuilds first.)
        if (first) {
            waiting_.push_front(std::move(*first));
        }
        return;
    }
    auto read = std::make_shared<RebuildRead>();
    const bool rated = record_.rated;
    const bool handed = off_strand(
        [this, read, rated] {
            read->events = state_.store().events(id());
            if (read->events && rated) {
                read->ratings = state_.store().game_ratings(id());
            }
            return core::ok_status();
        },
        [this, read, first](const core::Status& status) {
            if (!status) {
                read->events = core::make_error(status.error());
            }
            rebuilt(std::move(*read), first);
        });
    if (!handed) {
        component_logger("room")->error("game {}: cannot rebuild now: {}", id(), pool_busy_text);
        if (first) {
            fail(first->first, first->second, ErrorCode::rate_limited, std::string(pool_busy_text));
        }
    }
}

void Room::rebuilt(RebuildRead read, std::optional<Waiting> first) {
    const auto version = game_.version;
    if (!read.events) {
        component_logger("room")->error("game {}: cannot read its events to rebuild: {}", id(),
                                        read.events.error());
        store_failed(now());
    } else if (auto status = replay_stored(*read.events); !status) {
        component_logger("room")->critical("game {}: cannot rebuild from its events: {}", id(),
                                           status.error());
    } else {
        broken_ = false;
        if (read.ratings && game_.result) {
            set_rating_change(*read.ratings);
        }
        if (game_.version != version) {
            // Events this room never told its watchers about (a batch that landed though reported
            // failed): each gets the game as it is now.
            for (const auto& [client_id, watcher] : watchers_) {
                if (auto client = watcher.client.lock()) {
                    client->send(make_frame(
                        protocol::snapshot_message(snapshot(watcher.player_id), nullptr)));
                }
            }
        }
    }
    if (first) {
        if (broken_) {
            fail(first->first, first->second, ErrorCode::internal_error,
                 "the server cannot load this game now; try again");
        } else {
            handle(first->first, first->second);
        }
    }
    take_waiting();
}

void Room::refund_outages() {
    auto& outages = state_.outages();
    const auto t = now();
    outages.look(std::chrono::steady_clock::now(), t);
    const auto pauses = outages.pause_count();
    if (!outage_since_ && pauses == pauses_seen_) {
        return;
    }
    Downtime fresh;
    if (pauses != pauses_seen_) {
        fresh = outages.pauses().within(refunded_until_, t);
        pauses_seen_ = pauses;
    }
    if (outage_since_) {
        const auto span = outage_span(t);
        fresh = fresh.with_gap(std::max(span.from, refunded_until_), span.until);
        if (span.over) {
            outage_since_.reset();
        }
    }
    // Each span once: the gaps refunded before end where these begin (refunded_until_).
    resume(game_, t, fresh);
    refunds_ = refunds_.with(fresh);
    refunded_until_ = t;
}

void Room::store_failed(ServerTime since) {
    if (!outage_since_ || since < *outage_since_) {
        outage_since_ = std::max(since, refunded_until_);
    }
    outage_seen_ = now();
}

Room::OutageSpan Room::outage_span(ServerTime t) const {
    const auto worked = state_.outages().store_worked_after(outage_seen_);
    OutageSpan span;
    span.from = outage_since_.value_or(t);
    span.until = worked ? std::min(t, *worked) : t;
    span.over = worked.has_value();
    return span;
}

void Room::fail(const Actor& actor, const protocol::Request& request, ErrorCode code,
                std::string message) {
    actor.send(error_frame(code, message, request.id, id()));
}

void Room::count_moves(const InFlight& batch) {
    const auto moves = std::count_if(batch.events.begin(), batch.events.end(), [](const auto& e) {
        return std::holds_alternative<events::Move>(e);
    });
    if (moves == 0) {
        return;
    }
    metrics().moves.add(static_cast<std::uint64_t>(moves));
    if (batch.requester.received != std::chrono::steady_clock::time_point{}) {
        metrics().move_seconds.observe(std::chrono::steady_clock::now() - batch.requester.received);
    }
}

void Room::broadcast(const Frame& frame) {
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        if (auto client = it->second.client.lock()) {
            client->send(frame);
            ++it;
        } else {
            it = watchers_.erase(it);
        }
    }
}

void Room::schedule_clock() {
    if (lost()) {
        return;
    }
    auto due = busy_ ? std::nullopt : next_deadline(game_);
    const auto consider = [&due](std::optional<ServerTime> at) {
        if (at && (!due || *at < *due)) {
            due = at;
        }
    };
    if (!busy_) {
        const auto gone = absence();
        consider(absence_deadline(game_, gone));
        if (!lobby_away_ && !finished() && gone[0] && gone[1]) {
            consider(std::max(*gone[0], *gone[1]) + lobby_away_after);
        }
    }
    if (!due) {
        clock_timer_.cancel();
        return;
    }
    clock_timer_.expires_after(std::max(std::chrono::milliseconds::zero(), *due - now()));
    clock_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self) {
            return;
        }
        guarded(
            "room", [&] { return "room " + self->id() + ": clock"; }, [&] { self->check_clock(); });
    });
}

void Room::check_clock() {
    if (busy_ || lost()) {
        return;
    }
    refund_outages();
    const auto t = now();
    auto ending = decide_time(game_, t);
    if (ending.empty()) {
        ending = decide_absence(game_, absence(), t);
    }
    if (ending.empty()) {
        update_lobby_away();
        schedule_clock();
        return;
    }
    end_by_time(std::move(ending));
}

GoneSince Room::absence() const {
    auto gone = gone_since_;
    if (bot_seat_) {
        const auto bot = static_cast<std::size_t>(*bot_seat_);
        gone[bot] = gone[1 - bot];
    }
    return gone;
}

bool Room::away_from_lobby(ServerTime t) const {
    const auto gone = absence();
    return gone[0] && gone[1] && t - std::max(*gone[0], *gone[1]) >= lobby_away_after;
}

void Room::update_lobby_away() {
    const bool away = away_from_lobby(now());
    if (away != lobby_away_) {
        lobby_away_ = away;
        publish_summary();
    }
}

void Room::end_by_time(std::vector<RoomEvent> ending) {
    const auto& over = std::get<events::GameOver>(ending.front());
    component_logger("room")->info("game {}: ended by time or absence: {}, winner {}", id(),
                                   over.result.reason, over.result.winner.value_or("none"));
    commit(std::move(ending), Actor{}, nullptr);
}

}  // namespace server
