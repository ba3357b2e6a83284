#pragma once
// The rows of the shared reads (sql_reads.h) decoded once for both stores. A Row is anything with
// text(column), integer(column) and real(column) for its current row: a sqlite::Statement that
// stepped to it, or a pg::Row (one row of a pg::Result).
#include <cstdint>
#include <string>
#include <string_view>

#include "server/store/account_records.h"
#include "server/store/store.h"

namespace server::sql {

// id, name, token_hash, created_at.
template <class Row>
PlayerRecord player_from_row(const Row& r) {
    return PlayerRecord{r.text(0), r.text(1), r.text(2), r.integer(3)};
}

// The game columns (reads::games), seats left empty.
template <class Row>
GameRecord game_from_row(const Row& r) {
    GameRecord g;
    g.id = r.text(0);
    g.variant = r.text(1);
    g.rules = r.text(2);
    g.start_fen = r.text(3);
    g.seed = static_cast<std::uint64_t>(r.integer(4));
    g.rounds = static_cast<int>(r.integer(5));
    g.is_private = r.integer(6) != 0;
    g.status = r.text(7);
    g.result_json = r.text(8);
    g.created_at = r.integer(9);
    g.finished_at = r.integer(10);
    g.time_control = r.text(11);
    g.rated = r.integer(12) != 0;
    g.access_key = r.text(13);
    g.fence = r.integer(14);
    g.tournament_id = r.text(15);
    g.berserkable = r.integer(16) != 0;
    return g;
}

// The tournament columns (reads::tournament, sql_tournaments.h).
template <class Row>
TournamentRecord tournament_from_row(const Row& r) {
    TournamentRecord t;
    t.id = r.text(0);
    t.kind = r.text(1);
    t.name = r.text(2);
    t.variant = r.text(3);
    t.created_by = r.text(4);
    t.config_json = r.text(5);
    t.status = r.text(6);
    t.starts_at = r.integer(7);
    t.ends_at = r.integer(8);
    t.created_at = r.integer(9);
    t.password_hash = r.text(10);
    t.players = static_cast<int>(r.integer(11));
    t.winner_json = r.text(12);
    return t;
}

// channel, player_id, name, seat, text, at of a line of game `game_id`.
template <class Row>
ChatLine chat_line_from_row(std::string_view game_id, const Row& r) {
    return ChatLine{
        std::string(game_id), r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.text(5)};
}

// game_id, status, json, updated_at, node, run, positions_done, positions_total, run_alive_at.
template <class Row>
AnalysisRecord analysis_from_row(const Row& r) {
    return AnalysisRecord{r.text(0),    r.text(1),    r.text(2),    r.integer(3), r.text(4),
                          r.integer(5), r.integer(6), r.integer(7), r.integer(8)};
}

// id, json, node, run.
template <class Row>
SeekRecord seek_from_row(const Row& r) {
    return SeekRecord{r.text(0), r.text(1), r.text(2), r.integer(3)};
}

// player_id, username, password_hash, admin, created_at.
template <class Row>
AccountRecord account_from_row(const Row& r) {
    return AccountRecord{r.text(0), r.text(1), r.text(2), r.integer(3) != 0, r.integer(4)};
}

// variant, rating, rd, volatility, games, last_played of player `player_id`.
template <class Row>
RatingRecord rating_from_row(std::string_view player_id, const Row& r) {
    return RatingRecord{std::string(player_id),
                        r.text(0),
                        {r.real(1), r.real(2), r.real(3)},
                        static_cast<int>(r.integer(4)),
                        r.integer(5)};
}

// A game_ratings row (reads::game_ratings).
template <class Row>
GameRating game_rating_from_row(const Row& r) {
    return GameRating{
        r.text(0),    static_cast<int>(r.integer(1)),    r.text(2),
        r.text(3),    {r.real(4), r.real(5), r.real(6)}, {r.real(7), r.real(8), r.real(9)},
        r.integer(10)};
}

// A row of reads::leaderboard in `variant`.
template <class Row>
LeaderboardRow leaderboard_row_from_row(std::string_view variant, const Row& r) {
    return LeaderboardRow{r.text(0),
                          r.text(1),
                          {r.text(0),
                           std::string(variant),
                           {r.real(2), r.real(3), r.real(4)},
                           static_cast<int>(r.integer(5)),
                           r.integer(6)}};
}

}  // namespace server::sql
