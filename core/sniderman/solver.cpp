#include "core/sniderman/solver.h"

#include <algorithm>

namespace core::sniderman {

namespace {

int count_captures(const Position& p) {
    int n = 0;
    for_each_attacker(p, [&](Square, unsigned targets) {
        n += square_count_of(static_cast<Bitboard>(targets));
        return false;
    });
    return n;
}

}  // namespace

bool notation_less(Move a, Move b) {
    const auto key = [](Move m) {
        return (file_of(m.from) << 12) | (rank_of(m.from) << 8) | (file_of(m.to) << 4) |
               rank_of(m.to);
    };
    return key(a) < key(b);
}

Solver::Solver(int table_bits)
    : table_(std::size_t{1} << table_bits),
      mask_((std::uint64_t{1} << table_bits) - 1),
      children_(square_count + 1) {}

void Solver::start(Object object) {
    object_ = object;
    if (++generation_ >= (1u << 24)) {
        std::fill(table_.begin(), table_.end(), Entry{});
        generation_ = 1;
    }
}

std::uint32_t Solver::tag_of(const Position& p, const CaptureHistory& h) const {
    return (generation_ << 8) | (static_cast<std::uint32_t>(history_summary(object_, h)) << 1) |
           static_cast<std::uint32_t>(p.ply & 1);
}

Solver::Entry& Solver::slot(std::uint64_t cells, std::uint32_t tag) {
    const std::uint64_t hash = (cells ^ (std::uint64_t{tag & 0xFF} << 56)) * 0x9E3779B97F4A7C15ull;
    return table_[(hash >> 32) & mask_];
}

const Solver::Entry* Solver::probe(const Position& p, const CaptureHistory& h) {
    const std::uint32_t tag = tag_of(p, h);
    const Entry& e = slot(p.cells, tag);
    return e.tag == tag && e.cells == p.cells ? &e : nullptr;
}

bool Solver::search_small(const Position& p, const CaptureHistory& h, const MoveList& moves) {
    const bool odd_moves = p.odd_to_move();
    for (const Move m : moves) {
        CaptureHistory next = h;
        next.record(m, p.at(m.to), p.ply);
        if (search(make_move(p, m), next) == odd_moves) {
            return odd_moves;
        }
    }
    return !odd_moves;
}

bool Solver::search(const Position& p, const CaptureHistory& h) {
    ++nodes_;
    const MoveList moves = generate_captures(p);
    if (moves.size == 0) {
        return sniderman::odd_wins(object_, p, h);
    }
    if (p.piece_count() < table_min_pieces) {
        return search_small(p, h, moves);
    }
    if (const Entry* known = probe(p, h)) {
        return known->odd_wins != 0;
    }
    const bool odd_moves = p.odd_to_move();
    bool result = !odd_moves;  // the mover loses unless a move wins
    // First pass: a capture that ends the round in the mover's favour wins at once; the other
    // children are ordered by how many replies they leave (fewest first).
    auto& children = children_[static_cast<std::size_t>(p.piece_count())];
    int count = 0;
    for (const Move m : moves) {
        Child& c = children[static_cast<std::size_t>(count)];
        c.position = make_move(p, m);
        c.history = h;
        c.history.record(m, p.at(m.to), p.ply);
        c.replies = count_captures(c.position);
        if (c.replies == 0) {
            if (sniderman::odd_wins(object_, c.position, c.history) == odd_moves) {
                result = odd_moves;
                count = 0;
                break;
            }
            continue;
        }
        ++count;
    }
    if (result != odd_moves) {
        // A child already in the table as a win for the mover decides at once.
        for (int i = 0; i < count; ++i) {
            const Child& c = children[static_cast<std::size_t>(i)];
            const Entry* known = probe(c.position, c.history);
            if (known != nullptr && (known->odd_wins != 0) == odd_moves) {
                result = odd_moves;
                break;
            }
        }
    }
    if (result != odd_moves) {
        std::sort(children.begin(), children.begin() + count,
                  [](const Child& a, const Child& b) { return a.replies < b.replies; });
        for (int i = 0; i < count; ++i) {
            const Child& c = children[static_cast<std::size_t>(i)];
            if (search(c.position, c.history) == odd_moves) {
                result = odd_moves;
                break;
            }
        }
    }
    const std::uint32_t tag = tag_of(p, h);
    slot(p.cells, tag) = Entry{p.cells, tag, static_cast<std::uint8_t>(result ? 1 : 0)};
    return result;
}

bool Solver::odd_wins(const Position& p, const CaptureHistory& h, Object object) {
    start(object);
    return search(p, h);
}

Solution Solver::solve(const Position& p, const CaptureHistory& h, Object object) {
    start(object);
    Solution solution;
    const MoveList moves = generate_captures(p);
    if (moves.size == 0) {
        solution.odd_wins = sniderman::odd_wins(object, p, h);
        return solution;
    }
    const bool odd_moves = p.odd_to_move();
    for (const Move m : moves) {
        CaptureHistory next = h;
        next.record(m, p.at(m.to), p.ply);
        if (search(make_move(p, m), next) == odd_moves) {
            solution.winning_moves.push_back(m);
        }
    }
    solution.odd_wins = solution.winning_moves.empty() ? !odd_moves : odd_moves;
    std::sort(solution.winning_moves.begin(), solution.winning_moves.end(), notation_less);
    return solution;
}

bool brute_force_odd_wins(const Position& p, const CaptureHistory& h, Object object) {
    const MoveList moves = generate_captures(p);
    if (moves.size == 0) {
        return odd_wins(object, p, h);
    }
    const bool odd_moves = p.odd_to_move();
    for (const Move m : moves) {
        CaptureHistory next = h;
        next.record(m, p.at(m.to), p.ply);
        if (brute_force_odd_wins(make_move(p, m), next, object) == odd_moves) {
            return odd_moves;
        }
    }
    return !odd_moves;
}

}  // namespace core::sniderman
