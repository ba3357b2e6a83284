#include "server/tournament/arena_scoring.h"

namespace server::tournament {

namespace {

// Chessence: a fought draw on its small board with drops takes long; the house rules' 100 quiet
// plies are far beyond this. Chesica: captures are compulsory and unpromoted pieces only go
// forward, so its games reach their endings sooner.
constexpr int chessence_long_draw_plies = 60;
constexpr int chesica_long_draw_plies = 40;

// floor(a / b) for b > 0, also for a negative a.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

}  // namespace

std::optional<int> long_draw_plies(core::VariantId variant) {
    switch (variant) {
        case core::VariantId::chessence:
            return chessence_long_draw_plies;
        case core::VariantId::chesica:
            return chesica_long_draw_plies;
        case core::VariantId::sniderman:
            return std::nullopt;
    }
    return std::nullopt;
}

SheetScore score_sheet(const std::vector<SheetGame>& sheet, core::VariantId variant) {
    SheetScore score;
    score.games.reserve(sheet.size());
    const auto long_from = long_draw_plies(variant);
    int wins_in_a_row = 0;
    bool in_draw_streak = false;  // a draw since the last win (losses do not end it)
    for (const auto& game : sheet) {
        const bool on_fire = wins_in_a_row >= 2;
        GameScore g;
        switch (game.outcome) {
            case Outcome::win:
                g.points = on_fire ? 2 * win_points : win_points;
                g.flag = on_fire ? ScoreFlag::on_fire : ScoreFlag::normal;
                if (game.berserk && game.plies >= berserk_bonus_plies) {
                    g.points += 1;
                    g.berserk_bonus = true;
                }
                ++wins_in_a_row;
                in_draw_streak = false;
                break;
            case Outcome::draw: {
                const bool long_game = long_from && game.plies >= *long_from;
                if (game.plies < quick_draw_plies) {
                    g.flag = ScoreFlag::quick_draw;
                } else if (on_fire) {
                    g.points = win_points;
                    g.flag = ScoreFlag::on_fire;
                } else if (in_draw_streak && !long_game) {
                    g.flag = ScoreFlag::draw_streak;
                } else {
                    g.points = win_points / 2;
                }
                wins_in_a_row = 0;
                in_draw_streak = true;
                break;
            }
            case Outcome::loss:
                wins_in_a_row = 0;
                break;
        }
        score.total += g.points;
        score.games.push_back(g);
    }
    score.on_fire = wins_in_a_row >= 2;
    return score;
}

std::optional<int> performance(const std::vector<SheetGame>& sheet) {
    if (sheet.empty()) {
        return std::nullopt;
    }
    std::int64_t sum = 0;
    for (const auto& game : sheet) {
        sum += game.opponent_rating;
        if (game.outcome == Outcome::win) {
            sum += performance_margin;
        } else if (game.outcome == Outcome::loss) {
            sum -= performance_margin;
        }
    }
    const auto n = static_cast<std::int64_t>(sheet.size());
    // Nearest whole number, halves up: floor(sum / n + 1/2).
    return static_cast<int>(floor_div(2 * sum + n, 2 * n));
}

}  // namespace server::tournament
