// libFuzzer target (issue 23): the three games' position-string parsers. The first byte picks the
// game, the second the rule set, the rest is the position string. A string the parser accepts must
// give a game whose own position string reads back to the same position, whose legal moves can
// all be played, and that answers every question about itself.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/game.h"
#include "tests/fuzz/fuzz_game.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 512) {
        return 0;
    }
    auto [variant, options] = fuzz::game_choice(data[0], data[1]);
    options.fen = std::string(reinterpret_cast<const char*>(data + 2), size - 2);
    auto game = core::make_game(variant, options);
    if (!game) {
        return 0;
    }
    const std::string fen = (*game)->fen();
    core::GameOptions again = options;
    again.fen = fen;
    auto reread = core::make_game(variant, again);
    if (!reread || (*reread)->fen() != fen) {
        __builtin_trap();  // a position the game wrote itself must read back the same
    }
    (void)(*game)->board();
    (void)(*game)->outcome();
    (void)(*game)->in_check();
    for (const auto& move : (*game)->legal_moves()) {
        auto copy = (*game)->clone();
        if (!copy->play(move)) {
            __builtin_trap();  // a legal move must be playable
        }
    }
    return 0;
}
