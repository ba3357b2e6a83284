#pragma once
// What the server sends about tournaments (issue 43; docs/protocol.md, "Tournaments"): one
// builder per message, each returning the serialised frame. The values are plain: the server
// computes them from its tournament state, this file only gives them their one JSON form.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/variant.h"
#include "protocol/time_control.h"

namespace protocol {

// One player's line of the standings.
struct TournamentRow {
    std::string player_id;
    std::string name;
    int rank = 0;
    int score = 0;
    int rating = 0;
    int performance = 0;
    int games = 0;
    bool fire = false;   // on fire: the next game scores double
    std::string status;  // "active" | "paused" | "withdrawn"
    std::string sheet;   // points per finished game, newest first ("4220…"; lichess's sheet)
    friend bool operator==(const TournamentRow&, const TournamentRow&) = default;
};

// A game in progress of the tournament, as its lists show it: the two players with their ranks.
struct TournamentDuelist {
    std::string player_id;
    std::string name;
    int rank = 0;
    int rating = 0;
    friend bool operator==(const TournamentDuelist&, const TournamentDuelist&) = default;
};
struct TournamentDuel {
    std::string game_id;
    TournamentDuelist first;  // White, player0
    TournamentDuelist second;
    friend bool operator==(const TournamentDuel&, const TournamentDuel&) = default;
};

// A line of the tournament's chat: who said it (their id, and their name then), and when.
struct TournamentChatLine {
    std::string player_id;
    std::string from;
    std::string text;
    std::int64_t at = 0;  // unix ms; written as ISO 8601 UTC, to the second, as a game's chat lines
    friend bool operator==(const TournamentChatLine&, const TournamentChatLine&) = default;
};

// What a tournament is and where it stands, without its players.
struct TournamentInfo {
    std::string id;
    std::string kind = "arena";
    std::string name;
    core::VariantId variant = core::VariantId::chessence;
    TimeControl clock;
    int minutes = 0;
    bool rated = true;
    bool berserkable = true;
    bool is_private = false;
    std::string created_by;      // the creator's name ("" for the server's own)
    std::string status;          // "created" | "started" | "finished"
    std::int64_t starts_at = 0;  // unix ms
    std::int64_t ends_at = 0;
    std::int64_t now = 0;  // unix ms: the seconds to start and to finish are counted from it
    bool pairings_closed = false;
    int players = 0;
};

// The object of `info` as the messages and GET /api/tournament/<id> share it.
nlohmann::json tournament_info_json(const TournamentInfo& info);
nlohmann::json tournament_row_json(const TournamentRow& row);
// {player_id, from, text, at}
nlohmann::json tournament_chat_line_json(const TournamentChatLine& line);

// The answer to tournament_watch (and to a join, for the joiner's other pages): the tournament,
// its first standings page, `version` (the count of standings pushes so far; each delta carries
// the next), and for a player in it their own line and the game they are in.
// `duels` are the best placed games in progress, `chat` the kept chat lines, oldest first.
std::string tournament_message(const TournamentInfo& info, const std::vector<TournamentRow>& page,
                               const std::vector<TournamentDuel>& duels, std::int64_t version,
                               const std::optional<TournamentRow>& me, std::string_view my_game,
                               const std::vector<TournamentChatLine>& chat,
                               const nlohmann::json& id);
// At most once a second while the standings or the games in progress change: the lines that
// changed since the last push, and the best placed games in progress now.
std::string tournament_standings_message(std::string_view tournament_id, std::int64_t version,
                                         int players, std::string_view status,
                                         const std::vector<TournamentRow>& changed,
                                         const std::vector<TournamentDuel>& duels);
// To a paired player's connections: the game to go to (game_started comes from the game too).
std::string tournament_paired_message(std::string_view tournament_id, std::string_view game_id,
                                      std::string_view you);
// To every watcher: a line said in the tournament's chat (not versioned, like a game's chat).
std::string tournament_chat_message(std::string_view tournament_id, const TournamentChatLine& line);
// To the watchers at the end: the podium (the first three lines).
std::string tournament_finished_message(std::string_view tournament_id,
                                        const std::vector<TournamentRow>& podium);

}  // namespace protocol
