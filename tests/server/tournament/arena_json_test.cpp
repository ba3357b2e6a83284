// The arena's stored form: every event and the settings read back as they were written, bad text
// is refused with a message naming what is wrong, and a seeded arena's stored events replayed from
// its stored settings give the live state (what a restart does).
#include "server/tournament/arena_json.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace arena_json_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;

constexpr ArenaTime start = 1'767'225'600'000;  // 2026-01-01, in milliseconds

// One event of every kind, with the values that are easiest to lose (no winner, the second side,
// a name outside ASCII).
std::vector<ArenaEvent> one_of_each() {
    return {
        arena_event::Joined{"ana", 1500},
        arena_event::Rejoined{"bo", 2210},
        arena_event::Left{"cy"},
        arena_event::Withdrew{"dee"},
        arena_event::Paused{"ana", true, start + 61'000},
        arena_event::CameBack{"ana"},
        arena_event::Berserked{7, Side::second},
        arena_event::Paired{8, "ana", "Zoë", start + 2'000},
        arena_event::GameStarted{8, "g-8xYz"},
        arena_event::GameFinished{8, std::nullopt, 41, false, true},
        arena_event::GameFinished{9, Side::second, 90, true, false},
        arena_event::GameCancelled{10},
        arena_event::Finished{start + 20 * 60'000},
        arena_event::Said{"p_zoe", "Zoë", "bonne chance à tous ✓", start + 3'000},
    };
}

// The settings of a 3+2 chesica arena of an hour.
ArenaConfig sample_config() {
    ArenaConfig config;
    config.starts_at = start;
    config.duration_ms = 60 * 60'000;
    config.clock = TimeControl{ClockKind::real_time, 180, 2, 0};
    config.berserkable = false;
    config.variant = core::VariantId::chesica;
    config.rated = false;
    return config;
}

// The error of decoding `text`, or a failure naming the event it read instead.
std::string event_error(const std::string& text) {
    const auto decoded = decode_event(text);
    if (decoded) {
        ADD_FAILURE() << "read " << text << " as " << arena_event_kind(*decoded);
        return {};
    }
    return decoded.error();
}

std::string config_error(const std::string& text) {
    const auto decoded = decode_config(text);
    if (decoded) {
        ADD_FAILURE() << "read " << text << " as settings";
        return {};
    }
    return decoded.error();
}

TEST(ArenaJson, EveryEventKindRoundTrips) {
    std::set<std::size_t> kinds;
    for (const ArenaEvent& event : one_of_each()) {
        kinds.insert(event.index());
        const std::string text = encode_event(event);
        const auto decoded = decode_event(text);
        ASSERT_TRUE(decoded.ok()) << text << ": " << decoded.error();
        EXPECT_EQ(*decoded, event) << text;
        EXPECT_EQ(nlohmann::json::parse(text).at("kind").get<std::string>(),
                  std::string(arena_event_kind(event)))
            << text;
    }
    EXPECT_EQ(kinds.size(), std::variant_size_v<ArenaEvent>) << "a kind is missing from the list";
}

TEST(ArenaJson, StoredFormIsCompactWithSortedKeys) {
    EXPECT_EQ(encode_event(arena_event::Paired{3, "ana", "bo", 1'000}),
              R"({"at":1000,"first":"ana","game":3,"kind":"paired","second":"bo"})");
    EXPECT_EQ(encode_event(arena_event::GameFinished{3, std::nullopt, 20, true, false}),
              R"({"first_berserk":true,"game":3,"kind":"game_finished","plies":20,)"
              R"("second_berserk":false,"winner":null})");
    EXPECT_EQ(encode_event(arena_event::Berserked{4, Side::first}),
              R"({"game":4,"kind":"berserked","side":"first"})");
    EXPECT_EQ(encode_event(arena_event::Said{"p_1", "ann", "gl hf", 5'000}),
              R"({"at":5000,"kind":"said","name":"ann","player":"p_1","text":"gl hf"})");
    EXPECT_EQ(encode_config(sample_config()),
              R"({"berserkable":false,"clock":{"increment":2,"initial":180},)"
              R"("duration_ms":3600000,"rated":false,"rules":"house",)"
              R"("starts_at":1767225600000,"variant":"chesica"})");
}

TEST(ArenaJson, SettingsWithoutRulesAreHouseRulesAndBadRulesAreRefused) {
    const std::string before_rules =
        R"({"berserkable":false,"clock":{"increment":2,"initial":180},)"
        R"("duration_ms":3600000,"rated":false,"starts_at":1767225600000,"variant":"chessence"})";
    const auto old = decode_config(before_rules);
    ASSERT_TRUE(old.ok()) << old.error();
    EXPECT_EQ(old->rules, core::RuleSet::house);
    auto strict = sample_config();
    strict.rules = core::RuleSet::strict;
    const auto back = decode_config(encode_config(strict));
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, strict);
    auto bad = before_rules;
    bad.insert(bad.size() - 1, R"(,"rules":"chaos")");
    const auto refused = decode_config(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("`rules`"), std::string::npos) << refused.error();
}

TEST(ArenaJson, UnknownFieldsAreIgnored) {
    const auto decoded = decode_event(R"({"kind":"withdrew","player":"ana","reason":"tired"})");
    ASSERT_TRUE(decoded.ok()) << decoded.error();
    EXPECT_EQ(*decoded, ArenaEvent(arena_event::Withdrew{"ana"}));
}

TEST(ArenaJson, BadEventsAreRefusedWithWhatIsWrong) {
    EXPECT_EQ(event_error("joined ana"), "an arena event must be JSON");
    EXPECT_EQ(event_error(R"(["joined","ana"])"), "an arena event must be a JSON object");
    EXPECT_EQ(event_error(R"({"player":"ana"})"), "an arena event needs a `kind` string");
    EXPECT_EQ(event_error(R"({"kind":3,"player":"ana"})"), "an arena event needs a `kind` string");
    EXPECT_EQ(event_error(R"({"kind":"exploded"})"), "unknown arena event kind `exploded`");
    EXPECT_EQ(event_error(R"({"kind":"paired","game":1,"first":"ana","at":5})"),
              "paired event: `second` is missing");
    EXPECT_EQ(event_error(R"({"kind":"joined","player":"ana","rating":"1500"})"),
              "joined event: `rating` must be a whole number");
    EXPECT_EQ(event_error(R"({"kind":"joined","player":"ana","rating":1500.5})"),
              "joined event: `rating` must be a whole number");
    EXPECT_EQ(event_error(R"({"kind":"joined","player":"ana","rating":10000000000})"),
              "joined event: `rating` must be a whole number");
    EXPECT_EQ(event_error(R"({"kind":"left","player":null})"),
              "left event: `player` must be a string");
    EXPECT_EQ(event_error(R"({"kind":"paused","player":"ana","counted":1,"at":5})"),
              "paused event: `counted` must be true or false");
    EXPECT_EQ(event_error(R"({"kind":"finished","at":18446744073709551615})"),
              "finished event: `at` must be whole milliseconds");
    EXPECT_EQ(event_error(R"({"kind":"berserked","game":1,"side":"white"})"),
              R"(berserked event: `side` must be "first" or "second")");
    EXPECT_EQ(event_error(R"({"kind":"game_finished","game":1,"plies":3,)"
                          R"("first_berserk":false,"second_berserk":false})"),
              "game_finished event: `winner` is missing");
    EXPECT_EQ(event_error(R"({"kind":"game_finished","game":1,"winner":"draw","plies":3,)"
                          R"("first_berserk":false,"second_berserk":false})"),
              R"(game_finished event: `winner` must be "first", "second" or null)");
}

TEST(ArenaJson, ConfigRoundTrips) {
    for (ArenaConfig config : {sample_config(), ArenaConfig{}}) {
        const std::string text = encode_config(config);
        const auto decoded = decode_config(text);
        ASSERT_TRUE(decoded.ok()) << text << ": " << decoded.error();
        EXPECT_EQ(*decoded, config) << text;
    }
}

TEST(ArenaJson, BadConfigsAreRefusedWithWhatIsWrong) {
    const auto with = [](const char* key, nlohmann::json value) {
        auto object = nlohmann::json::parse(encode_config(sample_config()));
        if (value.is_discarded()) {
            object.erase(key);
        } else {
            object[key] = std::move(value);
        }
        return object.dump();
    };
    const nlohmann::json absent(nlohmann::json::value_t::discarded);
    EXPECT_EQ(config_error("{"), "an arena's settings must be JSON");
    EXPECT_EQ(config_error("42"), "an arena's settings must be a JSON object");
    EXPECT_EQ(config_error(with("starts_at", absent)), "arena settings: `starts_at` is missing");
    EXPECT_EQ(config_error(with("duration_ms", "1h")),
              "arena settings: `duration_ms` must be whole milliseconds");
    EXPECT_EQ(config_error(with("clock", absent)), "arena settings: `clock` is missing");
    EXPECT_EQ(config_error(with("clock", {{"initial", 180}, {"increment", 999}})),
              "arena settings: `clock.increment` must be from 0 to 180 seconds");
    EXPECT_EQ(config_error(with("berserkable", "yes")),
              "arena settings: `berserkable` must be true or false");
    EXPECT_EQ(config_error(with("variant", "checkers")),
              "arena settings: `variant` must be chessence, chesica or sniderman, not `checkers`");
    EXPECT_EQ(config_error(with("rated", absent)), "arena settings: `rated` is missing");
}

// A seeded arena, every decided event kept in order (as the actor will keep them).
struct ArenaRun {
    ArenaConfig config;
    ArenaState state;
    std::vector<ArenaEvent> log;
};

ArenaRun run_arena(unsigned seed) {
    std::mt19937 random(seed);
    ArenaRun run;
    run.config.starts_at = start;
    run.config.duration_ms = 20 * 60'000;
    run.config.clock = TimeControl{ClockKind::real_time, 60, 1, 0};
    run.config.variant = core::VariantId::sniderman;
    run.state = new_arena(run.config);
    const auto act = [&](const ArenaInput& input, ArenaTime now) {
        const ArenaDecision d = decide(run.state, input, now);
        for (const auto& event : d.events) {
            const auto applied = apply(run.state, event);
            EXPECT_TRUE(applied.ok()) << applied.error();
            run.log.push_back(event);
        }
        return d.events;
    };
    std::vector<std::string> everyone;
    for (int i = 0; i < 12; ++i) {
        everyone.push_back(std::string("p").append(std::to_string(i)));
        act(arena_input::Join{everyone.back(), 1200 + static_cast<int>(random() % 900)},
            start - 5'000);
    }
    act(arena_input::Withdraw{everyone[11]}, start - 1'000);  // left before the start
    std::map<int, ArenaTime> ends;                            // running games: when they end
    for (ArenaTime now = start; !run.state.finished; now += 1'000) {
        for (auto it = ends.begin(); it != ends.end();) {
            if (it->second > now) {
                ++it;
                continue;
            }
            const auto game = run.state.games.find(it->first);
            if (game != run.state.games.end()) {
                const unsigned roll = random() % 20;
                if (random() % 4 == 0) {
                    act(arena_input::Berserk{game->second.second, false}, now);
                }
                if (!game->second.game_id) {
                    act(arena_input::GameCancelled{it->first}, now);
                } else if (roll == 0) {
                    act(arena_input::FirstMoveMissed{it->first, Side::second}, now);
                } else {
                    std::optional<Side> winner;
                    if (roll < 9) {
                        winner = Side::first;
                    } else if (roll < 16) {
                        winner = Side::second;
                    }
                    act(arena_input::GameFinished{it->first, winner,
                                                  static_cast<int>(random() % 90),
                                                  random() % 5 == 0, random() % 5 == 0},
                        now);
                }
            }
            it = ends.erase(it);
        }
        if (random() % 3 == 0) {
            const std::string& id = everyone[random() % everyone.size()];
            switch (random() % 5) {
                case 0:
                    act(arena_input::Join{id, 1500}, now);
                    break;
                case 4:  // a line of the chat (a player's; nothing knows a watcher apart)
                    act(arena_input::Say{id, "Player " + id, "at " + std::to_string(now)}, now);
                    break;
                case 1:
                    act(arena_input::Withdraw{id}, now);
                    break;
                case 2:
                    act(arena_input::Pause{id}, now);
                    break;
                default:
                    act(arena_input::ComeBack{id}, now);
                    break;
            }
        }
        for (const auto& event : decide_time(run.state, now)) {
            EXPECT_TRUE(apply(run.state, event).ok());
            run.log.push_back(event);
        }
        if ((now - start) % pairing_pass_interval_ms == 0) {
            for (const auto& event : act(arena_input::PairingPass{everyone}, now)) {
                const int game = std::get<arena_event::Paired>(event).game;
                ends[game] = now + 3'000 + static_cast<ArenaTime>(random() % 120'000);
                if (random() % 10 != 0) {  // some rooms are never made: cancelled later
                    act(arena_input::GameStarted{game, "g" + std::to_string(game)}, now);
                }
            }
        }
    }
    return run;
}

TEST(ArenaJson, StoredEventsReplayedFromStoredConfigGiveTheLiveState) {
    std::set<std::size_t> kinds;
    for (unsigned seed : {1u, 7u, 43u, 2026u}) {
        SCOPED_TRACE(std::string("seed ").append(std::to_string(seed)));
        const ArenaRun run = run_arena(seed);
        ASSERT_TRUE(run.state.finished);
        std::vector<std::string> stored;
        for (const auto& event : run.log) {
            stored.push_back(encode_event(event));
            kinds.insert(event.index());
        }
        const auto config = decode_config(encode_config(run.config));
        ASSERT_TRUE(config.ok()) << config.error();
        ArenaState replayed = new_arena(*config);
        for (std::size_t i = 0; i < stored.size(); ++i) {
            const auto event = decode_event(stored[i]);
            ASSERT_TRUE(event.ok()) << stored[i] << ": " << event.error();
            ASSERT_EQ(*event, run.log[i]) << stored[i];
            const auto applied = apply(replayed, *event);
            ASSERT_TRUE(applied.ok()) << stored[i] << ": " << applied.error();
        }
        EXPECT_EQ(replayed, run.state);
    }
    EXPECT_EQ(kinds.size(), std::variant_size_v<ArenaEvent>) << "the runs miss an event kind";
}

}  // namespace arena_json_test
