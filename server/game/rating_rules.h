#pragma once
// How this server rates games (docs/accounts.md): which games change ratings, each seat's score,
// and the Glicko-2 update of a finished rated game as the store's RateGame write runs it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/events.h"
#include "server/game/glicko2.h"
#include "server/store/store.h"

namespace server {

// The first seat's score in a finished game (1 win, 0.5 draw, 0 loss), or nothing when the game
// rates nobody (aborted, or a tournament game's no_start). `first_seat` is the first seat's name
// ("white" or "player0"), which is also how a result names that seat (or its side) as the winner.
std::optional<double> first_seat_score(const protocol::events::Result& result,
                                       std::string_view first_seat);

// The RateGame of a rated game that ended with the first seat scoring `first_score` at `at`.
RateGame rate_game_write(const GameRecord& game, double first_score, std::int64_t at);

// The ratings of two seats after their game (RateGame::rate): each current rating (the default
// for a player without one) aged by the days since that player's last rated game, then both
// updated at once. `before` is the rating as stored (or the default).
std::vector<RatedSeat> rate_seats(const std::vector<std::optional<RatingRecord>>& current,
                                  std::int64_t at, double first_score);

// The rating in `variant` among a player's stored `rows` (the default when there is none).
glicko2::Rating rating_in(const std::vector<RatingRecord>& rows, std::string_view variant);
// A player's rating in `variant` as stored (the default when the player has none); an error when
// the ratings cannot be read.
core::Expected<glicko2::Rating> rating_in(Store& store, std::string_view player_id,
                                          std::string_view variant);

// The rating as shown in lists: rounded to a whole number.
int shown_rating(const glicko2::Rating& rating);

}  // namespace server
