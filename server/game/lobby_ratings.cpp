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

bool needs_asker_facts(ServerState& state, const Actor& actor, const protocol::Request& request) {
    const bool pairing = request.type == protocol::RequestType::seek_create ||
                         request.type == protocol::RequestType::seek_accept ||
                         request.type == protocol::RequestType::quick_pair;
    return pairing && (actor.account || state.leases() != nullptr);
}

core::Expected<AskerFacts> read_asker_facts(ServerState& state, const Actor& actor) {
    AskerFacts facts;
    if (actor.account) {
        auto ratings = state.store().ratings_of(actor.player_id);
        if (!ratings) {
            return core::make_error("the ratings of " + actor.player_id + ": " + ratings.error());
        }
        facts.ratings = std::move(*ratings);
    }
    if (state.leases()) {
        auto games = state.store().unfinished_game_ids_of(actor.player_id);
        if (!games) {
            return core::make_error("the unfinished games of " + actor.player_id + ": " +
                                    games.error());
        }
        facts.unfinished_games = games->size();
    }
    return facts;
}

std::optional<ProtocolError> Lobby::seek_refusal(const Actor& actor,
                                                 const protocol::Request& request) const {
    if (request.rated && !actor.account) {
        return ProtocolError{ErrorCode::account_required,
                             "rated games are for registered players; log in or register"};
    }
    return std::nullopt;
}

void Lobby::rate_seek(Seek& seek, const Actor& actor, const protocol::Request& request,
                      const AskerFacts& facts) {
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
        const auto rating = rating_in(facts.ratings, core::variant_name(seek.variant));
        seek.creator_rating = shown_rating(rating);
        seek.json["rating"] = seek.creator_rating;
        seek.json["provisional"] = glicko2::provisional(rating);
    } else {
        seek.creator_rating = shown_rating(glicko2::Rating{});
    }
}

std::optional<ProtocolError> Lobby::accept_refusal(const Actor& actor, const Seek& seek,
                                                   const AskerFacts& facts) {
    if (seek.rated && !actor.account) {
        return ProtocolError{ErrorCode::account_required,
                             "rated games are for registered players; log in or register"};
    }
    if (seek.rating_min || seek.rating_max) {
        const int mine = shown_rating(rating_in(facts.ratings, core::variant_name(seek.variant)));
        if ((seek.rating_min && mine < *seek.rating_min) ||
            (seek.rating_max && mine > *seek.rating_max)) {
            return ProtocolError{
                ErrorCode::outside_rating_range,
                "your rating " + std::to_string(mine) + " is outside this seek's rating range"};
        }
    }
    return std::nullopt;
}

const Lobby::Seek* Lobby::best_match(const Actor& actor, const protocol::Request& request,
                                     const AskerFacts& facts) const {
    const int mine = shown_rating(rating_in(facts.ratings, core::variant_name(request.variant)));
    const Seek* best = nullptr;
    int best_distance = std::numeric_limits<int>::max();
    for (const auto& seek : seeks_) {
        const bool rounds_match =
            seek.variant != core::VariantId::sniderman || seek.rounds == request.rounds;
        const bool fits =
            !seek.is_private && seek.variant == request.variant && seek.rules == request.rules &&
            rounds_match && seek.clock == request.clock && seek.rated == request.rated &&
            seek.creator.player_id != actor.player_id && !accept_refusal(actor, seek, facts);
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
