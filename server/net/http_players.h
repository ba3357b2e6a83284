#pragma once
// The player and rating endpoints (issue 16): a player's page data, their finished games with
// filters and paging, all their games as one PGN file, and the leaderboards. `viewer_id` is the
// player the request speaks for ("" if anonymous): a private game is shown only to its players.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/expected.h"
#include "server/net/http_reply.h"
#include "server/store/store.h"

namespace server {

// The player a bearer token speaks for ("" when there is none or it is unknown); an error when the
// store cannot be read.
core::Expected<std::string> viewer_of(Store& store, std::string_view authorization);

// /api/players/<id or username>[/games[.pgn]] and /api/leaderboard/<variant>; nothing when
// `path` is neither.
std::optional<HttpReply> serve_player_api(Store& store, std::string_view path,
                                          std::string_view query, const std::string& viewer_id);

// A game's seat by index as the API names it: white/black, or player0/player1 in Sniderman.
std::string seat_name(const GameRecord& game, std::size_t seat);
// The game's players as `[{seat, id, name}]` (a player the store no longer has is "Unknown"); an
// error when a player cannot be read.
core::Expected<nlohmann::json> players_json(Store& store, const GameRecord& game);

// `key`'s value in a query string ("a=1&b=2"), without percent-decoding; nothing if absent.
std::optional<std::string_view> query_value(std::string_view query, std::string_view key);

}  // namespace server
