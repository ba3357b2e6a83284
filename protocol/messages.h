#pragma once
// What the server sends (docs/protocol.md, "Server → client"): one builder per message type, each
// returning the serialised frame. `id` is the echoed request id (null: none).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game.h"
#include "protocol/errors.h"

namespace protocol {

struct PlayerInfo {
    std::string id;
    std::string name;
};

nlohmann::json player_json(const PlayerInfo& player);

// Compact JSON text; never throws: invalid UTF-8 (which only a bug could put there) is replaced.
std::string to_text(const nlohmann::json& value);

// `account` ({username, admin}, issue 16) is added when the player is an account.
std::string welcome_message(const PlayerInfo& player, std::string_view token,
                            const std::vector<std::string>& games, const nlohmann::json& id,
                            const nlohmann::json& account = nullptr);
std::string player_message(const PlayerInfo& player, const nlohmann::json& id);
std::string error_message(ErrorCode code, std::string_view message, const nlohmann::json& id,
                          std::string_view game_id = {});
std::string error_message(const ProtocolError& error, const nlohmann::json& id,
                          std::string_view game_id = {});
// `seeks` and `games` are arrays of seek objects and game summaries.
// The reply to lobby_subscribe: every public seek, the first page of games, how many in all.
std::string lobby_message(const nlohmann::json& seeks, const nlohmann::json& games,
                          std::size_t games_total, const nlohmann::json& id);
// The reply to lobby_games: a page of the games in progress, newest first.
std::string lobby_games_message(std::size_t offset, std::size_t total, const nlohmann::json& games,
                                const nlohmann::json& id);
// The lobby's pushes after `lobby` (issue 24): one change each, in order; game_changed carries
// the latest summary of every game whose counters changed in the last second.
std::string seek_added_message(const nlohmann::json& seek);
std::string seek_removed_message(std::string_view seek_id);
std::string game_added_message(const nlohmann::json& game);
std::string game_removed_message(std::string_view game_id);
std::string game_changed_message(const nlohmann::json& games);
std::string seek_created_message(const nlohmann::json& seek, const nlohmann::json& id);
std::string seek_cancelled_message(std::string_view seek_id, const nlohmann::json& id);
// `you` is the seat: "white"/"black", or "player0"/"player1" in Sniderman.
std::string game_started_message(std::string_view game_id, core::VariantId variant,
                                 std::string_view you, const nlohmann::json& id);
// `room` holds every snapshot field but `type` and `id`.
std::string snapshot_message(nlohmann::json room, const nlohmann::json& id);
// A live room event: the stored event object (`event_json`, embedded as is) with the fields its
// broadcast adds merged in: `derived` (an object; empty adds nothing) and `fields_text` (fields
// already written as text without braces, position_fields_text; empty adds nothing).
std::string event_message(std::string_view game_id, std::int64_t version,
                          std::string_view event_json,
                          const nlohmann::json& derived = nlohmann::json::object(),
                          std::string_view fields_text = {});

struct VersionedEvent {
    std::int64_t version = 0;
    std::string json;  // the event object, embedded as is
};
// What a watcher missed, in one frame: the events in order, the room's version after them, the
// position it is in, and (an array, when given) the chat lines the watcher may read now.
std::string events_message(std::string_view game_id, std::int64_t version,
                           const std::vector<VersionedEvent>& events,
                           const nlohmann::json& position, const nlohmann::json& id,
                           const nlohmann::json& chat = nullptr);
// One chat line, to those who may read its channel (not a room event: it has no version).
std::string chat_message(std::string_view game_id, const nlohmann::json& line);
std::string spectators_message(std::string_view game_id, int count);
// Whether each seated player has a connection watching the room: {"<seat>": true|false, …}; the
// measured round trip of each seat's connection ({"<seat>": ms|null}); and for a seat that has
// left, the milliseconds until its opponent may claim ({"<seat>": ms}, only seats that count as
// gone).
std::string presence_message(std::string_view game_id, const nlohmann::json& online,
                             const nlohmann::json& lag = nlohmann::json::object(),
                             const nlohmann::json& claim_in = nlohmann::json::object());
std::string pong_message(const nlohmann::json& id);
// The server starts to shut down: reconnect after a random delay of up to `reconnect_ms`.
std::string server_restart_message(int reconnect_ms);
// The reply to a request with an `id` that has no other: the request was carried out (its events,
// if any, are stored and were sent before this), and the version of the game or nothing.
std::string ack_message(const nlohmann::json& id, std::string_view game_id = {},
                        std::int64_t version = -1);

// {files, ranks, squares, reserves} of a board.
nlohmann::json board_json(const core::BoardView& board);
// {"<square>": "<powers>"} for every man of a Chessence board: what it may move as now ("r", "b",
// "n", in that order; "" for none). An empty object for the other games.
nlohmann::json powers_json(const core::BoardView& board);
// The public position fields shared by `move` events and snapshots:
// {fen, board, to_move, legal, in_check} and, in Chessence, `powers`; `to_move` is null once the
// game is over.
nlohmann::json position_json(const core::Game& game);
// position_json(game) written straight to text, without its braces: the same bytes as
// to_text(position_json(game)) between them, made without a JSON tree (a move's broadcast, where
// the tree cost most of the move). `fen` is game.fen(), which the caller has already.
std::string position_fields_text(const core::Game& game, std::string_view fen);
// {winner, reason} with the winner named by side ("white", "odd", …) or null.
nlohmann::json outcome_json(core::VariantId variant, const core::Outcome& outcome);

}  // namespace protocol
