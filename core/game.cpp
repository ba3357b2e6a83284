#include "core/game.h"

#include "core/games.h"

namespace core {

Expected<std::unique_ptr<Game>> make_game(VariantId variant, const GameOptions& options) {
    switch (variant) {
        case VariantId::chessence:
            return chessence::make_game(options);
        case VariantId::chesica:
            return chesica::make_game(options);
        case VariantId::sniderman:
            return sniderman::make_game(options);
    }
    return make_error("unknown variant");
}

}  // namespace core
