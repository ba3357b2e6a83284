#include "server/game/rating_rules.h"

#include <cmath>

namespace server {

namespace {

constexpr double seconds_per_day = 86400.0;

glicko2::Rating from_value(const RatingValue& value) {
    return {value.rating, value.rd, value.volatility};
}

RatingValue to_value(const glicko2::Rating& rating) {
    return {rating.rating, rating.rd, rating.volatility};
}

}  // namespace

std::optional<double> first_seat_score(const protocol::events::Result& result,
                                       std::string_view first_seat) {
    // A tournament game whose first moves did not come (issue 43) has a winner but, like an
    // aborted game, fewer than two moves: it rates nobody.
    if (result.reason == "aborted" || result.reason == "no_start") {
        return std::nullopt;
    }
    if (!result.winner) {
        return 0.5;
    }
    return *result.winner == first_seat ? 1.0 : 0.0;
}

std::vector<RatedSeat> rate_seats(const std::vector<std::optional<RatingRecord>>& current,
                                  std::int64_t at, double first_score) {
    std::vector<glicko2::Rating> ratings;
    std::vector<double> idle_days;
    for (const auto& row : current) {
        ratings.push_back(row ? from_value(row->value) : glicko2::Rating{});
        const bool played = row && row->games > 0 && at > row->last_played;
        idle_days.push_back(played ? static_cast<double>(at - row->last_played) / seconds_per_day
                                   : 0.0);
    }
    if (ratings.size() != 2) {
        return {};
    }
    const auto rated =
        glicko2::rate_game(ratings[0], idle_days[0], ratings[1], idle_days[1], first_score);
    return {{to_value(ratings[0]), to_value(rated.first)},
            {to_value(ratings[1]), to_value(rated.second)}};
}

RateGame rate_game_write(const GameRecord& game, double first_score, std::int64_t at) {
    RateGame write;
    write.game_id = game.id;
    write.variant = game.variant;
    write.players = game.seats;
    write.at = at;
    write.rate = [first_score](const std::vector<std::optional<RatingRecord>>& current,
                               std::int64_t when) {
        return rate_seats(current, when, first_score);
    };
    return write;
}

glicko2::Rating rating_in(const std::vector<RatingRecord>& rows, std::string_view variant) {
    for (const auto& row : rows) {
        if (row.variant == variant) {
            return from_value(row.value);
        }
    }
    return glicko2::Rating{};
}

core::Expected<glicko2::Rating> rating_in(Store& store, std::string_view player_id,
                                          std::string_view variant) {
    const auto rows = store.ratings_of(player_id);
    if (!rows) {
        return core::make_error(rows.error());
    }
    return rating_in(*rows, variant);
}

int shown_rating(const glicko2::Rating& rating) {
    return static_cast<int>(std::lround(rating.rating));
}

}  // namespace server
