#include "core/chesica/perft.h"

#include <algorithm>
#include <cassert>

#include "core/chesica/legal.h"
#include "core/chesica/movegen.h"

namespace core::chesica {

namespace {

// `stack` ends with the position to count from and has room for `depth` more positions.
std::uint64_t count_leaves(std::vector<Position>& stack, int depth, RuleSet rules) {
    const Position& p = stack.back();
    if (drawn_by_house_rule(p, rules)) {
        return 0;
    }
    if (depth == 1 && p.reversible_plies + 1 < min_plies_for_third_occurrence) {
        return count_moves(p);  // bulk counting: no move can be banned here
    }
    MoveList list;
    generate_moves(p, list);
    std::uint64_t leaves = 0;
    for (const Move& m : list) {
        Position child = p;
        make_move(child, m);
        if (is_third_occurrence(child, stack)) {
            continue;
        }
        if (depth == 1) {
            ++leaves;
            continue;
        }
        stack.push_back(child);
        leaves += count_leaves(stack, depth - 1, rules);
        stack.pop_back();
    }
    return leaves;
}

// The positions rule 5 can still see (those since the last irreversible move), with room for
// `depth` more, so that pushing never reallocates.
std::vector<Position> make_stack(std::span<const Position> history, int depth) {
    assert(!history.empty());
    const auto keep = std::min<std::size_t>(
        history.size(), static_cast<std::size_t>(history.back().reversible_plies) + 1);
    std::vector<Position> stack;
    stack.reserve(keep + static_cast<std::size_t>(depth) + 1);
    stack.assign(history.end() - static_cast<std::ptrdiff_t>(keep), history.end());
    return stack;
}

}  // namespace

std::uint64_t perft(std::span<const Position> history, int depth, RuleSet rules) {
    if (depth <= 0) {
        return 1;
    }
    auto stack = make_stack(history, depth);
    return count_leaves(stack, depth, rules);
}

std::vector<std::pair<Move, std::uint64_t>> divide(std::span<const Position> history, int depth,
                                                   RuleSet rules) {
    std::vector<std::pair<Move, std::uint64_t>> result;
    if (depth <= 0 || drawn_by_house_rule(history.back(), rules)) {
        return result;
    }
    MoveList list;
    generate_legal_moves(history, list);
    auto stack = make_stack(history, depth);
    for (const Move& m : list) {
        Position child = stack.back();
        make_move(child, m);
        stack.push_back(child);
        result.emplace_back(m, depth == 1 ? 1 : count_leaves(stack, depth - 1, rules));
        stack.pop_back();
    }
    return result;
}

}  // namespace core::chesica
