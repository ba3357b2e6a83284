#include "server/tournament/berger.h"

namespace server::tournament {

std::vector<BergerRound> berger_table(int players) {
    if (players < min_round_robin_players || players > max_round_robin_players) {
        return {};
    }
    // The table of an even size n: in round r (from 0) position k (from 0) of the rotating
    // numbers holds ((k + r × n/2) mod (n − 1)) + 1; board 1 is that first number against n,
    // who has Black in odd rounds (counting from 1) and White in even ones; board b ≥ 2 is
    // position b − 1 (White) against position n − b.
    const int n = players % 2 == 0 ? players : players + 1;
    const int half = n / 2;
    const auto at = [&](int round, int k) { return (k + round * half) % (n - 1) + 1; };
    std::vector<BergerRound> rounds;
    rounds.reserve(static_cast<std::size_t>(n - 1));
    for (int r = 0; r < n - 1; ++r) {
        BergerRound round;
        const int lead = at(r, 0);
        const BergerPair board_one = r % 2 == 0 ? BergerPair{lead, n} : BergerPair{n, lead};
        if (n == players) {
            round.push_back(board_one);
        }
        for (int b = 2; b <= half; ++b) {
            round.push_back(BergerPair{at(r, b - 1), at(r, n - b)});
        }
        rounds.push_back(std::move(round));
    }
    return rounds;
}

std::vector<BergerRound> round_robin_schedule(int players, bool double_round) {
    std::vector<BergerRound> rounds = berger_table(players);
    if (!double_round) {
        return rounds;
    }
    const std::size_t single = rounds.size();
    for (std::size_t r = 0; r < single; ++r) {
        BergerRound swapped;
        for (const auto& pair : rounds[r]) {
            swapped.push_back(BergerPair{pair.second, pair.first});
        }
        rounds.push_back(std::move(swapped));
    }
    return rounds;
}

}  // namespace server::tournament
