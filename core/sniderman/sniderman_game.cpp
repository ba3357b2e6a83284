#include "core/sniderman/sniderman_game.h"

#include <algorithm>

#include "core/games.h"

namespace core::sniderman {

SnidermanGame::SnidermanGame(const Position& start, int object, RuleSet rules)
    : start_(start),
      position_(start),
      object_(object),
      rules_(rules),
      running_(has_capture(start)) {}

BoardView SnidermanGame::board() const {
    BoardView view;
    view.files = board_files;
    view.ranks = board_files;
    view.squares.resize(square_count);
    for (Square s = 0; s < square_count; ++s) {
        const PieceCode p = position_.at(s);
        if (p != no_piece) {
            view.squares[static_cast<std::size_t>(s)] = std::string(1, piece_letter(p));
        }
    }
    return view;
}

std::vector<std::string> SnidermanGame::legal_moves() const {
    std::vector<std::string> names;
    for (const Move m : generate_captures(position_)) {
        names.push_back(move_name(m));
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<Outcome> SnidermanGame::outcome() const {
    if (running_) {
        return std::nullopt;
    }
    const auto object = to_object(object_);
    if (!object) {
        return Outcome{std::nullopt, "round_over"};
    }
    const bool odd = odd_wins(*object, position_, history_);
    return Outcome{odd ? Side::first : Side::second, "object_decided"};
}

Expected<std::string> SnidermanGame::play(std::string_view text) {
    if (!running_) {
        return make_error("the round is over: no capture exists");
    }
    const auto move = parse_legal_move(position_, text);
    if (!move) {
        return make_error(move.error());
    }
    history_.record(*move, position_.at(move->to), position_.ply);
    position_ = make_move(position_, *move);
    running_ = has_capture(position_);
    moves_.push_back(move_name(*move));
    return moves_.back();
}

bool SnidermanGame::set_object(int object) {
    if (!moves_.empty() || object < 0 || object > object_count) {
        return false;
    }
    object_ = object;
    return true;
}

std::uint64_t SnidermanGame::perft(int depth) const {
    return sniderman::perft(position_, depth);
}

std::vector<std::pair<std::string, std::uint64_t>> SnidermanGame::divide(int depth) const {
    std::vector<std::pair<std::string, std::uint64_t>> out;
    if (depth <= 0) {
        return out;
    }
    for (const Move m : generate_captures(position_)) {
        out.emplace_back(move_name(m), sniderman::perft(make_move(position_, m), depth - 1));
    }
    std::sort(out.begin(), out.end());
    return out;
}

Expected<std::unique_ptr<Game>> make_game(const GameOptions& options) {
    if (options.object < 0 || options.object > object_count) {
        return make_error("the object must be 1..10 (or 0: none chosen), not " +
                          std::to_string(options.object));
    }
    const auto start = parse_position(options.fen.value_or(std::string(reference_fen)));
    if (!start) {
        return make_error(start.error());
    }
    return std::unique_ptr<Game>(
        std::make_unique<SnidermanGame>(*start, options.object, options.rules));
}

}  // namespace core::sniderman
