#pragma once
// A Swiss tournament as a value (docs/tournaments.md, "Swiss"): its settings, its players with
// one record per round paired, the games in progress and when the next round is due. The machine
// (swiss.h) decides on it and its reducer changes it; nothing else does.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/variant.h"
#include "protocol/time_control.h"

namespace server::tournament {

using SwissTime = std::int64_t;  // milliseconds since the Unix epoch

// A Swiss has 3 to 15 rounds, and 10 s to a day between a round's last game and the next round.
inline constexpr int min_swiss_rounds = 3;
inline constexpr int max_swiss_rounds = 15;
inline constexpr std::int64_t min_round_interval_ms = 10'000;
inline constexpr std::int64_t max_round_interval_ms = 24 * 3'600'000;

struct SwissConfig {
    SwissTime starts_at = 0;  // the first round is due then
    int rounds = 0;
    std::int64_t round_interval_ms = 0;
    protocol::TimeControl clock;  // real time or correspondence
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;  // Chessence's rule set (the others ignore it)
    bool rated = true;
    bool bots_allowed = false;
    friend bool operator==(const SwissConfig&, const SwissConfig&) = default;
};

enum class SwissStatus : std::uint8_t {
    active,     // paired in the rounds to come
    withdrawn,  // left; kept in the standings, absent from the rounds to come
};

enum class SwissRoundKind : std::uint8_t {
    played,   // a game over the board (maybe still in progress)
    bye,      // the odd one out: 1 point
    absent,   // not paired (not there, withdrawn, joined later, game cancelled): 0
    forfeit,  // paired, but one of them did not make their first move: 1 to the other
};

// One round of a player's sheet.
struct SwissRound {
    SwissRoundKind kind = SwissRoundKind::absent;
    std::optional<std::string> opponent;  // played and forfeit
    core::Side side = core::Side::first;  // played and forfeit
    int half_points = 0;
    std::optional<int> game;  // the game's number while it is in progress
    friend bool operator==(const SwissRound&, const SwissRound&) = default;
};

struct SwissPlayer {
    std::string id;
    int rating = 0;
    int joined = 0;  // order of joining: the last key of the standings and the pairing
    bool bot = false;
    SwissStatus status = SwissStatus::active;
    std::vector<SwissRound> rounds;  // one per round paired, the first first
    friend bool operator==(const SwissPlayer&, const SwissPlayer&) = default;
};

// A game in progress: paired, maybe started.
struct SwissGame {
    int number = 0;  // the tournament's own number for it, 1, 2, …
    int round = 0;   // 1 = the first
    std::string first;
    std::string second;
    std::optional<std::string> game_id;  // the room's game once it started
    friend bool operator==(const SwissGame&, const SwissGame&) = default;
};

struct SwissState {
    SwissConfig config;
    std::map<std::string, SwissPlayer> players;
    std::map<int, SwissGame> games;  // in progress, by number
    int round = 0;                   // rounds paired so far
    int next_game = 1;
    int next_joined = 0;
    // When the next round is due: the start, then the last game's end plus the interval; nothing
    // while a round's games are running and once finished.
    std::optional<SwissTime> next_round_at;
    bool finished = false;
    friend bool operator==(const SwissState&, const SwissState&) = default;
};

}  // namespace server::tournament
