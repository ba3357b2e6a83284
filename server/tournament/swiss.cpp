// The Swiss machine's decisions (swiss.h); the reducer is in swiss_apply.cpp.
#include "server/tournament/swiss.h"

#include <set>

#include "server/tournament/arena_state.h"
#include "server/tournament/swiss_pairing.h"

namespace server::tournament {

namespace {

using SwissCode = SwissErrorCode;

SwissDecision swiss_events(std::vector<SwissEvent> list) {
    return SwissDecision{std::move(list), std::nullopt};
}

SwissDecision swiss_over() {
    return SwissDecision::refuse(SwissCode::tournament_finished, "the tournament is over");
}

int active_players(const SwissState& state) {
    int count = 0;
    for (const auto& [id, player] : state.players) {
        count += player.status == SwissStatus::active ? 1 : 0;
    }
    return count;
}

// The pairing's view of `player`: the rounds that ended, the sides played over the board.
SwissCandidate swiss_candidate(const SwissPlayer& player) {
    SwissCandidate c;
    c.id = player.id;
    c.rating = player.rating;
    c.joined = player.joined;
    for (const SwissRound& round : player.rounds) {
        c.half_points += round.game ? 0 : round.half_points;
        if (round.opponent) {
            c.met.insert(*round.opponent);
        }
        if (round.kind == SwissRoundKind::played) {
            c.sides.push_back(round.side);
        }
        if (round.kind == SwissRoundKind::bye ||
            (round.kind == SwissRoundKind::forfeit && round.half_points > 0)) {
            c.bye_eligible = false;
        }
    }
    return c;
}

SwissDecision decide_swiss_join(const SwissState& state, const swiss_input::Join& join) {
    if (join.player.empty()) {
        return SwissDecision::refuse(SwissCode::bad_field, "a player needs an id");
    }
    if (join.rating < min_rating || join.rating > max_rating) {
        return SwissDecision::refuse(SwissCode::bad_field, "a rating must be from " +
                                                               std::to_string(min_rating) + " to " +
                                                               std::to_string(max_rating));
    }
    if (state.finished) {
        return swiss_over();
    }
    if (const auto it = state.players.find(join.player); it != state.players.end()) {
        if (it->second.status == SwissStatus::withdrawn) {
            return SwissDecision::refuse(SwissCode::withdrawn, "you withdrew from this tournament");
        }
        return SwissDecision::refuse(SwissCode::already_joined,
                                     "you are in the tournament already");
    }
    if (join.bot && !state.config.bots_allowed) {
        return SwissDecision::refuse(SwissCode::bots_not_allowed,
                                     "this tournament does not allow computer players");
    }
    if (!late_join_open(state)) {
        return SwissDecision::refuse(SwissCode::late_join_closed,
                                     "joining closes once half the rounds have been paired");
    }
    return swiss_events({swiss_event::Joined{join.player, join.rating, join.bot}});
}

SwissDecision decide_swiss_withdraw(const SwissState& state,
                                    const swiss_input::Withdraw& withdraw) {
    const auto it = state.players.find(withdraw.player);
    if (it == state.players.end() || it->second.status == SwissStatus::withdrawn) {
        return SwissDecision::refuse(SwissCode::not_joined,
                                     "`" + withdraw.player + "` is not in the tournament");
    }
    if (state.finished) {
        return swiss_over();
    }
    if (state.round == 0) {
        return swiss_events({swiss_event::Left{withdraw.player}});
    }
    return swiss_events({swiss_event::Withdrew{withdraw.player}});
}

// The game `number` in progress, or the refusal of an input about it.
std::variant<const SwissGame*, SwissDecision> swiss_game(const SwissState& state, int number) {
    if (state.finished) {
        return swiss_over();
    }
    const auto it = state.games.find(number);
    if (it == state.games.end()) {
        return SwissDecision::refuse(SwissCode::no_such_game,
                                     "game " + std::to_string(number) + " is not in progress");
    }
    return &it->second;
}

// The events of a game's end: `ended` (and what goes with it), then the end of the tournament
// when it was the last game of the last round.
SwissDecision swiss_game_ended(const SwissState& state, std::vector<SwissEvent> ended,
                               SwissTime now) {
    if (state.games.size() == 1 && state.round >= state.config.rounds) {
        ended.emplace_back(swiss_event::Finished{now, false});
    }
    return swiss_events(std::move(ended));
}

SwissDecision decide_swiss_game_news(const SwissState& state, const SwissInput& input,
                                     SwissTime now) {
    if (const auto* started = std::get_if<swiss_input::GameStarted>(&input)) {
        auto found = swiss_game(state, started->game);
        if (auto* refused = std::get_if<SwissDecision>(&found)) {
            return *refused;
        }
        if (started->game_id.empty()) {
            return SwissDecision::refuse(SwissCode::bad_field, "a started game needs its id");
        }
        if (std::get<const SwissGame*>(found)->game_id) {
            return SwissDecision::refuse(
                SwissCode::game_already_started,
                "game " + std::to_string(started->game) + " has started already");
        }
        return swiss_events({swiss_event::GameStarted{started->game, started->game_id}});
    }
    if (const auto* done = std::get_if<swiss_input::GameFinished>(&input)) {
        auto found = swiss_game(state, done->game);
        if (auto* refused = std::get_if<SwissDecision>(&found)) {
            return *refused;
        }
        if (!done->winner && state.config.variant == core::VariantId::sniderman) {
            return SwissDecision::refuse(SwissCode::no_draws, "a Sniderman match has a winner");
        }
        return swiss_game_ended(
            state, {swiss_event::GameFinished{done->game, done->winner, false, now}}, now);
    }
    if (const auto* missed = std::get_if<swiss_input::FirstMoveMissed>(&input)) {
        auto found = swiss_game(state, missed->game);
        if (auto* refused = std::get_if<SwissDecision>(&found)) {
            return *refused;
        }
        const SwissGame& game = *std::get<const SwissGame*>(found);
        std::vector<SwissEvent> list{
            swiss_event::GameFinished{game.number, core::opposite(missed->side), true, now}};
        const std::string& loser = missed->side == core::Side::first ? game.first : game.second;
        const auto it = state.players.find(loser);
        if (it != state.players.end() && it->second.status == SwissStatus::active) {
            list.emplace_back(swiss_event::Withdrew{loser});
        }
        return swiss_game_ended(state, std::move(list), now);
    }
    const auto& cancelled = std::get<swiss_input::GameCancelled>(input);
    auto found = swiss_game(state, cancelled.game);
    if (auto* refused = std::get_if<SwissDecision>(&found)) {
        return *refused;
    }
    return swiss_game_ended(state, {swiss_event::GameCancelled{cancelled.game, now}}, now);
}

// The next round over the active players present; the early end when fewer than two players
// remain or no pairing keeps the absolute criteria.
SwissDecision decide_swiss_pass(const SwissState& state, const swiss_input::RoundPass& pass,
                                SwissTime now) {
    if (!round_due(state, now)) {
        return swiss_events({});
    }
    if (active_players(state) < 2) {
        return swiss_events({swiss_event::Finished{now, true}});
    }
    std::set<std::string> seen;
    std::vector<SwissCandidate> present;
    for (const auto& id : pass.present) {
        const auto it = state.players.find(id);
        if (it != state.players.end() && it->second.status == SwissStatus::active &&
            seen.insert(id).second) {
            present.push_back(swiss_candidate(it->second));
        }
    }
    auto pairing = pair_swiss_round(std::move(present));
    if (!pairing) {
        return swiss_events({swiss_event::Finished{now, true}});
    }
    swiss_event::RoundPaired paired;
    paired.round = state.round + 1;
    paired.bye = std::move(pairing->bye);
    paired.at = now;
    int number = state.next_game;
    for (auto& pair : pairing->pairs) {
        paired.games.push_back({number++, std::move(pair.first), std::move(pair.second)});
    }
    std::vector<SwissEvent> list;
    const bool last = paired.round >= state.config.rounds;
    const bool no_games = paired.games.empty();
    list.emplace_back(std::move(paired));
    if (last && no_games) {
        list.emplace_back(swiss_event::Finished{now, false});
    }
    return swiss_events(std::move(list));
}

}  // namespace

std::string_view swiss_error_name(SwissErrorCode code) {
    switch (code) {
        case SwissCode::bad_field:
            return "bad_field";
        case SwissCode::already_joined:
            return "already_joined";
        case SwissCode::not_joined:
            return "not_joined";
        case SwissCode::tournament_finished:
            return "tournament_finished";
        case SwissCode::late_join_closed:
            return "late_join_closed";
        case SwissCode::bots_not_allowed:
            return "bots_not_allowed";
        case SwissCode::withdrawn:
            return "withdrawn";
        case SwissCode::no_such_game:
            return "no_such_game";
        case SwissCode::game_already_started:
            return "game_already_started";
        case SwissCode::no_draws:
            return "no_draws";
    }
    return "bad_field";
}

core::Status check_config(const SwissConfig& config) {
    if (config.rounds < min_swiss_rounds || config.rounds > max_swiss_rounds) {
        return core::make_error("a Swiss has 3 to 15 rounds");
    }
    if (config.round_interval_ms < min_round_interval_ms ||
        config.round_interval_ms > max_round_interval_ms) {
        return core::make_error("the interval between rounds is from 10 seconds to 1 day");
    }
    if (config.clock.kind != protocol::ClockKind::real_time &&
        config.clock.kind != protocol::ClockKind::correspondence) {
        return core::make_error("a Swiss is played with a real-time or correspondence clock");
    }
    return core::ok_status();
}

SwissState new_swiss(const SwissConfig& config) {
    SwissState state;
    state.config = config;
    state.next_round_at = config.starts_at;
    return state;
}

SwissDecision decide(const SwissState& state, const SwissInput& input, SwissTime now) {
    if (const auto* join = std::get_if<swiss_input::Join>(&input)) {
        return decide_swiss_join(state, *join);
    }
    if (const auto* withdraw = std::get_if<swiss_input::Withdraw>(&input)) {
        return decide_swiss_withdraw(state, *withdraw);
    }
    if (const auto* pass = std::get_if<swiss_input::RoundPass>(&input)) {
        return decide_swiss_pass(state, *pass, now);
    }
    return decide_swiss_game_news(state, input, now);
}

bool round_due(const SwissState& state, SwissTime now) {
    return !state.finished && state.next_round_at && now >= *state.next_round_at &&
           state.round < state.config.rounds;
}

std::vector<SwissEvent> decide_time(const SwissState& state, SwissTime now) {
    if (round_due(state, now) && state.round == 0 && active_players(state) < 2) {
        return {swiss_event::Finished{now, true}};
    }
    return {};
}

std::optional<SwissTime> next_deadline(const SwissState& state) {
    if (state.finished) {
        return std::nullopt;
    }
    return state.next_round_at;
}

bool late_join_open(const SwissState& state) {
    return !state.finished && 2 * state.round < state.config.rounds;
}

}  // namespace server::tournament
