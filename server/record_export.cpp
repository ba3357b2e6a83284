#include "server/record_export.h"

namespace server {

// Placeholder until game records land.
std::optional<std::string> export_game_pgn(Store&, std::string_view, std::string_view) {
    return std::nullopt;
}

}  // namespace server
