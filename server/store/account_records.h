#pragma once
// What the store keeps about accounts, sessions, moderation and ratings (issue 16), and the writes
// that change it. store.h includes this header: these writes are WriteOps like every other.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace server {

// A registered player: a guest that chose a username and a password keeps its player id.
struct AccountRecord {
    std::string player_id;
    std::string username;       // as registered; unique regardless of case
    std::string password_hash;  // crypto_pwhash_str: Argon2id, its parameters and salt
    bool admin = false;
    std::int64_t created_at = 0;
};

// What an admin decided about a player (guests too).
struct Moderation {
    bool muted = false;   // may not chat
    bool closed = false;  // may not log in; the player's games stay
};

struct RatingValue {
    double rating = 0.0;
    double rd = 0.0;
    double volatility = 0.0;
};

// A player's rating in one variant, as of their last rated game there.
struct RatingRecord {
    std::string player_id;
    std::string variant;
    RatingValue value;
    int games = 0;                 // rated games in this variant
    std::int64_t last_played = 0;  // unix seconds of the last rated game
};

// One seat of a rated game: the rating before and after it (stored with the game).
struct GameRating {
    std::string game_id;
    int seat = 0;
    std::string player_id;
    std::string variant;
    RatingValue before;
    RatingValue after;
    std::int64_t at = 0;  // unix seconds, when the game ended
};

struct LeaderboardRow {
    std::string player_id;
    std::string name;
    RatingRecord rating;
};

// Which finished games of a player to list. A private game is listed only when the viewer sat in
// it. Filters left empty list everything.
struct GameQuery {
    std::string player_id;
    std::string viewer_id;      // "" for an anonymous viewer
    std::string variant;        // "" any
    std::string result;         // "" any, "win", "draw", "loss" (from player_id's side)
    std::optional<bool> rated;  // any when empty
    int offset = 0;
    int limit = 20;
};

// A player's finished games as a viewer may see them; aborted games count in `games` only.
struct GameTally {
    int games = 0;
    int wins = 0;
    int draws = 0;
    int losses = 0;
};

// --- Writes (see store.h).

// Makes a player an account; fails with "name taken" when the username (in any case) is taken,
// or when the player is an account already.
struct CreateAccount {
    AccountRecord account;
};
struct SetPassword {
    std::string player_id;
    std::string password_hash;
};
// Fails when the player is not an account.
struct SetAdmin {
    std::string player_id;
    bool admin = false;
};
// Sets what is given; fails when there is no such player.
struct SetModeration {
    std::string player_id;
    std::optional<bool> muted;
    std::optional<bool> closed;
};
// A token (by its SHA-256) that speaks for a player.
struct AddSession {
    std::string token_hash;
    std::string player_id;
    std::int64_t created_at = 0;
};
struct RevokeSession {
    std::string token_hash;
};
// Revokes every token of the player except `keep_token_hash` (empty: all).
struct RevokeSessions {
    std::string player_id;
    std::string keep_token_hash;
};
// Rates a finished game: `rate` gets each seat's current rating in `variant` (nothing for a player
// without one yet) and returns each seat's rating before and after the game. The store calls it
// inside the batch's transaction, so games ending at once are rated one after the other; it then
// writes the new ratings (games + 1, last_played = at) and the game's rating change.
struct RatedSeat {
    RatingValue before;
    RatingValue after;
};
struct RateGame {
    std::string game_id;
    std::string variant;
    std::vector<std::string> players;  // by seat
    std::int64_t at = 0;
    std::function<std::vector<RatedSeat>(const std::vector<std::optional<RatingRecord>>& current,
                                         std::int64_t at)>
        rate;
};

}  // namespace server
