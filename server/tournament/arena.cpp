// The arena machine's decisions (arena.h); the reducer is in arena_apply.cpp.
#include "server/tournament/arena.h"

#include <algorithm>
#include <set>

#include "protocol/limits.h"
#include "protocol/requests.h"
#include "server/tournament/arena_pairing.h"
#include "server/tournament/arena_standings.h"

namespace server::tournament {

namespace {

using Code = ArenaErrorCode;

ArenaDecision events(std::vector<ArenaEvent> list) {
    return ArenaDecision{std::move(list), std::nullopt};
}

ArenaDecision finished_refusal() {
    return ArenaDecision::refuse(Code::tournament_finished, "the tournament is over");
}

bool over(const ArenaState& state, ArenaTime now) {
    return state.finished || now >= state.config.ends_at();
}

// The player `id` unless they are not in the arena or withdrew.
const ArenaPlayer* member(const ArenaState& state, const std::string& id) {
    const auto it = state.players.find(id);
    if (it == state.players.end() || it->second.status == PlayerStatus::withdrawn) {
        return nullptr;
    }
    return &it->second;
}

ArenaDecision not_joined(const std::string& id) {
    return ArenaDecision::refuse(Code::not_joined, "`" + id + "` is not in the tournament");
}

// The refusal of a player who paused and may not come back yet, if so.
std::optional<ArenaDecision> pause_wait(const ArenaState& state, const ArenaPlayer& player,
                                        ArenaTime now) {
    const std::int64_t left = pause_wait_left_ms(player.pause, state.config.clock, now);
    if (left == 0) {
        return std::nullopt;
    }
    return ArenaDecision::refuse(Code::pause_wait, "you paused: you may come back in " +
                                                       std::to_string((left + 999) / 1000) + " s");
}

ArenaDecision decide_join(const ArenaState& state, const arena_input::Join& join, ArenaTime now) {
    if (join.player.empty()) {
        return ArenaDecision::refuse(Code::bad_field, "a player needs an id");
    }
    if (join.rating < min_rating || join.rating > max_rating) {
        return ArenaDecision::refuse(Code::bad_field, "a rating must be from " +
                                                          std::to_string(min_rating) + " to " +
                                                          std::to_string(max_rating));
    }
    if (over(state, now)) {
        return finished_refusal();
    }
    const auto it = state.players.find(join.player);
    if (it == state.players.end()) {
        return events({arena_event::Joined{join.player, join.rating}});
    }
    if (it->second.status != PlayerStatus::withdrawn) {
        return ArenaDecision::refuse(Code::already_joined, "you are in the tournament already");
    }
    if (auto refused = pause_wait(state, it->second, now)) {
        return *refused;
    }
    return events({arena_event::Rejoined{join.player, join.rating}});
}

ArenaDecision decide_withdraw(const ArenaState& state, const arena_input::Withdraw& withdraw,
                              ArenaTime now) {
    if (!member(state, withdraw.player)) {
        return not_joined(withdraw.player);
    }
    if (over(state, now)) {
        return finished_refusal();
    }
    if (now < state.config.starts_at) {
        return events({arena_event::Left{withdraw.player}});
    }
    return events({arena_event::Withdrew{withdraw.player}});
}

ArenaDecision decide_pause(const ArenaState& state, const arena_input::Pause& pause,
                           ArenaTime now) {
    const ArenaPlayer* player = member(state, pause.player);
    if (!player) {
        return not_joined(pause.player);
    }
    if (over(state, now)) {
        return finished_refusal();
    }
    if (now < state.config.starts_at) {
        return ArenaDecision::refuse(Code::not_started,
                                     "the tournament has not started: withdraw instead");
    }
    if (player->status == PlayerStatus::paused) {
        return ArenaDecision::refuse(Code::already_paused, "you have paused already");
    }
    const bool counted = ranks(state).at(pause.player) <= pause_top_ranks;
    return events({arena_event::Paused{pause.player, counted, now}});
}

ArenaDecision decide_come_back(const ArenaState& state, const arena_input::ComeBack& back,
                               ArenaTime now) {
    const ArenaPlayer* player = member(state, back.player);
    if (!player) {
        return not_joined(back.player);
    }
    if (over(state, now)) {
        return finished_refusal();
    }
    if (player->status != PlayerStatus::paused) {
        return ArenaDecision::refuse(Code::not_paused, "you have not paused");
    }
    if (auto refused = pause_wait(state, *player, now)) {
        return *refused;
    }
    return events({arena_event::CameBack{back.player}});
}

ArenaDecision decide_berserk(const ArenaState& state, const arena_input::Berserk& berserk,
                             ArenaTime now) {
    const auto it = state.players.find(berserk.player);
    if (it == state.players.end()) {
        return not_joined(berserk.player);
    }
    if (over(state, now)) {
        return finished_refusal();
    }
    if (!it->second.game || !state.games.count(*it->second.game)) {
        return ArenaDecision::refuse(Code::not_in_game, "you are not playing a game");
    }
    if (!state.config.berserkable) {
        return ArenaDecision::refuse(Code::berserk_not_allowed,
                                     "this tournament does not allow berserk");
    }
    if (!has_base_time(state.config.clock)) {
        return ArenaDecision::refuse(Code::berserk_no_base_time,
                                     "berserk needs a clock with a base time");
    }
    if (berserk.has_moved) {
        return ArenaDecision::refuse(Code::berserk_after_first_move,
                                     "berserk is only possible before your first move");
    }
    const ArenaGame& game = state.games.at(*it->second.game);
    const core::Side side = game.first == berserk.player ? core::Side::first : core::Side::second;
    if (side == core::Side::first ? game.first_berserk : game.second_berserk) {
        return ArenaDecision::refuse(Code::already_berserk, "you went berserk already");
    }
    return events({arena_event::Berserked{game.number, side}});
}

// The game `number` in progress, or the refusal of an input about it.
std::variant<const ArenaGame*, ArenaDecision> game_in_progress(const ArenaState& state, int number,
                                                               ArenaTime now) {
    if (over(state, now)) {
        return ArenaDecision::refuse(Code::tournament_finished,
                                     "the tournament is over: games still running at its end do "
                                     "not count");
    }
    const auto it = state.games.find(number);
    if (it == state.games.end()) {
        return ArenaDecision::refuse(Code::no_such_game,
                                     "game " + std::to_string(number) + " is not in progress");
    }
    return &it->second;
}

ArenaDecision decide_game_news(const ArenaState& state, const ArenaInput& input, ArenaTime now) {
    if (const auto* started = std::get_if<arena_input::GameStarted>(&input)) {
        auto found = game_in_progress(state, started->game, now);
        if (auto* refused = std::get_if<ArenaDecision>(&found)) {
            return *refused;
        }
        if (started->game_id.empty()) {
            return ArenaDecision::refuse(Code::bad_field, "a started game needs its id");
        }
        if (std::get<const ArenaGame*>(found)->game_id) {
            return ArenaDecision::refuse(
                Code::game_already_started,
                "game " + std::to_string(started->game) + " has started already");
        }
        return events({arena_event::GameStarted{started->game, started->game_id}});
    }
    if (const auto* done = std::get_if<arena_input::GameFinished>(&input)) {
        auto found = game_in_progress(state, done->game, now);
        if (auto* refused = std::get_if<ArenaDecision>(&found)) {
            return *refused;
        }
        if (done->plies < 0) {
            return ArenaDecision::refuse(Code::bad_field, "plies cannot be negative");
        }
        const ArenaGame& game = *std::get<const ArenaGame*>(found);
        return events({arena_event::GameFinished{done->game, done->winner, done->plies,
                                                 done->first_berserk || game.first_berserk,
                                                 done->second_berserk || game.second_berserk}});
    }
    if (const auto* missed = std::get_if<arena_input::FirstMoveMissed>(&input)) {
        auto found = game_in_progress(state, missed->game, now);
        if (auto* refused = std::get_if<ArenaDecision>(&found)) {
            return *refused;
        }
        const ArenaGame& game = *std::get<const ArenaGame*>(found);
        const bool first_missed = missed->side == core::Side::first;
        std::vector<ArenaEvent> list{arena_event::GameFinished{
            game.number, core::opposite(missed->side), first_missed ? 0 : 1, game.first_berserk,
            game.second_berserk}};
        const std::string& loser = first_missed ? game.first : game.second;
        if (member(state, loser)) {
            list.emplace_back(arena_event::Withdrew{loser});
        }
        return events(std::move(list));
    }
    const auto& cancelled = std::get<arena_input::GameCancelled>(input);
    auto found = game_in_progress(state, cancelled.game, now);
    if (auto* refused = std::get_if<ArenaDecision>(&found)) {
        return *refused;
    }
    return events({arena_event::GameCancelled{cancelled.game}});
}

// Anyone with an account may talk, a player or not, until the end; the text as the room chat's.
ArenaDecision decide_say(const ArenaState& state, const arena_input::Say& say, ArenaTime now) {
    if (say.player.empty()) {
        return ArenaDecision::refuse(Code::bad_field, "a line needs its writer's id");
    }
    if (say.text.empty() || protocol::utf8_length(say.text) > protocol::max_chat_length) {
        return ArenaDecision::refuse(
            Code::bad_field,
            "a chat line has 1 to " + std::to_string(protocol::max_chat_length) + " characters");
    }
    if (over(state, now)) {
        return ArenaDecision::refuse(Code::tournament_finished,
                                     "the tournament is over: its chat is closed");
    }
    return events({arena_event::Said{say.player, say.name, say.text, now}});
}

ArenaDecision decide_pass(const ArenaState& state, const arena_input::PairingPass& pass,
                          ArenaTime now) {
    const ArenaConfig& config = state.config;
    if (state.finished || now < config.starts_at ||
        now >= config.ends_at() - pairing_stop_ms(config.clock)) {
        return events({});
    }
    const std::vector<std::string> waiting = waiting_players(state, pass.present);
    if (waiting.size() < 2) {
        return events({});
    }
    // The only two who could play now: active and either here or in a game.
    const std::set<std::string> here(pass.present.begin(), pass.present.end());
    int available = 0;
    for (const auto& [id, player] : state.players) {
        if (player.status == PlayerStatus::active && (player.game || here.count(id))) {
            ++available;
        }
    }
    const auto rank_of = ranks(state);
    std::vector<Candidate> candidates;
    candidates.reserve(waiting.size());
    for (const auto& id : waiting) {
        const ArenaPlayer& player = state.players.at(id);
        candidates.push_back(Candidate{id, rank_of.at(id), player.rating,
                                       side_history(player.sides), player.last_opponent});
    }
    PairingOptions options;
    options.rating_order = now < config.starts_at + rating_order_ms;
    options.rematch_allowed = waiting.size() == 2 && available == 2;
    std::vector<ArenaEvent> list;
    int number = state.next_game;
    for (auto& pair : pair_waiting(std::move(candidates), options)) {
        list.emplace_back(
            arena_event::Paired{number++, std::move(pair.first), std::move(pair.second), now});
    }
    return events(std::move(list));
}

}  // namespace

std::string_view arena_error_name(ArenaErrorCode code) {
    switch (code) {
        case Code::bad_field:
            return "bad_field";
        case Code::already_joined:
            return "already_joined";
        case Code::not_joined:
            return "not_joined";
        case Code::tournament_finished:
            return "tournament_finished";
        case Code::not_started:
            return "not_started";
        case Code::already_paused:
            return "already_paused";
        case Code::not_paused:
            return "not_paused";
        case Code::pause_wait:
            return "pause_wait";
        case Code::not_in_game:
            return "not_in_game";
        case Code::berserk_not_allowed:
            return "berserk_not_allowed";
        case Code::berserk_no_base_time:
            return "berserk_no_base_time";
        case Code::berserk_after_first_move:
            return "berserk_after_first_move";
        case Code::already_berserk:
            return "already_berserk";
        case Code::no_such_game:
            return "no_such_game";
        case Code::game_already_started:
            return "game_already_started";
    }
    return "bad_field";
}

core::Status check_config(const ArenaConfig& config) {
    if (config.duration_ms < min_arena_ms || config.duration_ms > max_arena_ms) {
        return core::make_error("an arena lasts from 20 to 180 minutes");
    }
    if (!config.clock.real_time()) {
        return core::make_error("an arena is played with a real-time clock");
    }
    return core::ok_status();
}

ArenaState new_arena(const ArenaConfig& config) {
    ArenaState state;
    state.config = config;
    return state;
}

ArenaDecision decide(const ArenaState& state, const ArenaInput& input, ArenaTime now) {
    if (const auto* join = std::get_if<arena_input::Join>(&input)) {
        return decide_join(state, *join, now);
    }
    if (const auto* withdraw = std::get_if<arena_input::Withdraw>(&input)) {
        return decide_withdraw(state, *withdraw, now);
    }
    if (const auto* pause = std::get_if<arena_input::Pause>(&input)) {
        return decide_pause(state, *pause, now);
    }
    if (const auto* back = std::get_if<arena_input::ComeBack>(&input)) {
        return decide_come_back(state, *back, now);
    }
    if (const auto* berserk = std::get_if<arena_input::Berserk>(&input)) {
        return decide_berserk(state, *berserk, now);
    }
    if (const auto* pass = std::get_if<arena_input::PairingPass>(&input)) {
        return decide_pass(state, *pass, now);
    }
    if (const auto* say = std::get_if<arena_input::Say>(&input)) {
        return decide_say(state, *say, now);
    }
    return decide_game_news(state, input, now);
}

std::vector<ArenaEvent> decide_time(const ArenaState& state, ArenaTime now) {
    if (state.finished || now < state.config.ends_at()) {
        return {};
    }
    return {arena_event::Finished{now}};
}

std::optional<ArenaTime> next_deadline(const ArenaState& state) {
    if (state.finished) {
        return std::nullopt;
    }
    return state.config.ends_at();
}

std::vector<std::string> waiting_players(const ArenaState& state,
                                         const std::vector<std::string>& present) {
    std::set<std::string> seen;
    std::vector<std::string> waiting;
    for (const auto& id : present) {
        const auto it = state.players.find(id);
        if (it != state.players.end() && it->second.status == PlayerStatus::active &&
            !it->second.game && seen.insert(id).second) {
            waiting.push_back(id);
        }
    }
    return waiting;
}

}  // namespace server::tournament
