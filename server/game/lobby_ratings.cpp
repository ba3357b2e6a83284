// The lobby's part in ratings (issue 16): rated seeks need accounts on both sides, a seek may
// limit its accepter's rating, and quick pairing prefers the closest rating.
#include <cstdlib>
#include <limits>

#include "protocol/messages.h"
#include "server/game/lobby.h"
#include "server/game/rating_rules.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::ProtocolError;

core::Expected<int> Lobby::shown_rating_of(const std::string& player_id,
                                           core::VariantId variant) const {
    const auto rating = rating_in(state_.store(), player_id, core::variant_name(variant));
    if (!rating) {
        return core::make_error(rating.error());
    }
    return shown_rating(*rating);
}

void Lobby::read_failed(const Actor& actor, const std::string& error, const json& id) const {
    component_logger("lobby")->error("client {} player {}: {}", actor.client_id, actor.player_id,
                                     error);
    actor.send(error_frame(ErrorCode::internal_error,
                           "the server could not read the ratings; try again", id));
}

std::optional<ProtocolError> Lobby::seek_refusal(const Actor& actor,
                                                 const protocol::Request& request) const {
    if (request.rated && !actor.account) {
        return ProtocolError{ErrorCode::account_required,
                             "rated games are for registered players; log in or register"};
    }
    return std::nullopt;
}

core::Status Lobby::rate_seek(Seek& seek, const Actor& actor, const protocol::Request& request) {
    seek.rated = request.rated;
    seek.rating_min = request.rating_min;
    seek.rating_max = request.rating_max;
    seek.json["rated"] = seek.rated;
    if (seek.rating_min) {
        seek.json["rating_min"] = *seek.rating_min;
    }
    if (seek.rating_max) {
        seek.json["rating_max"] = *seek.rating_max;
    }
    if (actor.account) {
        const auto rating =
            rating_in(state_.store(), actor.player_id, core::variant_name(seek.variant));
        if (!rating) {
            return core::make_error(rating.error());
        }
        seek.creator_rating = shown_rating(*rating);
        seek.json["rating"] = seek.creator_rating;
        seek.json["provisional"] = glicko2::provisional(*rating);
    } else {
        seek.creator_rating = shown_rating(glicko2::Rating{});
    }
    return core::ok_status();
}

std::optional<ProtocolError> Lobby::accept_refusal(const Actor& actor, const Seek& seek) const {
    if (seek.rated && !actor.account) {
        return ProtocolError{ErrorCode::account_required,
                             "rated games are for registered players; log in or register"};
    }
    if (seek.rating_min || seek.rating_max) {
        const auto mine = shown_rating_of(actor.player_id, seek.variant);
        if (!mine) {
            component_logger("lobby")->error("client {} player {}: {}", actor.client_id,
                                             actor.player_id, mine.error());
            return ProtocolError{ErrorCode::internal_error,
                                 "the server could not read your rating; try again"};
        }
        if ((seek.rating_min && *mine < *seek.rating_min) ||
            (seek.rating_max && *mine > *seek.rating_max)) {
            return ProtocolError{
                ErrorCode::outside_rating_range,
                "your rating " + std::to_string(*mine) + " is outside this seek's rating range"};
        }
    }
    return std::nullopt;
}

const Lobby::Seek* Lobby::best_match(const Actor& actor, const protocol::Request& request,
                                     int mine) const {
    const Seek* best = nullptr;
    int best_distance = std::numeric_limits<int>::max();
    for (const auto& seek : seeks_) {
        const bool rounds_match =
            seek.variant != core::VariantId::sniderman || seek.rounds == request.rounds;
        const bool fits = !seek.is_private && seek.variant == request.variant &&
                          seek.rules == request.rules && rounds_match &&
                          seek.clock == request.clock && seek.rated == request.rated &&
                          seek.creator.player_id != actor.player_id && !accept_refusal(actor, seek);
        if (!fits) {
            continue;
        }
        const int distance = std::abs(seek.creator_rating - mine);
        if (distance < best_distance) {  // strictly closer: the oldest wins a tie
            best = &seek;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace server
