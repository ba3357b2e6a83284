// Takebacks (Chessence, Chesica): a player asks to undo their last move — or, when it is their
// turn, the opponent's last move and their own before it — and the opponent accepts or declines.
// The accepted takeback is one stored event; replaying it rebuilds the game without those moves
// and puts the clocks back to what they were after the move before them.
#include "protocol/messages.h"
#include "server/game/room.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

core::Status Room::apply_takeback(const events::Takeback& takeback, json* derived) {
    if (match_) {
        return core::make_error("a takeback in a sniderman game");
    }
    if (!seat_from_name(takeback.by)) {
        return core::make_error("a takeback by an unknown seat");
    }
    const auto moves = game_->moves();
    if (takeback.plies < 1 || takeback.plies > 2 ||
        static_cast<std::size_t>(takeback.plies) > moves.size()) {
        return core::make_error("cannot take back " + std::to_string(takeback.plies) + " of " +
                                std::to_string(moves.size()) + " moves");
    }
    const auto keep = moves.size() - static_cast<std::size_t>(takeback.plies);
    core::GameOptions options;
    options.rules = rules_;
    options.fen = game_->start_fen();
    auto game = core::make_game(variant_, options);
    if (!game) {
        return core::make_error(game.error());
    }
    const int first_mover = (*game)->to_move() == core::Side::first ? 0 : 1;
    for (std::size_t i = 0; i < keep; ++i) {
        if (auto played = (*game)->play(moves[i]); !played) {
            return core::make_error(played.error());
        }
    }
    game_ = std::move(*game);
    fens_.resize(keep + 1);
    if (clock_history_.size() > keep + 1) {
        clock_history_.resize(keep + 1);
    }
    std::array<bool, 2> acted{};
    acted[static_cast<std::size_t>(first_mover)] = keep >= 1;
    acted[static_cast<std::size_t>(1 - first_mover)] = keep >= 2;
    clock_.set_acted(acted);
    draw_offer_.reset();
    takeback_offer_.reset();
    if (derived) {
        *derived = derived_position(*game_);
    }
    return core::ok_status();
}

void Room::takeback_request(const Actor& actor, const protocol::Request& request, int seat) {
    if (match_) {
        fail(actor, request, ErrorCode::not_supported, "Sniderman has no takebacks");
        return;
    }
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    // What the offerer's takeback undoes: their last move, and the opponent's after it when the
    // offerer is to move again.
    const auto plies_for = [&](int offerer) {
        return (game_->to_move() == core::Side::first ? 0 : 1) == offerer ? 2 : 1;
    };
    const auto take_back = [&](int offerer) {
        const int plies = plies_for(offerer);
        const auto keep = game_->moves().size() - static_cast<std::size_t>(plies);
        events::Takeback takeback{seat_name(offerer), plies, std::nullopt};
        if (keep < clock_history_.size()) {
            takeback.clock = clock_history_[keep];
        }
        if (auto taken = emit(std::move(takeback)); !taken) {
            fail(actor, request, ErrorCode::wrong_phase, taken.error());
            return;
        }
        commit(actor, request);
    };
    const bool opponent_offered = takeback_offer_ == 1 - seat;
    if (request.type == RequestType::takeback_offer) {
        if (opponent_offered) {
            take_back(1 - seat);
        } else if (takeback_offer_ == seat) {
            commit(actor, request);  // repeating one's own offer does nothing
        } else if (static_cast<std::size_t>(plies_for(seat)) > game_->moves().size()) {
            fail(actor, request, ErrorCode::wrong_phase, "you have no move to take back");
        } else {
            emit(events::TakebackOffered{seat_name(seat)});
            commit(actor, request);
        }
        return;
    }
    if (!opponent_offered) {
        fail(actor, request, ErrorCode::no_takeback_offer,
             "your opponent has not asked for a takeback");
        return;
    }
    if (request.type == RequestType::takeback_accept) {
        take_back(1 - seat);
    } else {
        emit(events::TakebackDeclined{seat_name(seat)});
        commit(actor, request);
    }
}

}  // namespace server
