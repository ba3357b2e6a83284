// The round-robin machine's decisions (roundrobin.h); the reducer is in roundrobin_apply.cpp.
#include "server/tournament/roundrobin.h"

#include <algorithm>
#include <set>

#include "server/tournament/arena_state.h"
#include "server/tournament/berger.h"

namespace server::tournament {

namespace {

using RrCode = RoundRobinErrorCode;
namespace rr_in = roundrobin_input;
namespace rr_ev = roundrobin_event;

// `list`, with Finished after it when it resolves the last game of a started tournament.
RoundRobinDecision rr_events(const RoundRobinState& state, std::vector<RoundRobinEvent> list,
                             RoundRobinTime now) {
    if (state.started && !state.finished && !list.empty()) {
        RoundRobinState after = state;
        for (const auto& event : list) {
            if (!apply(after, event).ok()) {
                break;
            }
        }
        if (!after.finished && std::all_of(after.games.begin(), after.games.end(), game_resolved)) {
            list.emplace_back(rr_ev::Finished{now, false});
        }
    }
    return RoundRobinDecision{std::move(list), std::nullopt};
}

RoundRobinDecision rr_finished_refusal() {
    return RoundRobinDecision::refuse(RrCode::tournament_finished, "the tournament is over");
}

// Whether the start has come (applied or not).
bool rr_started(const RoundRobinState& state, RoundRobinTime now) {
    return state.started || now >= state.config.starts_at;
}

// The player `id` unless they are not in the tournament or withdrew.
const RoundRobinPlayer* rr_member(const RoundRobinState& state, const std::string& id) {
    const auto it = state.players.find(id);
    if (it == state.players.end() || it->second.withdrawn) {
        return nullptr;
    }
    return &it->second;
}

RoundRobinDecision decide_rr_join(const RoundRobinState& state, const rr_in::Join& join,
                                  RoundRobinTime now) {
    if (join.player.empty()) {
        return RoundRobinDecision::refuse(RrCode::bad_field, "a player needs an id");
    }
    if (join.rating < min_rating || join.rating > max_rating) {
        return RoundRobinDecision::refuse(
            RrCode::bad_field, "a rating must be from " + std::to_string(min_rating) + " to " +
                                   std::to_string(max_rating));
    }
    if (state.finished) {
        return rr_finished_refusal();
    }
    if (rr_started(state, now)) {
        return RoundRobinDecision::refuse(RrCode::already_started,
                                          "the round robin has started: its schedule is fixed");
    }
    if (state.players.count(join.player)) {
        return RoundRobinDecision::refuse(RrCode::already_joined,
                                          "you are in the tournament already");
    }
    if (join.bot && !state.config.bots_allowed) {
        return RoundRobinDecision::refuse(RrCode::bots_not_allowed,
                                          "this tournament does not allow computer players");
    }
    if (static_cast<int>(state.players.size()) >= state.config.max_players) {
        return RoundRobinDecision::refuse(
            RrCode::tournament_full,
            "the tournament is full (" + std::to_string(state.config.max_players) + " players)");
    }
    return rr_events(state, {rr_ev::Joined{join.player, join.rating, join.bot}}, now);
}

// Before the start a player leaves; after it their waiting games are forfeited to the opponents
// (a game in progress goes on and ends as the room says).
RoundRobinDecision decide_rr_withdraw(const RoundRobinState& state, const rr_in::Withdraw& out,
                                      RoundRobinTime now) {
    if (!rr_member(state, out.player)) {
        return RoundRobinDecision::refuse(RrCode::not_joined,
                                          "`" + out.player + "` is not in the tournament");
    }
    if (state.finished) {
        return rr_finished_refusal();
    }
    if (!state.started) {
        return rr_events(state, {rr_ev::Left{out.player}}, now);
    }
    std::vector<RoundRobinEvent> list{rr_ev::Withdrew{out.player}};
    for (const auto& game : state.games) {
        if (game.state == RoundRobinGameState::waiting &&
            (game.first == out.player || game.second == out.player)) {
            list.emplace_back(rr_ev::Forfeited{
                game.number, game.first == out.player ? core::Side::second : core::Side::first});
        }
    }
    return rr_events(state, std::move(list), now);
}

// The game `number` in progress, or the refusal of an input about it.
std::variant<const RoundRobinGame*, RoundRobinDecision> rr_game_in_progress(
    const RoundRobinState& state, int number) {
    if (state.finished) {
        return rr_finished_refusal();
    }
    if (number < 1 || number > static_cast<int>(state.games.size()) ||
        state.games[static_cast<std::size_t>(number - 1)].state !=
            RoundRobinGameState::in_progress) {
        return RoundRobinDecision::refuse(RrCode::no_such_game,
                                          "game " + std::to_string(number) + " is not in progress");
    }
    return &state.games[static_cast<std::size_t>(number - 1)];
}

RoundRobinDecision decide_rr_game_news(const RoundRobinState& state, const RoundRobinInput& input,
                                       RoundRobinTime now) {
    int number = 0;
    std::visit(
        [&](const auto& news) {
            if constexpr (requires { news.game; }) {
                number = news.game;
            }
        },
        input);
    auto found = rr_game_in_progress(state, number);
    if (auto* refused = std::get_if<RoundRobinDecision>(&found)) {
        return *refused;
    }
    const RoundRobinGame& game = *std::get<const RoundRobinGame*>(found);
    if (const auto* started = std::get_if<rr_in::GameStarted>(&input)) {
        if (started->game_id.empty()) {
            return RoundRobinDecision::refuse(RrCode::bad_field, "a started game needs its id");
        }
        if (game.game_id) {
            return RoundRobinDecision::refuse(
                RrCode::game_already_started,
                "game " + std::to_string(number) + " has started already");
        }
        return rr_events(state, {rr_ev::GameStarted{number, started->game_id}}, now);
    }
    if (const auto* done = std::get_if<rr_in::GameFinished>(&input)) {
        if (!done->winner && state.config.variant == core::VariantId::sniderman) {
            return RoundRobinDecision::refuse(RrCode::no_draws, "Sniderman has no draws");
        }
        return rr_events(state, {rr_ev::GameFinished{number, done->winner}}, now);
    }
    if (const auto* missed = std::get_if<rr_in::FirstMoveMissed>(&input)) {
        return rr_events(state, {rr_ev::GameFinished{number, core::opposite(missed->side)}}, now);
    }
    return rr_events(state, {rr_ev::GameCancelled{number}}, now);
}

// First the deadlines: a waiting game past its deadline is a forfeit win for the one of its two
// players who is present, unplayed when both or neither are. Then, lowest round first, each
// waiting game whose two players are present and free starts.
RoundRobinDecision decide_rr_pass(const RoundRobinState& state, const rr_in::ReadyPass& pass,
                                  RoundRobinTime now) {
    if (!state.started || state.finished) {
        return rr_events(state, {}, now);
    }
    const std::set<std::string> here(pass.present.begin(), pass.present.end());
    std::set<std::string> busy;
    for (const auto& [id, player] : state.players) {
        if (player.game) {
            busy.insert(id);
        }
    }
    std::vector<RoundRobinEvent> list;
    std::vector<const RoundRobinGame*> ready;
    for (const auto& game : state.games) {
        if (game.state != RoundRobinGameState::waiting) {
            continue;
        }
        if (now >= game.deadline) {
            const bool first_here = here.count(game.first) > 0;
            const bool second_here = here.count(game.second) > 0;
            if (first_here != second_here) {
                list.emplace_back(rr_ev::Forfeited{
                    game.number, first_here ? core::Side::first : core::Side::second});
            } else {
                list.emplace_back(rr_ev::Unplayed{game.number});
            }
            continue;
        }
        ready.push_back(&game);
    }
    // The schedule is in round order already; stable_sort keeps the boards' order within one.
    std::stable_sort(ready.begin(), ready.end(),
                     [](const auto* a, const auto* b) { return a->round < b->round; });
    for (const auto* game : ready) {
        if (here.count(game->first) && here.count(game->second) && !busy.count(game->first) &&
            !busy.count(game->second)) {
            busy.insert(game->first);
            busy.insert(game->second);
            list.emplace_back(rr_ev::Paired{game->number, now});
        }
    }
    return rr_events(state, std::move(list), now);
}

}  // namespace

std::string_view roundrobin_error_name(RoundRobinErrorCode code) {
    switch (code) {
        case RrCode::bad_field:
            return "bad_field";
        case RrCode::already_joined:
            return "already_joined";
        case RrCode::not_joined:
            return "not_joined";
        case RrCode::tournament_finished:
            return "tournament_finished";
        case RrCode::tournament_full:
            return "tournament_full";
        case RrCode::already_started:
            return "already_started";
        case RrCode::bots_not_allowed:
            return "bots_not_allowed";
        case RrCode::no_such_game:
            return "no_such_game";
        case RrCode::game_already_started:
            return "game_already_started";
        case RrCode::no_draws:
            return "no_draws";
    }
    return "bad_field";
}

core::Status check_config(const RoundRobinConfig& config) {
    if (config.max_players < min_round_robin_players ||
        config.max_players > max_round_robin_players) {
        return core::make_error("a round robin has 3 to 16 players");
    }
    const std::int64_t deadline = config.game_deadline_ms;
    if (config.clock.real_time()) {
        if (deadline < min_real_time_game_deadline_ms ||
            deadline > max_real_time_game_deadline_ms) {
            return core::make_error(
                "a real-time round robin gives each game from 10 minutes to 1 day");
        }
    } else if (config.clock.kind == protocol::ClockKind::correspondence) {
        if (deadline < min_correspondence_game_deadline_ms ||
            deadline > max_correspondence_game_deadline_ms) {
            return core::make_error(
                "a correspondence round robin gives each game from 1 to 90 days");
        }
    } else {
        return core::make_error("a round robin is played with a real-time or correspondence clock");
    }
    return core::ok_status();
}

RoundRobinState new_round_robin(const RoundRobinConfig& config) {
    RoundRobinState state;
    state.config = config;
    return state;
}

RoundRobinDecision decide(const RoundRobinState& state, const RoundRobinInput& input,
                          RoundRobinTime now) {
    if (const auto* join = std::get_if<rr_in::Join>(&input)) {
        return decide_rr_join(state, *join, now);
    }
    if (const auto* out = std::get_if<rr_in::Withdraw>(&input)) {
        return decide_rr_withdraw(state, *out, now);
    }
    if (const auto* pass = std::get_if<rr_in::ReadyPass>(&input)) {
        return decide_rr_pass(state, *pass, now);
    }
    return decide_rr_game_news(state, input, now);
}

std::vector<RoundRobinEvent> decide_time(const RoundRobinState& state, RoundRobinTime now) {
    if (state.finished || now < state.config.starts_at) {
        return {};
    }
    if (state.started) {
        if (std::all_of(state.games.begin(), state.games.end(), game_resolved)) {
            return {rr_ev::Finished{now, false}};
        }
        return {};
    }
    if (state.players.size() < static_cast<std::size_t>(min_round_robin_players)) {
        return {rr_ev::Finished{now, true}};
    }
    std::vector<const RoundRobinPlayer*> order;
    for (const auto& [id, player] : state.players) {
        order.push_back(&player);
    }
    std::sort(order.begin(), order.end(),
              [](const auto* a, const auto* b) { return a->joined < b->joined; });
    rr_ev::Started started{{}, now};
    for (const auto* player : order) {
        started.players.push_back(player->id);
    }
    return {std::move(started)};
}

std::optional<RoundRobinTime> next_deadline(const RoundRobinState& state) {
    if (state.finished) {
        return std::nullopt;
    }
    if (!state.started) {
        return state.config.starts_at;
    }
    std::optional<RoundRobinTime> earliest;
    for (const auto& game : state.games) {
        if (game.state == RoundRobinGameState::waiting &&
            (!earliest || game.deadline < *earliest)) {
            earliest = game.deadline;
        }
    }
    return earliest;
}

}  // namespace server::tournament
