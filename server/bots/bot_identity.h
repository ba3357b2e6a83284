#pragma once
// Who the computer is (issue 25): one player per level, with an id no client can ever obtain. A
// guest's or an account's id is "p_" and random letters (game/identity.cpp, game/secrets.h); the
// computer's is "computer:<level>", with a colon no random id has, and its name "Computer level
// <level>". Its row in the players table has a token hash that is no SHA-256, so no token or
// session ever speaks for it.
#include <optional>
#include <string>
#include <string_view>

namespace server {

// "computer:3" for level 3 (1..8).
std::string bot_player_id(int level);
// "Computer level 3".
std::string bot_name(int level);
// The level of a computer player's id; nothing for anybody else.
std::optional<int> bot_level(std::string_view player_id);
// What the computer's players row stores instead of a token's hash.
std::string bot_token_hash(int level);

}  // namespace server
