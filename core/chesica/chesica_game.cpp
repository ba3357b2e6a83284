// core::Game for Chesica (RULES.md §2): the typed rules of core/chesica behind notation strings,
// with the game's positions kept for the third-occurrence ban.
#include <algorithm>

#include "core/chesica/fen.h"
#include "core/chesica/legal.h"
#include "core/chesica/movegen.h"
#include "core/chesica/notation.h"
#include "core/chesica/perft.h"
#include "core/games.h"

namespace core::chesica {

namespace {

std::string side_text(Side s) {
    return s == Side::first ? "White" : "Black";
}

class ChesicaGame final : public Game {
public:
    ChesicaGame(const Position& start, RuleSet rules)
        : rules_(rules), start_fen_(to_fen(start)), history_{start} {
        update_outcome();
    }

    VariantId variant() const override { return VariantId::chesica; }
    RuleSet rules() const override { return rules_; }
    std::string start_fen() const override { return start_fen_; }
    std::string fen() const override { return to_fen(history_.back()); }
    Side to_move() const override { return history_.back().to_move; }
    const std::vector<std::string>& moves() const override { return moves_; }
    bool in_check() const override { return false; }
    std::optional<Outcome> outcome() const override { return outcome_; }
    std::unique_ptr<Game> clone() const override { return std::make_unique<ChesicaGame>(*this); }

    BoardView board() const override {
        BoardView view;
        view.files = board_files;
        view.ranks = board_ranks;
        view.squares.resize(square_count);
        for (Square s = 0; s < square_count; ++s) {
            if (const auto piece = history_.back().piece_on(s)) {
                view.squares[s] = piece_text(*piece);
            }
        }
        return view;
    }

    std::vector<std::string> legal_moves() const override {
        std::vector<std::string> result;
        if (outcome_) {
            return result;
        }
        MoveList list;
        generate_legal_moves(history_, list);
        for (const Move& m : list) {
            result.push_back(to_notation(m));
        }
        sort_move_names(result);
        return result;
    }

    Expected<std::string> play(std::string_view text) override {
        if (outcome_) {
            return make_error("the game is over (" + outcome_->reason + ")");
        }
        const auto squares = parse_move_squares(text);
        if (!squares) {
            return make_error(squares.error());
        }
        MoveList list;
        generate_legal_moves(history_, list);
        for (const Move& m : list) {
            if (move_squares(m) == *squares) {
                Position next = history_.back();
                make_move(next, m);
                history_.push_back(next);
                moves_.push_back(to_notation(m));
                update_outcome();
                return moves_.back();
            }
        }
        return make_error(why_illegal(text, *squares));
    }

    std::uint64_t perft(int depth) const override {
        if (outcome_) {
            return depth <= 0 ? 1 : 0;
        }
        return chesica::perft(history_, depth, rules_);
    }

    std::vector<std::pair<std::string, std::uint64_t>> divide(int depth) const override {
        std::vector<std::pair<std::string, std::uint64_t>> result;
        if (outcome_) {
            return result;
        }
        for (const auto& [move, leaves] : chesica::divide(history_, depth, rules_)) {
            result.emplace_back(to_notation(move), leaves);
        }
        std::sort(result.begin(), result.end());
        return result;
    }

private:
    // Rule 6, then the house rule: a side without pieces or without a legal move has lost; the
    // draw applies only to a side that can still move.
    void update_outcome() {
        const Position& p = history_.back();
        const Side mover = p.to_move;
        if (p.pieces(mover) == 0) {
            outcome_ = Outcome{opposite(mover), "all_captured"};
        } else if (p.pieces(opposite(mover)) == 0) {
            outcome_ = Outcome{mover, "all_captured"};
        } else if (!has_legal_move()) {
            outcome_ = Outcome{opposite(mover), "no_legal_moves"};
        } else if (drawn_by_house_rule(p, rules_)) {
            outcome_ = Outcome{std::nullopt, "hundred_ply_rule"};
        }
    }

    // Whether the side to move has a move that rules 1-5 allow.
    bool has_legal_move() const {
        MoveList list;
        generate_legal_moves(history_, list);
        return !list.empty();
    }

    // Why the well-formed move `squares` is not among the legal moves.
    std::string why_illegal(std::string_view text, const std::vector<Square>& squares) const {
        const Position& p = history_.back();
        std::string move(1, '\'');
        move.append(text);
        move += '\'';
        const auto piece = p.piece_on(squares[0]);
        if (!piece || piece->side != p.to_move) {
            return "illegal move " + move + ": no " + side_text(p.to_move) + " piece on " +
                   square_name(squares[0]);
        }
        MoveList list;
        generate_moves(p, list);
        bool continues = false;
        for (const Move& m : list) {
            const auto named = move_squares(m);
            if (named == squares) {
                return "illegal move " + move +
                       ": it would create the third occurrence of the position";
            }
            continues = continues || (named.size() > squares.size() &&
                                      std::equal(squares.begin(), squares.end(), named.begin()));
        }
        if (continues) {
            return "illegal move " + move + ": the jump chain must go on while the piece can jump";
        }
        if (jumpers(p) != 0) {
            return "illegal move " + move + ": a jump is available and jumping is compulsory";
        }
        return "illegal move " + move;
    }

    RuleSet rules_;
    std::string start_fen_;
    std::vector<Position> history_;  // every position of the game, the start first
    std::vector<std::string> moves_;
    std::optional<Outcome> outcome_;
};

}  // namespace

Expected<std::unique_ptr<Game>> make_game(const GameOptions& options) {
    Position start = start_position();
    if (options.fen) {
        auto parsed = parse_fen(*options.fen);
        if (!parsed) {
            return make_error(parsed.error());
        }
        start = *parsed;
    }
    return std::unique_ptr<Game>(std::make_unique<ChesicaGame>(start, options.rules));
}

}  // namespace core::chesica
