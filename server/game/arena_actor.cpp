#include "server/game/arena_actor.h"

#include <algorithm>
#include <set>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "protocol/tournament_messages.h"
#include "server/game/server_state.h"
#include "server/game/tournaments.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/tournament/arena_json.h"

namespace server {

using protocol::ErrorCode;
namespace ti = tournament::arena_input;
namespace te = tournament::arena_event;

namespace {

// How often the actor looks at the time and pairs (the machine's own interval), and how often at
// most the standings' deltas go out.
constexpr auto arena_tick_interval =
    std::chrono::milliseconds(tournament::pairing_pass_interval_ms);
constexpr auto arena_flush_interval = std::chrono::seconds(1);
// Asks waiting for the batch in flight; more are refused (rate_limited).
constexpr std::size_t arena_waiting_max = 1024;

}  // namespace

// The protocol's error for a refusal of the arena machine: its own code where the protocol has
// one, else the closest general one; the machine's text either way.
protocol::ProtocolError arena_protocol_error(const tournament::ArenaRefusal& refusal) {
    using A = tournament::ArenaErrorCode;
    ErrorCode code = ErrorCode::wrong_phase;
    switch (refusal.code) {
        case A::bad_field:
            code = ErrorCode::bad_field;
            break;
        case A::already_joined:
            code = ErrorCode::already_joined;
            break;
        case A::not_joined:
            code = ErrorCode::not_joined;
            break;
        case A::tournament_finished:
            code = ErrorCode::tournament_finished;
            break;
        case A::pause_wait:
            code = ErrorCode::pause_wait;
            break;
        case A::no_such_game:
            code = ErrorCode::no_such_game;
            break;
        default:
            break;
    }
    return {code, refusal.message};
}

ArenaActor::ArenaActor(ServerState& state, TournamentRecord record, tournament::ArenaState arena,
                       std::int64_t version, std::map<std::string, std::string> names)
    : state_(state),
      record_(std::move(record)),
      arena_(std::move(arena)),
      version_(version),
      names_(std::move(names)),
      strand_(boost::asio::make_strand(state.io())),
      tick_timer_(strand_),
      flush_timer_(strand_) {
    publish();
}

void ArenaActor::start() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->arm_tick(); });
}

void ArenaActor::stop() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        self->stopped_ = true;
        self->tick_timer_.cancel();
        self->flush_timer_.cancel();
    });
}

std::shared_ptr<const ArenaView> ArenaActor::view() const {
    std::lock_guard lock(view_mutex_);
    return view_;
}

tournament::ArenaTime ArenaActor::now_ms() const {
    return unix_ms(state_.time().now());
}

void ArenaActor::arm_tick() {
    if (stopped_) {
        return;
    }
    tick_timer_.expires_after(arena_tick_interval);
    tick_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (!ec) {
            guarded(
                "tournament", [&] { return "tournament " + self->id() + ": tick"; },
                [&] { self->tick(); });
            self->arm_tick();
        }
    });
}

void ArenaActor::arm_flush() {
    if (flush_armed_ || stopped_) {
        return;
    }
    flush_armed_ = true;
    flush_timer_.expires_after(arena_flush_interval);
    flush_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        self->flush_armed_ = false;
        if (!ec) {
            guarded(
                "tournament", [&] { return "tournament " + self->id() + ": standings"; },
                [&] { self->flush(); });
        }
    });
}

void ArenaActor::post_ask(Actor actor, tournament::ArenaInput input, ArenaAnswer answer) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                input = std::move(input), answer = std::move(answer)]() mutable {
        if (actor.client.lock()) {
            self->watchers_[actor.client_id] = Watcher{actor.client, actor};
        }
        guarded(
            "tournament", [&] { return "tournament " + self->id() + ": ask"; },
            [&] {
                self->handle(Ask{std::move(actor), std::move(input), std::move(answer)});
            });
    });
}

void ArenaActor::post_watch(Actor actor, nlohmann::json request_id) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                request_id = std::move(request_id)] {
        self->watchers_[actor.client_id] = Watcher{actor.client, actor};
        self->send_tournament(actor, request_id);
    });
}

void ArenaActor::post_unwatch(std::uint64_t client_id) {
    boost::asio::post(strand_,
                      [self = shared_from_this(), client_id] { self->watchers_.erase(client_id); });
}

