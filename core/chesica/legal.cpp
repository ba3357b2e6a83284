#include "core/chesica/legal.h"

#include <cassert>

#include "core/chesica/movegen.h"

namespace core::chesica {

bool is_third_occurrence(const Position& child, std::span<const Position> history) {
    if (child.reversible_plies < min_plies_for_third_occurrence) {
        return false;
    }
    // The child would stand at index history.size(); earlier occurrences with the same side to
    // move are an even number of plies back, within the reversible stretch.
    const auto child_index = static_cast<std::ptrdiff_t>(history.size());
    const std::ptrdiff_t oldest = child_index - child.reversible_plies;
    assert(oldest >= 0);
    int occurrences = 0;
    for (std::ptrdiff_t i = child_index - 2; i >= oldest && i >= 0; i -= 2) {
        if (history[static_cast<std::size_t>(i)].same_placement(child) && ++occurrences == 2) {
            return true;
        }
    }
    return false;
}

void generate_legal_moves(std::span<const Position> history, MoveList& list) {
    assert(!history.empty());
    const Position& p = history.back();
    generate_moves(p, list);
    if (p.reversible_plies + 1 < min_plies_for_third_occurrence) {
        return;
    }
    int kept = 0;
    for (int i = 0; i < list.size(); ++i) {
        Position child = p;
        make_move(child, list[i]);
        if (!is_third_occurrence(child, history)) {
            list[kept++] = list[i];
        }
    }
    list.truncate(kept);
}

}  // namespace core::chesica
