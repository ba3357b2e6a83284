#include "core/sniderman/attacks.h"

#include <algorithm>
#include <cassert>
#include <vector>

namespace core::sniderman {

namespace {

// The squares whose occupancy can change what a piece of kind k on s attacks: every square on its
// lines except the last one of each line.
Bitboard blocker_mask(Kind k, Square s) {
    if (k == Kind::king || k == Kind::knight) {
        return 0;
    }
    Bitboard mask = 0;
    for (int d = 0; d < 8; ++d) {
        const bool straight = d == 0 || d == 1 || d == 4 || d == 5;
        if ((straight && k == Kind::bishop) || (!straight && k == Kind::rook)) {
            continue;
        }
        const Bitboard ray = detail::rays[d][s];
        if (ray == 0) {
            continue;
        }
        // The far end of the ray never blocks anything.
        const Square end = d < 4 ? std::bit_width(static_cast<unsigned>(ray)) - 1
                                 : std::countr_zero(static_cast<unsigned>(ray));
        mask |= static_cast<Bitboard>(ray & ~square_bit(end));
    }
    return mask;
}

// The subsets of mask, in order.
std::vector<Bitboard> subsets_of(Bitboard mask) {
    std::vector<Bitboard> subsets;
    unsigned subset = 0;
    do {
        subsets.push_back(static_cast<Bitboard>(subset));
        subset = (subset - mask) & mask;
    } while (subset != 0);
    return subsets;
}

}  // namespace

AttackTable::AttackTable() {
    std::uint64_t state = 0x2545F4914F6CDD1Dull;  // xorshift64 state: the tables are fixed
    const auto random = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    std::size_t offset = 0;
    for (int kind = 1; kind <= 5; ++kind) {
        const Kind k = static_cast<Kind>(kind);
        for (Square s = 0; s < square_count; ++s) {
            Entry& e = entries_[static_cast<std::size_t>(kind)][static_cast<std::size_t>(s)];
            e.mask = blocker_mask(k, s);
            int bits = std::max(1, std::popcount(e.mask));
            const std::vector<Bitboard> subsets = subsets_of(static_cast<Bitboard>(e.mask));
            std::vector<int> used;
            for (int trial = 1;; ++trial) {
                // Sparse random multipliers until no two subsets with different attacks share a
                // slot; a square with no such multiplier among 20 000 gets one more index bit.
                if (trial % 20000 == 0) {
                    ++bits;
                }
                e.shift = static_cast<std::uint32_t>(64 - bits);
                e.magic = e.mask == 0 ? 0 : random() & random() & random();
                used.assign(std::size_t{1} << bits, -1);
                bool fits = true;
                for (const Bitboard occupied : subsets) {
                    const int a = attacks(k, s, occupied);
                    const std::size_t index = (occupied * e.magic) >> e.shift;
                    if (used[index] >= 0 && used[index] != a) {
                        fits = false;
                        break;
                    }
                    used[index] = a;
                }
                if (fits) {
                    break;
                }
            }
            e.offset = offset;
            const std::size_t size = used.size();
            assert(offset + size <= slots_.size());
            for (std::size_t i = 0; i < size; ++i) {
                slots_[offset + i] = static_cast<Bitboard>(used[i] < 0 ? 0 : used[i]);
            }
            offset += size;
        }
    }
}

}  // namespace core::sniderman
