// A room's decisions on their way to the disk and back: the batch handed to the store, the
// requests that wait meanwhile, the outcome applied and broadcast — or, when the store failed, the
// room rebuilt from what the store holds (a batch reported failed may have landed).
#include "server/game/room.h"

#include <algorithm>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/blocking_pool.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/limits.h"
#include "server/log.h"
#include "server/metrics/metrics.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
namespace events = protocol::events;

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
                tell_tournament();
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

}  // namespace server
