// The arena machine's reducer (arena.h): each event changes the state, or is refused whole.
#include "server/tournament/arena.h"

#include "server/limits.h"

namespace server::tournament {

namespace {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

core::Error no_player(const std::string& id) {
    return core::make_error("no player `" + id + "` in the arena");
}

core::Error no_game(int number) {
    return core::make_error("no game " + std::to_string(number) + " in progress");
}

// Frees both players of `game` and forgets it.
void end_game(ArenaState& state, const ArenaGame& game) {
    for (const auto* id : {&game.first, &game.second}) {
        const auto it = state.players.find(*id);
        if (it != state.players.end() && it->second.game == game.number) {
            it->second.game.reset();
        }
    }
    state.games.erase(game.number);
}

core::Status apply_paired(ArenaState& state, const arena_event::Paired& paired) {
    const auto first = state.players.find(paired.first);
    const auto second = state.players.find(paired.second);
    if (first == state.players.end() || second == state.players.end() ||
        paired.first == paired.second) {
        return core::make_error("a pairing of players not in the arena");
    }
    if (first->second.game || second->second.game || state.games.count(paired.game)) {
        return core::make_error("a pairing of players already in a game");
    }
    ArenaGame game;
    game.number = paired.game;
    game.first = paired.first;
    game.second = paired.second;
    game.first_rating = first->second.rating;
    game.second_rating = second->second.rating;
    game.paired_at = paired.at;
    state.games.emplace(game.number, game);
    state.next_game = std::max(state.next_game, paired.game + 1);
    first->second.game = paired.game;
    first->second.sides.push_back(core::Side::first);
    first->second.last_opponent = paired.second;
    second->second.game = paired.game;
    second->second.sides.push_back(core::Side::second);
    second->second.last_opponent = paired.first;
    return core::ok_status();
}

core::Status apply_finished_game(ArenaState& state, const arena_event::GameFinished& done) {
    const auto it = state.games.find(done.game);
    if (it == state.games.end()) {
        return no_game(done.game);
    }
    const ArenaGame game = it->second;
    const auto outcome = [&](core::Side side) {
        if (!done.winner) {
            return Outcome::draw;
        }
        return *done.winner == side ? Outcome::win : Outcome::loss;
    };
    const auto first = state.players.find(game.first);
    const auto second = state.players.find(game.second);
    if (first != state.players.end()) {
        first->second.sheet.push_back(SheetGame{outcome(core::Side::first), done.plies,
                                                done.first_berserk, game.second_rating});
    }
    if (second != state.players.end()) {
        second->second.sheet.push_back(SheetGame{outcome(core::Side::second), done.plies,
                                                 done.second_berserk, game.first_rating});
    }
    end_game(state, game);
    return core::ok_status();
}

}  // namespace

core::Status apply(ArenaState& state, const ArenaEvent& event) {
    if (state.finished) {
        return core::make_error("the arena is over");
    }
    return std::visit(
        Overloaded{
            [&](const arena_event::Joined& e) -> core::Status {
                if (state.players.count(e.player)) {
                    return core::make_error("`" + e.player + "` joined already");
                }
                ArenaPlayer player;
                player.id = e.player;
                player.rating = e.rating;
                player.joined = state.next_joined++;
                state.players.emplace(e.player, std::move(player));
                return core::ok_status();
            },
            [&](const arena_event::Rejoined& e) -> core::Status {
                const auto it = state.players.find(e.player);
                if (it == state.players.end()) {
                    return no_player(e.player);
                }
                it->second.status = PlayerStatus::active;
                it->second.rating = e.rating;
                return core::ok_status();
            },
            [&](const arena_event::Left& e) -> core::Status {
                const auto it = state.players.find(e.player);
                if (it == state.players.end()) {
                    return no_player(e.player);
                }
                if (it->second.game) {
                    return core::make_error("`" + e.player + "` is in a game");
                }
                state.players.erase(it);
                return core::ok_status();
            },
            [&](const arena_event::Withdrew& e) -> core::Status {
                const auto it = state.players.find(e.player);
                if (it == state.players.end()) {
                    return no_player(e.player);
                }
                it->second.status = PlayerStatus::withdrawn;
                return core::ok_status();
            },
            [&](const arena_event::Paused& e) -> core::Status {
                const auto it = state.players.find(e.player);
                if (it == state.players.end()) {
                    return no_player(e.player);
                }
                it->second.status = PlayerStatus::paused;
                if (e.counted) {
                    it->second.pause = after_pause(it->second.pause, e.at);
                }
                return core::ok_status();
            },
            [&](const arena_event::CameBack& e) -> core::Status {
                const auto it = state.players.find(e.player);
                if (it == state.players.end()) {
                    return no_player(e.player);
                }
                it->second.status = PlayerStatus::active;
                return core::ok_status();
            },
            [&](const arena_event::Berserked& e) -> core::Status {
                const auto it = state.games.find(e.game);
                if (it == state.games.end()) {
                    return no_game(e.game);
                }
                (e.side == core::Side::first ? it->second.first_berserk
                                             : it->second.second_berserk) = true;
                return core::ok_status();
            },
            [&](const arena_event::Paired& e) { return apply_paired(state, e); },
            [&](const arena_event::GameStarted& e) -> core::Status {
                const auto it = state.games.find(e.game);
                if (it == state.games.end()) {
                    return no_game(e.game);
                }
                it->second.game_id = e.game_id;
                return core::ok_status();
            },
            [&](const arena_event::GameFinished& e) { return apply_finished_game(state, e); },
            [&](const arena_event::GameCancelled& e) -> core::Status {
                const auto it = state.games.find(e.game);
                if (it == state.games.end()) {
                    return no_game(e.game);
                }
                end_game(state, it->second);
                return core::ok_status();
            },
            [&](const arena_event::Said& e) -> core::Status {
                state.chat.push_back(ArenaChatLine{e.player, e.name, e.text, e.at});
                while (state.chat.size() > chat_lines_kept) {
                    state.chat.pop_front();
                }
                return core::ok_status();
            },
            [&](const arena_event::Finished&) -> core::Status {
                for (auto& [id, player] : state.players) {
                    player.game.reset();
                }
                state.games.clear();
                state.finished = true;
                return core::ok_status();
            },
        },
        event);
}

}  // namespace server::tournament
