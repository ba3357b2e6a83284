#pragma once
// The transposition table: what earlier searches learned about a position (a bound on its score,
// the depth it was searched to, its best move), shared by every search of one engine. Buckets of
// four 16-byte entries, one cache line each; the table is allocated once, never in a search.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace core::engine {

enum class Bound : std::uint8_t { none, upper, lower, exact };

struct TableHit {
    bool found = false;
    std::uint32_t move = 0;  // the game's compact move key; 0: none
    int score = 0;           // as stored (relative to the node: see score_from_table)
    int depth = -1;
    Bound bound = Bound::none;
};

class TranspositionTable {
public:
    // About `megabytes` MB (rounded down to a power of two buckets, at least one).
    explicit TranspositionTable(std::size_t megabytes = default_megabytes);

    static constexpr std::size_t default_megabytes = 16;
    static constexpr std::size_t max_megabytes = 4096;

    // Forgets everything (a new game).
    void clear();
    // Starts a new search: entries of earlier searches become the first to be replaced.
    void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63); }
    std::size_t megabytes() const { return buckets_.size() * sizeof(Bucket) >> 20; }

    TableHit probe(std::uint64_t key) const;
    void store(std::uint64_t key, std::uint32_t move, int score, int depth, Bound bound);

private:
    struct Entry {
        std::uint32_t check = 0;  // the key's upper half
        std::uint32_t move = 0;
        std::int16_t score = 0;
        std::int8_t depth = 0;
        std::uint8_t bound_and_generation = 0;  // bound in bits 0-1, generation in bits 2-7
        std::uint32_t unused = 0;
    };
    struct alignas(64) Bucket {
        std::array<Entry, 4> entries{};
    };

    const Bucket& bucket_of(std::uint64_t key) const { return buckets_[key & mask_]; }
    Bucket& bucket_of(std::uint64_t key) { return buckets_[key & mask_]; }

    std::vector<Bucket> buckets_;
    std::uint64_t mask_ = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace core::engine
