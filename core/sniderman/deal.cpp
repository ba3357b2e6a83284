#include "core/sniderman/deal.h"

#include <array>
#include <utility>

namespace core::sniderman {

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
    Rng mixer(seed ^ (stream * 0xD1B54A32D192ED03ull));
    mixer.next();
    return mixer.next();
}

Position deal(Rng& rng) {
    std::array<PieceCode, square_count> pieces{};
    std::size_t n = 0;
    for (const Colour c : {Colour::white, Colour::black}) {
        for (const Kind k : {Kind::king, Kind::queen, Kind::rook, Kind::rook, Kind::bishop,
                             Kind::bishop, Kind::knight, Kind::knight}) {
            pieces[n++] = make_piece(c, k);
        }
    }
    // Fisher-Yates: every one of the 16! orders (so every arrangement) is equally likely.
    for (std::size_t i = square_count - 1; i > 0; --i) {
        std::swap(pieces[i], pieces[rng.below(i + 1)]);
    }
    Position p;
    for (Square s = 0; s < square_count; ++s) {
        p.put(s, pieces[static_cast<std::size_t>(s)]);
    }
    return p;
}

Position deal(std::uint64_t seed) {
    Rng rng(seed);
    return deal(rng);
}

}  // namespace core::sniderman
