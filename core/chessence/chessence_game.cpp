// core::Game for Chessence: the typed rules of core/chessence behind the variant-agnostic
// interface.
#include <algorithm>
#include <string>
#include <vector>

#include "core/chessence/fen.h"
#include "core/chessence/movegen.h"
#include "core/chessence/notation.h"
#include "core/chessence/perft.h"
#include "core/chessence/result.h"
#include "core/games.h"

namespace core::chessence {

namespace {

Side side_of(Colour c) {
    return c == Colour::white ? Side::first : Side::second;
}

// The position string's letter for square s ('*' when missing), 0 when empty.
char symbol_at(const Position& p, Square s) {
    const Bitboard b = bit(s);
    if (is_missing(s)) {
        return '*';
    }
    if ((p.kings & b) != 0) {
        return p.king[0] == s ? 'K' : 'k';
    }
    if ((p.men[0] & b) != 0) {
        return 'M';
    }
    return (p.men[1] & b) != 0 ? 'm' : 0;
}

// Per square, the powers of the man on it ("r", "b", "n" in that order; see BoardView::powers).
std::vector<std::string> relation_powers(const Position& p) {
    std::vector<std::string> powers(square_count);
    for (const Bitboard men : p.men) {
        const Bitboard rook = rook_powered(men);
        const Bitboard bishop = bishop_powered(men);
        const Bitboard knight = knight_powered(men);
        for (Square s = 0; s < square_count; ++s) {
            const Bitboard b = bit(s);
            auto& text = powers[static_cast<std::size_t>(s)];
            if ((rook & b) != 0) {
                text += 'r';
            }
            if ((bishop & b) != 0) {
                text += 'b';
            }
            if ((knight & b) != 0) {
                text += 'n';
            }
        }
    }
    return powers;
}

class ChessenceGame final : public Game {
public:
    ChessenceGame(const Position& start, RuleSet rules)
        : start_(start), position_(start), rules_(rules), since_irreversible_{start} {
        update_ending();
    }

    VariantId variant() const override { return VariantId::chessence; }
    RuleSet rules() const override { return rules_; }
    std::string start_fen() const override { return position_string(start_); }
    std::string fen() const override { return position_string(position_); }
    Side to_move() const override { return side_of(position_.side_to_move); }
    const std::vector<std::string>& moves() const override { return moves_; }
    bool in_check() const override { return chessence::in_check(position_); }

    BoardView board() const override {
        BoardView view;
        view.files = file_count;
        view.ranks = rank_count;
        view.squares.resize(square_count);
        for (Square s = 0; s < square_count; ++s) {
            const char symbol = symbol_at(position_, s);
            if (symbol != 0) {
                view.squares[s].assign(1, symbol);
            }
        }
        view.reserves = {position_.reserve[0], position_.reserve[1]};
        view.powers = relation_powers(position_);
        return view;
    }

    std::vector<std::string> legal_moves() const override {
        std::vector<std::string> names;
        if (ending_ != Ending::none) {
            return names;
        }
        MoveList list;
        generate_legal(position_, list);
        names.reserve(list.size());
        for (const Move move : list) {
            names.push_back(move_notation(move));
        }
        sort_move_names(names);
        return names;
    }

    std::optional<Outcome> outcome() const override {
        if (ending_ == Ending::none) {
            return std::nullopt;
        }
        const auto winner = winner_of(position_, ending_);
        return Outcome{winner ? std::optional<Side>(side_of(*winner)) : std::nullopt,
                       std::string(ending_name(ending_))};
    }

    Expected<std::string> play(std::string_view text) override {
        if (ending_ != Ending::none) {
            return make_error("the game is over (" + std::string(ending_name(ending_)) + ")");
        }
        const auto move = parse_move(position_, text);
        if (!move) {
            return make_error(move.error());
        }
        make_move(position_, *move);
        if (move->is_capture() || move->is_drop()) {
            since_irreversible_.clear();
        }
        if (rules_ == RuleSet::house) {
            since_irreversible_.push_back(position_);
        }
        moves_.push_back(move_notation(*move));
        update_ending();
        return moves_.back();
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<ChessenceGame>(*this); }

    // The pure move tree below the current position (draw rules end nothing inside it, see
    // chessence::perft); a game already over has no moves, so perft(depth > 0) is 0 there.
    std::uint64_t perft(int depth) const override {
        if (depth > 0 && ending_ != Ending::none) {
            return 0;
        }
        return chessence::perft(position_, depth);
    }

    std::vector<std::pair<std::string, std::uint64_t>> divide(int depth) const override {
        std::vector<std::pair<std::string, std::uint64_t>> result;
        if (depth <= 0 || ending_ != Ending::none) {
            return result;
        }
        MoveList list;
        generate_legal(position_, list);
        for (const Move move : list) {
            Position next = position_;
            make_move(next, move);
            result.emplace_back(move_notation(move), chessence::perft(next, depth - 1));
        }
        std::sort(result.begin(), result.end());
        return result;
    }

private:
    // Positions since the last capture or drop are the only ones the current one can repeat.
    void update_ending() {
        const int occurrences = static_cast<int>(
            std::count_if(since_irreversible_.begin(), since_irreversible_.end(),
                          [&](const Position& p) { return same_for_repetition(p, position_); }));
        ending_ = ending_of(position_, has_legal_move(position_), occurrences, rules_);
    }

    Position start_;
    Position position_;
    RuleSet rules_;
    // Under the house rules, the positions since the last capture or drop, the current one
    // included (strict rules count no repetitions and keep none).
    std::vector<Position> since_irreversible_;
    std::vector<std::string> moves_;
    Ending ending_ = Ending::none;
};

}  // namespace

// Options: `rules` and `fen` (the start position when absent); `object` belongs to Sniderman and
// is ignored here.
Expected<std::unique_ptr<Game>> make_game(const GameOptions& options) {
    Position start = start_position();
    if (options.fen) {
        auto parsed = parse_position(*options.fen);
        if (!parsed) {
            return make_error(parsed.error());
        }
        start = *parsed;
    }
    return std::unique_ptr<Game>(std::make_unique<ChessenceGame>(start, options.rules));
}

}  // namespace core::chessence
