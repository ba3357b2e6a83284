// The computer's seat in a room (issue 25): when the committed state leaves the bot to act, the
// room asks the bot pool once for that version (bot_pool.h); the answer re-enters the room as an
// ordinary request of the bot's (post_request), decided and committed like a person's, and is
// dropped if the game moved on meanwhile (a takeback, an offer, the end of the game). Offers are
// answered at once, without thinking: a takeback is accepted (as lichess's computer does), a draw
// declined, a rematch accepted (the same level, colours swapped); the bot never offers anything.
#include <functional>

#include <boost/asio/post.hpp>

#include "server/bots/bot_identity.h"
#include "server/bots/bot_time.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

using protocol::RequestType;

void Room::post_bot_check() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        guarded(
            "room", [&] { return "room " + self->id() + ": bot check"; },
            [&] { self->bot_turn(); });
    });
}

Actor Room::bot_actor(std::int64_t version) const {
    Actor actor;
    const auto& player_id = record_.seats[static_cast<std::size_t>(*bot_seat_)];
    actor.player_id = player_id;
    actor.name = bot_name(bot_level(player_id).value_or(1));
    actor.bot_version = version;
    return actor;
}

void Room::bot_turn() {
    if (!bot_seat_ || busy_ || broken_ || lost() || state_.stopping()) {
        return;
    }
    const int bot = *bot_seat_;
    const int human = 1 - bot;
    const auto version = game_.version;
    if (bot_answered_offer_ != version) {
        std::optional<RequestType> reply;
        if (game_.takeback_offer == human) {
            reply = RequestType::takeback_accept;
        } else if (game_.draw_offer == human) {
            reply = RequestType::draw_decline;
        } else if (game_.rematch_offer == human && !game_.rematch_game) {
            reply = RequestType::rematch_accept;
        }
        if (reply) {
            bot_answered_offer_ = version;
            protocol::Request request;
            request.type = *reply;
            request.game_id = id();
            post_request(bot_actor(version), std::move(request));
            return;
        }
    }
    if (game_.result || game_.acting_seat() != bot || bot_asked_ == version) {
        return;
    }
    if (ask_bot()) {
        bot_asked_ = version;
    } else {
        retry_bot_later();
    }
}

bool Room::ask_bot() {
    const int bot = *bot_seat_;
    const int level = bot_level(record_.seats[static_cast<std::size_t>(bot)]).value_or(1);
    BotJob job;
    job.level = level;
    if (game_.match) {
        switch (game_.match->phase()) {
            case core::sniderman::MatchPhase::naming:
                job.task = BotTask::name_object;
                job.objects = game_.match->available_objects();
                break;
            case core::sniderman::MatchPhase::choosing:
                job.task = BotTask::choose_side;
                break;
            case core::sniderman::MatchPhase::playing:
                job.task = BotTask::move;
                break;
            case core::sniderman::MatchPhase::finished:
                return true;  // nothing to do
        }
    }
    job.game = game_.current_game().clone();
    const auto& limits = state_.limits();
    const auto level_time =
        limits.bot_move_time.count() > 0 ? limits.bot_move_time : level_move_time(level);
    std::optional<std::int64_t> left;
    if (game_.time_control.real_time()) {
        left = game_.clock.left(bot, now());
    }
    job.move_time = bot_think_time(level_time, left, game_.time_control.increment_ms());
    const auto version = game_.version;
    job.seed = std::hash<std::string>{}(id()) ^
               (static_cast<std::uint64_t>(version) * 0x9e3779b97f4a7c15ULL);
    const auto task = job.task;
    job.done = [weak = weak_from_this(), actor = bot_actor(version), task,
                game_id = id()](BotAnswer answer) {
        auto self = weak.lock();
        if (!self) {
            return;
        }
        if (answer.error) {
            component_logger("room")->warn("game {}: the computer could not act: {}", game_id,
                                           *answer.error);
            boost::asio::post(self->strand_, [self, version = actor.bot_version] {
                if (self->bot_asked_ == version) {
                    self->bot_asked_ = -1;
                    self->retry_bot_later();
                }
            });
            return;
        }
        protocol::Request request;
        request.game_id = game_id;
        switch (task) {
            case BotTask::move:
                request.type = RequestType::move;
                request.move = answer.move;
                break;
            case BotTask::name_object:
                request.type = RequestType::name_object;
                request.object = answer.object;
                break;
            case BotTask::choose_side:
                request.type = RequestType::choose_side;
                request.side = answer.odd ? core::Side::first : core::Side::second;
                break;
        }
        self->post_request(actor, std::move(request));
    };
    return state_.bots().submit(std::move(job));
}

void Room::retry_bot_later() {
    if (bot_retry_armed_) {
        return;
    }
    bot_retry_armed_ = true;
    component_logger("room")->debug("game {}: no bot thread free; asking again in {} ms", id(),
                                    bot_retry_interval.count());
    bot_timer_.expires_after(bot_retry_interval);
    bot_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (!self) {
            return;
        }
        self->bot_retry_armed_ = false;
        if (ec) {
            return;
        }
        guarded(
            "room", [&] { return "room " + self->id() + ": bot retry"; },
            [&] { self->bot_turn(); });
    });
}

bool Room::drop_bot_request(const Actor& actor, const protocol::Request& request) {
    if (actor.bot_version < 0) {
        return false;
    }
    if (state_.stopping()) {
        // The drain refuses every request (server_restarting); the bot acts again after the
        // restart, when the restored room asks the pool.
        component_logger("room")->info("game {}: the computer's {} refused: server_restarting",
                                       id(), protocol::request_type_name(request.type));
        return true;
    }
    if (actor.bot_version != game_.version) {
        component_logger("room")->info(
            "game {}: the computer's {} for version {} is stale (now {}): dropped", id(),
            protocol::request_type_name(request.type), actor.bot_version, game_.version);
        return true;
    }
    return false;
}

}  // namespace server
