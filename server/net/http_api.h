#pragma once
// The JSON (and PGN) endpoints: /healthz, /api/games/<id>, /api/games/<id>.pgn,
// /api/legal?variant=…&fen=…&moves=…, /api/seeks/<id>, and the player and leaderboard endpoints
// of http_players.h (/api/players/…, /api/leaderboard/…). Anything else is not an API path.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "server/net/http_reply.h"
#include "server/store/store.h"

namespace server {

// The reply for an API path, or nothing when `target` is not one (then it is a static file).
// `authorization` is the request's Authorization header ("Bearer <token>" names the viewer, to
// whom their own private games are shown).
std::optional<HttpReply> serve_api(Store& store, std::string_view target,
                                   std::string_view authorization = {});

// The game as GET /api/games/<id> shows it (its record, players, moves, result, rating change);
// an error when a read fails.
core::Expected<nlohmann::json> game_json(Store& store, const GameRecord& record);

// A private game is read only with its key (`key=` in `query`) or by one of its players (a bearer
// token in `authorization`): otherwise 403 (500 when the token's player cannot be read). Nothing
// to refuse when the game is public.
std::optional<HttpReply> private_refusal(Store& store, const GameRecord& game,
                                         std::string_view query, std::string_view authorization);

}  // namespace server
