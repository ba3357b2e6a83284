#pragma once
// One Sniderman round behind core::Game: the position, the captures so far and the object.
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/sniderman/objects.h"
#include "core/sniderman/position.h"

namespace core::sniderman {

class SnidermanGame final : public Game {
public:
    // A round from `start`; object 0 means none chosen yet (the round then ends as round_over).
    SnidermanGame(const Position& start, int object, RuleSet rules = RuleSet::house);

    VariantId variant() const override { return VariantId::sniderman; }
    RuleSet rules() const override { return rules_; }
    std::string start_fen() const override { return format_position(start_); }
    std::string fen() const override { return format_position(position_); }
    Side to_move() const override { return position_.odd_to_move() ? Side::first : Side::second; }
    BoardView board() const override;
    const std::vector<std::string>& moves() const override { return moves_; }
    std::vector<std::string> legal_moves() const override;
    bool in_check() const override { return false; }
    std::optional<Outcome> outcome() const override;
    Expected<std::string> play(std::string_view move) override;
    std::unique_ptr<Game> clone() const override { return std::make_unique<SnidermanGame>(*this); }
    std::uint64_t perft(int depth) const override;
    std::vector<std::pair<std::string, std::uint64_t>> divide(int depth) const override;

    int object() const { return object_; }
    // Sets the object (0..10; 0 = none) of a round that has not started; false otherwise.
    bool set_object(int object);
    const Position& position() const { return position_; }
    const CaptureHistory& history() const { return history_; }
    // Whether a capture exists (the round goes on).
    bool running() const { return running_; }

private:
    Position start_;
    Position position_;
    CaptureHistory history_;
    int object_ = 0;
    RuleSet rules_ = RuleSet::house;
    bool running_ = true;
    std::vector<std::string> moves_;
};

}  // namespace core::sniderman