void ArenaActor::post_game_ended(TournamentGameEnd end) {
    boost::asio::post(strand_, [self = shared_from_this(), end = std::move(end)] {
        guarded(
            "tournament", [&] { return "tournament " + self->id() + ": game " + end.game_id; },
            [&] { self->game_ended(end); });
    });
}

void ArenaActor::tick() {
    if (busy_ || arena_.finished) {
        return;
    }
    const auto now = now_ms();
    auto timed = tournament::decide_time(arena_, now);
    if (!timed.empty()) {
        commit(std::move(timed), {}, [](bool) {});
        return;
    }
    if (status_change(now)) {
        commit({}, {}, [](bool) {});
        return;
    }
    pairing_pass(now);
}

void ArenaActor::handle(Ask ask) {
    if (busy_) {
        if (waiting_.size() >= arena_waiting_max) {
            if (ask.answer) {
                ask.answer(protocol::ProtocolError{ErrorCode::rate_limited,
                                                   "the tournament is busy; try again"});
            }
            return;
        }
        waiting_.push_back(std::move(ask));
        return;
    }
    const auto now = now_ms();
    // Time first: an ask after the end meets the finished arena.
    std::vector<tournament::ArenaEvent> events = tournament::decide_time(arena_, now);
    tournament::ArenaState scratch = arena_;
    for (const auto& event : events) {
        (void)tournament::apply(scratch, event);
    }
    auto decision = tournament::decide(scratch, ask.input, now);
    if (!decision.ok()) {
        if (ask.answer) {
            ask.answer(arena_protocol_error(*decision.refusal));
        }
        if (!events.empty()) {
            commit(std::move(events), {}, [](bool) {});
        }
        return;
    }
    if (std::holds_alternative<tournament::arena_input::Join>(ask.input) &&
        !ask.actor.name.empty()) {
        names_[ask.actor.player_id] = ask.actor.name;
    }
    events.insert(events.end(), decision.events.begin(), decision.events.end());
    commit(std::move(events), {}, [answer = std::move(ask.answer)](bool ok) {
        if (answer) {
            answer(ok ? std::nullopt
                      : std::optional<protocol::ProtocolError>(protocol::ProtocolError{
                            ErrorCode::internal_error,
                            "the tournament could not store this; try again"}));
        }
    });
}

void ArenaActor::take_waiting() {
    while (!busy_ && !waiting_.empty()) {
        auto ask = std::move(waiting_.front());
        waiting_.pop_front();
        handle(std::move(ask));
    }
}

std::optional<SetTournamentStatus> ArenaActor::status_change(tournament::ArenaTime now) const {
    const auto status = arena_status(arena_, now);
    const int players = static_cast<int>(arena_.players.size());
    if (status == record_.status && players == record_.players) {
        return std::nullopt;
    }
    return SetTournamentStatus{record_.id, status, players, {}};
}

