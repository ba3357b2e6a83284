// libFuzzer target (issue 23): the three games' move-notation parsers. The first byte picks the
// game, the second the rule set; the bytes up to the first 0xFF pick legal moves to reach a
// position (each byte chooses one by index); what follows is a move in any notation. Whatever the
// text, play() either refuses it and changes nothing, or plays one of the legal moves and returns
// its canonical notation; every legal move's canonical notation plays.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/game.h"
#include "tests/fuzz/fuzz_game.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 512) {
        return 0;
    }
    auto [variant, options] = fuzz::game_choice(data[0], data[1]);
    auto made = core::make_game(variant, options);
    if (!made) {
        __builtin_trap();  // every game starts from its default position
    }
    auto& game = *made;
    std::size_t i = 2;
    for (; i < size && data[i] != 0xFF; ++i) {
        const auto legal = game->legal_moves();
        if (legal.empty()) {
            break;
        }
        if (!game->play(legal[data[i] % legal.size()])) {
            __builtin_trap();  // a legal move must be playable
        }
    }
    while (i < size && data[i] != 0xFF) {
        ++i;
    }
    const std::string_view text =
        i < size ? std::string_view(reinterpret_cast<const char*>(data + i + 1), size - i - 1)
                 : std::string_view();
    const auto legal = game->legal_moves();
    const std::string fen = game->fen();
    const auto plies = game->moves().size();
    auto copy = game->clone();
    auto played = copy->play(text);
    if (!played) {
        if (copy->fen() != fen || copy->moves().size() != plies) {
            __builtin_trap();  // a refused move changes nothing
        }
        if (std::find(legal.begin(), legal.end(), text) != legal.end()) {
            __builtin_trap();  // a legal move's canonical notation must play
        }
        return 0;
    }
    if (std::find(legal.begin(), legal.end(), *played) == legal.end()) {
        __builtin_trap();  // what plays is one of the legal moves, named canonically
    }
    if (copy->moves().size() != plies + 1 || copy->moves().back() != *played) {
        __builtin_trap();
    }
    return 0;
}
