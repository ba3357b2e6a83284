#pragma once
// A Sniderman match (RULES.md §3 "Match"), pure and deterministic: the same (rounds, seed) and the
// same sequence of calls always give the same match, so a server can store the seed and the calls
// and rebuild the match after a restart by replaying them.
//
// Players are 0 and 1 (the server binds them to identities). Each round goes through three phases:
//   naming   — the round's deal is already made and visible; namer() names an unused object;
//   choosing — the other player (chooser()) chooses to be ODD or EVEN for the round;
//   playing  — the player to move plays captures until none exists; the object decides the round.
// The match is finished as soon as a player has won more than half of the rounds.
// Refused calls change nothing; their messages start with a stable prefix a server can map to an
// error code: "wrong phase:", "not your turn:", "object used:"; any other message is a bad
// argument (player, object number) or, from play(), an illegal move.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/game.h"

namespace core::sniderman {

enum class MatchPhase : std::uint8_t { naming, choosing, playing, finished };

struct RoundRecord {
    std::string start;               // the deal's position string
    int object = 0;                  // 1..10, 0 until named
    int namer = 0;                   // the player who named the object
    std::optional<int> odd_player;   // the player who is ODD, once chosen
    std::vector<std::string> moves;  // canonical notation
    std::optional<int> winner;       // the player who won the round, once over
};

class Match {
public:
    // rounds must be 1, 3, 5, 7 or 9; the seed drives the coin toss and every deal.
    static Expected<Match> create(int rounds, std::uint64_t seed);

    Match(const Match& other);
    Match& operator=(const Match& other);
    Match(Match&&) noexcept;
    Match& operator=(Match&&) noexcept;
    ~Match();

    int rounds_total() const;
    std::uint64_t seed() const;
    MatchPhase phase() const;
    int namer() const;    // who names (or named) the current round's object
    int chooser() const;  // the other player
    std::vector<int> available_objects() const;  // objects not yet used in this match, ascending

    Status name_object(int player, int object);
    // `odd` true: the chooser takes ODD for this round, otherwise EVEN.
    Status choose_side(int player, bool odd);
    // A capture by the player to move; returns its canonical notation.
    Expected<std::string> play(int player, std::string_view move);

    // The current round (its deal, moves, and with the object set once named).
    const Game& round() const;
    // The player to move in the current round, once playing.
    std::optional<int> to_move_player() const;

    std::array<int, 2> score() const;   // rounds won by player 0 and player 1
    std::optional<int> winner() const;  // the match winner, once finished
    const std::vector<RoundRecord>& records() const;  // every round so far, the current one last

private:
    Match();
    struct State;
    std::unique_ptr<State> state_;
};

// The text of an object 1..10 as shown to players ("ODD wins if the last piece captured is White").
std::string_view object_text(int object);

}  // namespace core::sniderman
