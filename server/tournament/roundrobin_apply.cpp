// The round-robin machine's reducer (roundrobin.h): each event changes the state, or is refused
// whole.
#include <set>

#include "server/tournament/berger.h"
#include "server/tournament/roundrobin.h"

namespace server::tournament {

namespace {

namespace rr_ev = roundrobin_event;
using RrState = RoundRobinGameState;

core::Error rr_no_player(const std::string& id) {
    return core::make_error("no player `" + id + "` in the round robin");
}

// The game `number` of the schedule in `expected`, or nothing.
RoundRobinGame* rr_game(RoundRobinState& state, int number, RrState expected) {
    if (number < 1 || number > static_cast<int>(state.games.size())) {
        return nullptr;
    }
    RoundRobinGame& game = state.games[static_cast<std::size_t>(number - 1)];
    return game.state == expected ? &game : nullptr;
}

core::Error rr_no_game(int number, const char* what) {
    return core::make_error("no game " + std::to_string(number) + " " + what);
}

// Frees both players of `game`.
void rr_free_players(RoundRobinState& state, const RoundRobinGame& game) {
    for (const auto* id : {&game.first, &game.second}) {
        const auto it = state.players.find(*id);
        if (it != state.players.end() && it->second.game == game.number) {
            it->second.game.reset();
        }
    }
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Joined& e) {
    if (state.started || state.players.count(e.player)) {
        return core::make_error("`" + e.player + "` cannot join now");
    }
    RoundRobinPlayer player;
    player.id = e.player;
    player.rating = e.rating;
    player.bot = e.bot;
    player.joined = state.next_joined++;
    state.players.emplace(e.player, std::move(player));
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Left& e) {
    if (state.started) {
        return core::make_error("nobody leaves a round robin that started");
    }
    if (!state.players.erase(e.player)) {
        return rr_no_player(e.player);
    }
    return core::ok_status();
}

// Numbers the players and lays out the schedule from the Berger table.
core::Status rr_apply(RoundRobinState& state, const rr_ev::Started& e) {
    const std::set<std::string> named(e.players.begin(), e.players.end());
    if (state.started || named.size() != e.players.size() || named.size() != state.players.size() ||
        e.players.size() < static_cast<std::size_t>(min_round_robin_players) ||
        e.players.size() > static_cast<std::size_t>(max_round_robin_players)) {
        return core::make_error("a start that does not fit the players");
    }
    for (const auto& id : e.players) {
        if (!state.players.count(id)) {
            return rr_no_player(id);
        }
    }
    const int count = static_cast<int>(e.players.size());
    for (int i = 0; i < count; ++i) {
        state.players.at(e.players[static_cast<std::size_t>(i)]).number = i + 1;
    }
    const auto rounds = round_robin_schedule(count, state.config.double_round);
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        const int round = static_cast<int>(r) + 1;
        for (const auto& pair : rounds[r]) {
            RoundRobinGame game;
            game.number = static_cast<int>(state.games.size()) + 1;
            game.round = round;
            game.first = e.players[static_cast<std::size_t>(pair.first - 1)];
            game.second = e.players[static_cast<std::size_t>(pair.second - 1)];
            game.deadline = state.config.starts_at + round * state.config.game_deadline_ms;
            state.games.push_back(std::move(game));
        }
    }
    state.started = true;
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Withdrew& e) {
    const auto it = state.players.find(e.player);
    if (it == state.players.end()) {
        return rr_no_player(e.player);
    }
    it->second.withdrawn = true;
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Paired& e) {
    RoundRobinGame* game = rr_game(state, e.game, RrState::waiting);
    if (!game) {
        return rr_no_game(e.game, "waiting");
    }
    const auto first = state.players.find(game->first);
    const auto second = state.players.find(game->second);
    if (first == state.players.end() || second == state.players.end() || first->second.game ||
        second->second.game) {
        return core::make_error("game " + std::to_string(e.game) + ": a player is busy");
    }
    game->state = RrState::in_progress;
    first->second.game = game->number;
    second->second.game = game->number;
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::GameStarted& e) {
    RoundRobinGame* game = rr_game(state, e.game, RrState::in_progress);
    if (!game) {
        return rr_no_game(e.game, "in progress");
    }
    game->game_id = e.game_id;
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::GameFinished& e) {
    RoundRobinGame* game = rr_game(state, e.game, RrState::in_progress);
    if (!game) {
        return rr_no_game(e.game, "in progress");
    }
    game->state = RrState::finished;
    game->winner = e.winner;
    rr_free_players(state, *game);
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::GameCancelled& e) {
    RoundRobinGame* game = rr_game(state, e.game, RrState::in_progress);
    if (!game) {
        return rr_no_game(e.game, "in progress");
    }
    game->state = RrState::waiting;
    game->game_id.reset();
    rr_free_players(state, *game);
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Forfeited& e) {
    RoundRobinGame* game = rr_game(state, e.game, RrState::waiting);
    if (!game) {
        return rr_no_game(e.game, "waiting");
    }
    game->state = RrState::forfeit;
    game->winner = e.winner;
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Unplayed& e) {
    RoundRobinGame* game = rr_game(state, e.game, RrState::waiting);
    if (!game) {
        return rr_no_game(e.game, "waiting");
    }
    game->state = RrState::unplayed;
    return core::ok_status();
}

core::Status rr_apply(RoundRobinState& state, const rr_ev::Finished& e) {
    if (!e.cancelled) {
        for (const auto& game : state.games) {
            if (!game_resolved(game)) {
                return core::make_error("game " + std::to_string(game.number) + " is not over yet");
            }
        }
    } else if (state.started) {
        return core::make_error("a round robin that started is not cancelled");
    }
    state.finished = true;
    state.cancelled = e.cancelled;
    return core::ok_status();
}

}  // namespace

core::Status apply(RoundRobinState& state, const RoundRobinEvent& event) {
    if (state.finished) {
        return core::make_error("the round robin is over");
    }
    return std::visit([&](const auto& e) { return rr_apply(state, e); }, event);
}

}  // namespace server::tournament
