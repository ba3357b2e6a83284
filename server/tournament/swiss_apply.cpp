// The Swiss machine's reducer (swiss.h): each event changes the state, or is refused whole.
#include "server/tournament/swiss.h"

#include <algorithm>
#include <set>

namespace server::tournament {

namespace {

template <class... F>
struct SwissOverloaded : F... {
    using F::operator()...;
};
template <class... F>
SwissOverloaded(F...) -> SwissOverloaded<F...>;

core::Error swiss_no_player(const std::string& id) {
    return core::make_error("no player `" + id + "` in the Swiss");
}

core::Error swiss_no_game(int number) {
    return core::make_error("no game " + std::to_string(number) + " in progress");
}

// After a round's last game: the next round is due after the interval, unless that was the last.
void swiss_round_ended(SwissState& state, SwissTime at) {
    if (state.round < state.config.rounds) {
        state.next_round_at = at + state.config.round_interval_ms;
    } else {
        state.next_round_at.reset();
    }
}

// The round record of `id` for `game`, if it is in progress.
SwissRound* swiss_game_round(SwissState& state, const std::string& id, const SwissGame& game) {
    const auto it = state.players.find(id);
    if (it == state.players.end() || game.round < 1 ||
        it->second.rounds.size() < static_cast<std::size_t>(game.round)) {
        return nullptr;
    }
    SwissRound& round = it->second.rounds[static_cast<std::size_t>(game.round) - 1];
    return round.game == game.number ? &round : nullptr;
}

core::Status apply_round_paired(SwissState& state, const swiss_event::RoundPaired& paired) {
    if (paired.round != state.round + 1 || paired.round > state.config.rounds) {
        return core::make_error("round " + std::to_string(paired.round) + " does not come next");
    }
    if (!state.games.empty()) {
        return core::make_error("a round paired while games of the last one run");
    }
    std::set<std::string> taken;
    const auto take = [&](const std::string& id) {
        const auto it = state.players.find(id);
        return it != state.players.end() && it->second.status == SwissStatus::active &&
               taken.insert(id).second;
    };
    for (const auto& game : paired.games) {
        if (!take(game.first) || !take(game.second) || game.game < state.next_game) {
            return core::make_error("a pairing of players not free to play");
        }
    }
    if (paired.bye && !take(*paired.bye)) {
        return core::make_error("a bye to a player not free to take it");
    }
    for (auto& [id, player] : state.players) {
        player.rounds.push_back(SwissRound{});
    }
    for (const auto& game : paired.games) {
        const auto seat = [&](const std::string& id, const std::string& other, core::Side side) {
            SwissRound& round = state.players.at(id).rounds.back();
            round.kind = SwissRoundKind::played;
            round.opponent = other;
            round.side = side;
            round.game = game.game;
        };
        seat(game.first, game.second, core::Side::first);
        seat(game.second, game.first, core::Side::second);
        state.games.emplace(game.game,
                            SwissGame{game.game, paired.round, game.first, game.second, {}});
        state.next_game = std::max(state.next_game, game.game + 1);
    }
    if (paired.bye) {
        SwissRound& round = state.players.at(*paired.bye).rounds.back();
        round.kind = SwissRoundKind::bye;
        round.half_points = 2;
    }
    state.round = paired.round;
    state.next_round_at.reset();
    if (state.games.empty()) {
        swiss_round_ended(state, paired.at);
    }
    return core::ok_status();
}

core::Status apply_swiss_game_end(SwissState& state, int number, SwissTime at,
                                  const swiss_event::GameFinished* done) {
    const auto it = state.games.find(number);
    if (it == state.games.end()) {
        return swiss_no_game(number);
    }
    const SwissGame game = it->second;
    SwissRound* first = swiss_game_round(state, game.first, game);
    SwissRound* second = swiss_game_round(state, game.second, game);
    if (!first || !second) {
        return core::make_error("game " + std::to_string(number) + " is on nobody's sheet");
    }
    for (SwissRound* round : {first, second}) {
        round->game.reset();
        if (!done) {  // cancelled: nobody played
            round->kind = SwissRoundKind::absent;
            round->opponent.reset();
            round->half_points = 0;
            continue;
        }
        const core::Side side = round == first ? core::Side::first : core::Side::second;
        round->kind = done->forfeit ? SwissRoundKind::forfeit : SwissRoundKind::played;
        round->half_points = !done->winner ? 1 : *done->winner == side ? 2 : 0;
    }
    state.games.erase(number);
    if (state.games.empty()) {
        swiss_round_ended(state, at);
    }
    return core::ok_status();
}

}  // namespace

core::Status apply(SwissState& state, const SwissEvent& event) {
    if (state.finished) {
        return core::make_error("the Swiss is over");
    }
    return std::visit(
        SwissOverloaded{
            [&](const swiss_event::Joined& e) -> core::Status {
                if (state.players.count(e.player)) {
                    return core::make_error("`" + e.player + "` joined already");
                }
                SwissPlayer player;
                player.id = e.player;
                player.rating = e.rating;
                player.bot = e.bot;
                player.joined = state.next_joined++;
                player.rounds.resize(static_cast<std::size_t>(state.round));  // absent
                state.players.emplace(e.player, std::move(player));
                return core::ok_status();
            },
            [&](const swiss_event::Left& e) -> core::Status {
                if (!state.players.count(e.player) || state.round != 0) {
                    return swiss_no_player(e.player);
                }
                state.players.erase(e.player);
                return core::ok_status();
            },
            [&](const swiss_event::Withdrew& e) -> core::Status {
                const auto it = state.players.find(e.player);
                if (it == state.players.end()) {
                    return swiss_no_player(e.player);
                }
                it->second.status = SwissStatus::withdrawn;
                return core::ok_status();
            },
            [&](const swiss_event::RoundPaired& e) { return apply_round_paired(state, e); },
            [&](const swiss_event::GameStarted& e) -> core::Status {
                const auto it = state.games.find(e.game);
                if (it == state.games.end()) {
                    return swiss_no_game(e.game);
                }
                it->second.game_id = e.game_id;
                return core::ok_status();
            },
            [&](const swiss_event::GameFinished& e) {
                return apply_swiss_game_end(state, e.game, e.at, &e);
            },
            [&](const swiss_event::GameCancelled& e) {
                return apply_swiss_game_end(state, e.game, e.at, nullptr);
            },
            [&](const swiss_event::Finished&) -> core::Status {
                state.finished = true;
                state.next_round_at.reset();
                return core::ok_status();
            },
        },
        event);
}

}  // namespace server::tournament
