#include "core/chessence/playout.h"

#include <array>

#include "core/chessence/movegen.h"

namespace core::chessence {

namespace {

// Hashes of the positions since the last capture or drop (repetitions cannot reach further back,
// and the 100-ply rule ends a game before this fills up under the house rules).
class RepetitionWindow {
public:
    void restart(std::uint64_t hash) {
        size_ = 0;
        push(hash);
    }
    void push(std::uint64_t hash) {
        if (size_ == capacity) {
            // Only reachable past the 100-ply rule (strict rules, where repetitions do not count).
            size_ = 0;
        }
        hashes_[size_++] = hash;
    }
    // Occurrences of the newest hash, itself included (same side to move: every second entry).
    int occurrences() const {
        int found = 0;
        for (int i = size_ - 1; i >= 0; i -= 2) {
            found += hashes_[i] == hashes_[size_ - 1] ? 1 : 0;
        }
        return found;
    }

private:
    static constexpr int capacity = 128;
    std::array<std::uint64_t, capacity> hashes_{};
    int size_ = 0;
};

}  // namespace

PlayoutResult random_playout(const Position& start, RuleSet rules, Rng& rng, int max_plies) {
    Position p = start;
    RepetitionWindow window;
    window.restart(p.hash);
    PlayoutResult result;
    LegalTargets legal;
    while (true) {
        legal.fill(p);
        const int occurrences = rules == RuleSet::house ? window.occurrences() : 1;
        result.ending = ending_of(p, legal.total() > 0, occurrences, rules);
        if (result.ending != Ending::none || result.plies >= max_plies) {
            break;
        }
        const Move move =
            legal.move_at(static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.total()))));
        make_move(p, move);
        ++result.plies;
        if (move.is_capture() || move.is_drop()) {
            window.restart(p.hash);
        } else {
            window.push(p.hash);
        }
    }
    result.winner = winner_of(p, result.ending);
    return result;
}

}  // namespace core::chessence
