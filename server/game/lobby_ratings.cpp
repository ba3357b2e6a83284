// The lobby's part in ratings (issue 16): rated seeks need accounts on both sides, a seek may
// limit its accepter's rating, and quick pairing prefers the closest rating.
#include <cstdlib>
#include <limits>

#include "server/game/lobby.h"
#include "server/game/rating_rules.h"
#include "server/game/server_state.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::ProtocolError;

int Lobby::shown_rating_of(const std::string& player_id, core::VariantId variant) const {
    return shown_rating(rating_in(state_.store(), player_id, core::variant_name(variant)));
}

std::optional<ProtocolError> Lobby::seek_refusal(const Actor& actor,
                                                 const protocol::Request& request) const {
    if (request.rated && !actor.account) {
        return ProtocolError{ErrorCode::account_required,
                             "rated games are for registered players; log in or register"};
    }
    return std::nullopt;
}

void Lobby::rate_seek(Seek& seek, const Actor& actor, const protocol::Request& request) {
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
        seek.creator_rating = shown_rating(rating);
        seek.json["rating"] = seek.creator_rating;
        seek.json["provisional"] = glicko2::provisional(rating);
    } else {
        seek.creator_rating = shown_rating(glicko2::Rating{});
    }
}

std::optional<ProtocolError> Lobby::accept_refusal(const Actor& actor, const Seek& seek) const {
    if (seek.rated && !actor.account) {
        return ProtocolError{ErrorCode::account_required,
                             "rated games are for registered players; log in or register"};
    }
    if (seek.rating_min || seek.rating_max) {
        const int mine = shown_rating_of(actor.player_id, seek.variant);
        if ((seek.rating_min && mine < *seek.rating_min) ||
            (seek.rating_max && mine > *seek.rating_max)) {
            return ProtocolError{
                ErrorCode::outside_rating_range,
                "your rating " + std::to_string(mine) + " is outside this seek's rating range"};
        }
    }
    return std::nullopt;
}

const Lobby::Seek* Lobby::best_match(const Actor& actor, const protocol::Request& request) const {
    const int mine = shown_rating_of(actor.player_id, request.variant);
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
