// A whole small arena, driven by a seeded random: players join late, pause, withdraw and come
// back, lose the connection, miss first moves; games take random lengths with random results.
// Every pass's pairs are checked against the rules, and the end against the sheets.
#include "server/tournament/arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "server/tournament/arena_pairing.h"
#include "server/tournament/arena_standings.h"

namespace arena_simulation_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;

constexpr ArenaTime start = 50'000'000;

struct Running {
    ArenaTime ends_at = 0;
};

// Applies `events`, failing the test on an error.
void apply_all(ArenaState& state, const std::vector<ArenaEvent>& events) {
    for (const auto& event : events) {
        const auto applied = apply(state, event);
        ASSERT_TRUE(applied.ok()) << applied.error();
    }
}

// Checks the pairs of one pass against the state before it.
void check_pass(const ArenaState& before, const ArenaState& after,
                const std::vector<std::string>& present, const std::vector<ArenaEvent>& events,
                ArenaTime now) {
    const ArenaConfig& config = before.config;
    if (before.finished || now >= config.ends_at() - pairing_stop_ms(config.clock)) {
        EXPECT_TRUE(events.empty()) << "a pass after the pairing stopped";
        return;
    }
    const std::set<std::string> here(present.begin(), present.end());
    std::set<std::string> paired;
    int available = 0;
    std::size_t waiting = 0;
    for (const auto& [id, p] : before.players) {
        if (p.status == PlayerStatus::active && (p.game || here.count(id))) {
            ++available;
        }
        if (p.status == PlayerStatus::active && !p.game && here.count(id)) {
            ++waiting;
        }
    }
    for (const auto& event : events) {
        const auto& pair = std::get<arena_event::Paired>(event);
        for (const auto* id : {&pair.first, &pair.second}) {
            const ArenaPlayer& p = before.players.at(*id);
            EXPECT_EQ(p.status, PlayerStatus::active) << *id;
            EXPECT_FALSE(p.game.has_value()) << *id;
            EXPECT_TRUE(here.count(*id)) << *id;
            EXPECT_TRUE(paired.insert(*id).second) << *id << " paired twice";
        }
        const bool rematch = before.players.at(pair.first).last_opponent == pair.second ||
                             before.players.at(pair.second).last_opponent == pair.first;
        EXPECT_TRUE(!rematch || (waiting == 2 && available == 2))
            << pair.first << " and " << pair.second << " just played";
        for (const auto* id : {&pair.first, &pair.second}) {
            const auto& sides = after.players.at(*id).sides;
            const std::size_t n = sides.size();
            EXPECT_FALSE(n >= 3 && sides[n - 1] == sides[n - 2] && sides[n - 2] == sides[n - 3])
                << *id << " gets a third game in a row on one side";
        }
    }
    // The pass pairs as many as it may: no two of those left waiting could have played.
    std::vector<Candidate> left;
    for (const auto& [id, p] : before.players) {
        if (p.status == PlayerStatus::active && !p.game && here.count(id) && !paired.count(id)) {
            left.push_back(Candidate{id, 0, p.rating, side_history(p.sides), p.last_opponent});
        }
    }
    const bool only_two = waiting == 2 && available == 2;
    for (std::size_t i = 0; i < left.size(); ++i) {
        for (std::size_t j = i + 1; j < left.size(); ++j) {
            EXPECT_FALSE(may_pair(left[i], left[j], only_two))
                << left[i].id << " and " << left[j].id << " were left waiting";
        }
    }
}

