#include "core/engine/transposition.h"

#include <algorithm>
#include <bit>

namespace core::engine {

TranspositionTable::TranspositionTable(std::size_t megabytes) {
    megabytes = std::clamp<std::size_t>(megabytes, 1, max_megabytes);
    const std::size_t buckets = std::bit_floor((megabytes << 20) / sizeof(Bucket));
    buckets_.resize(std::max<std::size_t>(buckets, 1));
    mask_ = buckets_.size() - 1;
}

void TranspositionTable::clear() {
    std::fill(buckets_.begin(), buckets_.end(), Bucket{});
    generation_ = 0;
}

TableHit TranspositionTable::probe(std::uint64_t key) const {
    const auto check = static_cast<std::uint32_t>(key >> 32);
    for (const Entry& e : bucket_of(key).entries) {
        const auto bound = static_cast<Bound>(e.bound_and_generation & 3);
        if (e.check == check && bound != Bound::none) {
            return {true, e.move, e.score, e.depth, bound};
        }
    }
    return {};
}

// Replaces the entry of the same position, else the one least worth keeping: shallow entries
// of old searches go first.
void TranspositionTable::store(std::uint64_t key, std::uint32_t move, int score, int depth,
                               Bound bound) {
    const auto check = static_cast<std::uint32_t>(key >> 32);
    auto& entries = bucket_of(key).entries;
    Entry* target = &entries[0];
    int worst = 1 << 30;
    for (Entry& e : entries) {
        if (e.check == check || (e.bound_and_generation & 3) == 0) {
            target = &e;
            break;
        }
        const int age = (generation_ - (e.bound_and_generation >> 2)) & 63;
        const int worth = e.depth - 4 * age;
        if (worth < worst) {
            worst = worth;
            target = &e;
        }
    }
    // Keep a deeper result of this search for the same position unless the new one is exact.
    if (target->check == check && (target->bound_and_generation >> 2) == generation_ &&
        target->depth > depth && bound != Bound::exact) {
        return;
    }
    if (move == 0 && target->check == check) {
        move = target->move;  // keep the best move we knew
    }
    target->check = check;
    target->move = move;
    target->score = static_cast<std::int16_t>(score);
    target->depth = static_cast<std::int8_t>(std::clamp(depth, -1, 127));
    target->bound_and_generation =
        static_cast<std::uint8_t>(static_cast<int>(bound) | (generation_ << 2));
}

}  // namespace core::engine
