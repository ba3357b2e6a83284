#pragma once
// One game (for Sniderman: one round) behind an interface that is the same for every variant, so
// the server, the protocol and the CLI treat every game alike. Not a hot path: hot paths (movegen,
// perft, search) live in each variant's own typed code; this layer speaks notation strings.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "core/variant.h"

namespace core {

// How a game ended. `winner` is empty for a draw (or a Sniderman round played without an object).
// `reason` is stable snake_case, listed in docs/protocol.md:
//   chessence: checkmate, stalemate, threefold_repetition, hundred_ply_rule
//   chesica:   all_captured, no_legal_moves, hundred_ply_rule
//   sniderman: object_decided, round_over (no object chosen)
struct Outcome {
    std::optional<Side> winner;
    std::string reason;
    friend bool operator==(const Outcome&, const Outcome&) = default;
};

struct GameOptions {
    RuleSet rules = RuleSet::house;
    std::optional<std::string> fen;  // start here instead of the variant's start position
    int object = 0;                  // Sniderman: the round's object 1..10; 0 = not chosen
};

// What a board looks like, for drawing: no rules needed to read it.
struct BoardView {
    int files = 0;
    int ranks = 0;
    // files*ranks entries, index = rank * files + file (a1 first): "" empty, "*" missing square,
    // otherwise the piece as the position string writes it ("K", "m", "+Q", "n").
    std::vector<std::string> squares;
    std::array<int, 2> reserves{0, 0};  // men in reserve for the first and second side (Chessence)
    // Chessence: per square (the index of `squares`), the powers its man has now from the friendly
    // men around it: any of "r" (an orthogonal friend), "b" (a diagonal friend), "n" (a friend a
    // knight's move away), in that order; "" for a man without powers and for every other square.
    // Empty in the other games.
    std::vector<std::string> powers;
};

class Game {
public:
    virtual ~Game() = default;

    virtual VariantId variant() const = 0;
    virtual RuleSet rules() const = 0;
    virtual std::string start_fen() const = 0;
    virtual std::string fen() const = 0;
    virtual Side to_move() const = 0;
    virtual BoardView board() const = 0;

    // The moves played so far, in canonical notation.
    virtual const std::vector<std::string>& moves() const = 0;

    // Every legal move of the side to move in canonical notation, sorted ascending (byte order);
    // empty once the game is over.
    virtual std::vector<std::string> legal_moves() const = 0;

    // Whether the side to move is in check (always false in games without check).
    virtual bool in_check() const = 0;

    // Empty while the game goes on.
    virtual std::optional<Outcome> outcome() const = 0;

    // Plays a move given in any accepted notation and returns its canonical notation. On an
    // unparsable or illegal move, or once the game is over, returns an error and changes nothing.
    virtual Expected<std::string> play(std::string_view move) = 0;

    virtual std::unique_ptr<Game> clone() const = 0;

    // Leaf count of the legal-move tree from the current position (history taken into account).
    virtual std::uint64_t perft(int depth) const = 0;
    // perft(depth - 1) after each legal move, in legal_moves() order.
    virtual std::vector<std::pair<std::string, std::uint64_t>> divide(int depth) const = 0;
};

// A new game of `variant` from its start position or options.fen; an error names what is wrong with
// the position string or options.
Expected<std::unique_ptr<Game>> make_game(VariantId variant, const GameOptions& options = {});

// Sorts move names into byte order, as std::sort would, without comparing strings when every name
// has at most 8 bytes (each name is then one number): legal_moves sorts its list on every move.
void sort_move_names(std::vector<std::string>& names);

}  // namespace core