void simulate(unsigned seed) {
    SCOPED_TRACE(std::string("seed ").append(std::to_string(seed)));
    std::mt19937 random(seed);
    ArenaConfig config;
    config.starts_at = start;
    config.duration_ms = 20 * 60'000;
    config.clock = TimeControl{ClockKind::real_time, 60, 1, 0};
    ArenaState state = new_arena(config);
    std::vector<std::string> everyone;
    for (int i = 0; i < 14; ++i) {
        everyone.push_back(std::string("p").append(std::to_string(i)));
    }
    std::set<std::string> connected(everyone.begin(), everyone.end());
    std::map<int, Running> running;
    int finished_games = 0;
    int passes_with_pairs = 0;
    const auto decide_and_apply = [&](const ArenaInput& input, ArenaTime now) {
        const ArenaDecision d = decide(state, input, now);
        if (d.ok()) {
            apply_all(state, d.events);
        }
        return d;
    };
    // Ten join before the start, four during it.
    for (int i = 0; i < 10; ++i) {
        ASSERT_TRUE(decide_and_apply(
                        arena_input::Join{everyone[i], 1200 + static_cast<int>(random() % 900)},
                        start - 1'000)
                        .ok());
    }
    for (ArenaTime now = start; now < config.ends_at() + 10'000; now += 1'000) {
        // Games that end now.
        for (auto it = running.begin(); it != running.end();) {
            if (it->second.ends_at > now || !state.games.count(it->first)) {
                ++it;
                continue;
            }
            const ArenaGame& game = state.games.at(it->first);
            ArenaInput news;
            const unsigned roll = random() % 20;
            if (roll == 0) {
                news = arena_input::FirstMoveMissed{game.number,
                                                    random() % 2 ? Side::first : Side::second};
            } else {
                std::optional<Side> winner;
                if (roll < 8) {
                    winner = Side::first;
                } else if (roll < 15) {
                    winner = Side::second;
                }
                news =
                    arena_input::GameFinished{game.number, winner, static_cast<int>(random() % 90),
                                              random() % 5 == 0, random() % 5 == 0};
            }
            if (random() % 6 == 0) {
                decide_and_apply(arena_input::Berserk{game.first, false}, now);
            }
            const auto d = decide_and_apply(news, now);
            if (now < config.ends_at()) {
                EXPECT_TRUE(d.ok()) << d.refusal->message;
                ++finished_games;
            } else {
                EXPECT_FALSE(d.ok());
                if (!d.ok()) {
                    EXPECT_EQ(d.refusal->code, ArenaErrorCode::tournament_finished);
                }
            }
            it = running.erase(it);
        }
        // Someone comes, goes, pauses or loses the connection now and then.
        if (random() % 4 == 0) {
            const std::string& id = everyone[random() % everyone.size()];
            switch (random() % 6) {
                case 0:
                    decide_and_apply(arena_input::Join{id, 1500}, now);
                    break;
                case 1:
                    decide_and_apply(arena_input::Withdraw{id}, now);
                    break;
                case 2:
                    decide_and_apply(arena_input::Pause{id}, now);
                    break;
                case 3:
                    decide_and_apply(arena_input::ComeBack{id}, now);
                    break;
                case 4:
                    connected.erase(id);
                    break;
                default:
                    connected.insert(id);
                    break;
            }
        }
        for (const auto& event : decide_time(state, now)) {
            apply_all(state, {event});
        }
        if ((now - start) % pairing_pass_interval_ms == 0) {
            const std::vector<std::string> present(connected.begin(), connected.end());
            const ArenaState before = state;
            const auto d = decide(state, arena_input::PairingPass{present}, now);
            ASSERT_TRUE(d.ok());
            apply_all(state, d.events);
            check_pass(before, state, present, d.events, now);
            passes_with_pairs += d.events.empty() ? 0 : 1;
            for (const auto& event : d.events) {
                const auto& pair = std::get<arena_event::Paired>(event);
                running[pair.game] =
                    Running{now + 5'000 + static_cast<ArenaTime>(random() % 150'000)};
                decide_and_apply(
                    arena_input::GameStarted{pair.game,
                                             std::string("g").append(std::to_string(pair.game))},
                    now);
            }
        }
    }
    ASSERT_TRUE(state.finished);
    EXPECT_TRUE(state.games.empty());
    EXPECT_GT(passes_with_pairs, 10);
    // Every finished game is on two sheets; the standings add up the sheets and are in order.
    std::size_t sheet_games = 0;
    for (const auto& [id, p] : state.players) {
        sheet_games += p.sheet.size();
    }
    EXPECT_EQ(sheet_games, 2u * static_cast<std::size_t>(finished_games));
    const auto table = standings(state);
    for (std::size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(table[i].rank, static_cast<int>(i) + 1);
        EXPECT_EQ(table[i].points,
                  score_sheet(state.players.at(table[i].id).sheet, config.variant).total);
        if (i > 0) {
            EXPECT_TRUE(table[i - 1].points > table[i].points ||
                        (table[i - 1].points == table[i].points &&
                         table[i - 1].performance >= table[i].performance));
        }
    }
}

TEST(ArenaSimulation, EveryPassOfSeededArenasPairsByTheRules) {
    for (unsigned seed : {1u, 2u, 3u, 43u, 2026u}) {
        simulate(seed);
    }
}

}  // namespace arena_simulation_test