void ArenaActor::commit(std::vector<tournament::ArenaEvent> events, WriteBatch extra,
                        std::function<void(bool ok)> after) {
    auto scratch = std::make_shared<tournament::ArenaState>(arena_);
    std::vector<std::string> texts;
    texts.reserve(events.size());
    std::vector<tournament::ArenaEvent> said;  // the chat lines: told once durable
    for (const auto& event : events) {
        if (std::holds_alternative<te::Said>(event)) {
            said.push_back(event);
        }
        if (auto applied = tournament::apply(*scratch, event); !applied) {
            // An event decided on this state that does not fit it: our bug, not the asker's.
            component_logger("tournament")
                ->error("tournament {}: event {} does not apply: {}", record_.id,
                        tournament::encode_event(event), applied.error());
            after(false);
            take_waiting();
            return;
        }
        texts.push_back(tournament::encode_event(event));
    }
    WriteBatch batch;
    if (!texts.empty()) {
        batch.push_back(AppendTournamentEvents{record_.id, version_ + 1, texts});
    }
    // The listed status as the state after the batch says.
    auto listed = record_;
    listed.status = arena_status(*scratch, now_ms());
    listed.players = static_cast<int>(scratch->players.size());
    if (listed.status != record_.status || listed.players != record_.players) {
        SetTournamentStatus status{record_.id, listed.status, listed.players, {}};
        if (scratch->finished) {
            ArenaView final_view{listed, *scratch, names_, standings_version_};
            auto rows = arena_rows(final_view);
            if (!rows.empty()) {
                status.winner_json = protocol::to_text(protocol::tournament_row_json(rows.front()));
                listed.winner_json = status.winner_json;
            }
        }
        batch.push_back(std::move(status));
    }
    for (auto& write : extra) {
        batch.push_back(std::move(write));
    }
    if (batch.empty()) {
        after(true);
        take_waiting();
        return;
    }
    busy_ = true;
    const auto count = static_cast<std::int64_t>(texts.size());
    state_.store().commit(
        std::move(batch),
        [self = shared_from_this(), scratch, listed = std::move(listed), count,
         said = std::move(said), after = std::move(after)](const core::Status& stored) mutable {
            boost::asio::post(self->strand_, [self, scratch, listed = std::move(listed), count,
                                              said = std::move(said), after = std::move(after),
                                              stored]() mutable {
                self->busy_ = false;
                if (!stored) {
                    component_logger("tournament")
                        ->error("tournament {}: cannot store its batch: {}", self->id(),
                                stored.error());
                } else {
                    const bool was_finished = self->arena_.finished;
                    self->arena_ = std::move(*scratch);
                    self->version_ += count;
                    self->record_ = std::move(listed);
                    self->changed_ = true;
                    self->publish();
                    self->arm_flush();
                    self->send_said(said);
                    if (!was_finished && self->arena_.finished) {
                        self->ended();
                    }
                }
                guarded(
                    "tournament", [&] { return "tournament " + self->id() + ": committed"; },
                    [&] { after(static_cast<bool>(stored)); });
                self->take_waiting();
            });
        });
}

void ArenaActor::ended() {
    flush();
    std::vector<protocol::TournamentRow> podium = arena_rows(*view());
    podium.resize(std::min<std::size_t>(podium.size(), 3));
    send_to_watchers(make_frame(protocol::tournament_finished_message(record_.id, podium)));
    component_logger("tournament")
        ->info("tournament {}: finished with {} player(s)", record_.id, arena_.players.size());
    state_.tournaments().forget(record_.id);
}

void ArenaActor::publish() {
    auto view = std::make_shared<ArenaView>(ArenaView{record_, arena_, names_, standings_version_});
    std::lock_guard lock(view_mutex_);
    view_ = std::move(view);
}

void ArenaActor::flush() {
    if (!changed_) {
        return;
    }
    changed_ = false;
    const auto shown = view();
    const auto rows = arena_rows(*shown);
    std::vector<protocol::TournamentRow> delta;
    for (const auto& row : rows) {
        auto& before = pushed_[row.player_id];
        if (before != row) {
            before = row;
            delta.push_back(row);
        }
    }
    auto duels = arena_duels(*shown);
    if (delta.empty() && duels == pushed_duels_) {
        return;
    }
    pushed_duels_ = duels;
    ++standings_version_;
    publish();
    send_to_watchers(make_frame(protocol::tournament_standings_message(
        record_.id, standings_version_, static_cast<int>(rows.size()),
        arena_status(arena_, now_ms()), delta, duels)));
}

std::vector<std::string> ArenaActor::present_players() {
    std::set<std::string> present;
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        if (it->second.client.expired()) {
            it = watchers_.erase(it);
            continue;
        }
        if (arena_.players.count(it->second.actor.player_id)) {
            present.insert(it->second.actor.player_id);
        }
        ++it;
    }
    return {present.begin(), present.end()};
}

std::vector<Actor> ArenaActor::connections_of(const std::string& player_id) {
    std::vector<Actor> out;
    for (const auto& [client_id, watcher] : watchers_) {
        if (watcher.actor.player_id == player_id && !watcher.client.expired()) {
            out.push_back(watcher.actor);
        }
    }
    return out;
}

void ArenaActor::send_to_watchers(const Frame& frame) {
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        if (auto client = it->second.client.lock()) {
            client->send(frame);
            ++it;
        } else {
            it = watchers_.erase(it);
        }
    }
}

void ArenaActor::send_tournament(const Actor& actor, const nlohmann::json& request_id) {
    actor.send(make_frame(arena_watch_message(*view(), actor.player_id, now_ms(), request_id)));
}

}  // namespace server
