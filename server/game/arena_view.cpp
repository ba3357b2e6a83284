#include "server/game/arena_view.h"

#include <algorithm>

#include "server/tournament/arena.h"
#include "server/tournament/arena_json.h"
#include "server/tournament/arena_scoring.h"
#include "server/tournament/arena_standings.h"

namespace server {

namespace {

const char* player_status_name(tournament::PlayerStatus status) {
    switch (status) {
        case tournament::PlayerStatus::active:
            return "active";
        case tournament::PlayerStatus::paused:
            return "paused";
        case tournament::PlayerStatus::withdrawn:
            break;
    }
    return "withdrawn";
}

// The points of each game of `player`'s sheet, newest first, one digit each.
std::string sheet_text(const tournament::ArenaPlayer& player, core::VariantId variant) {
    const auto score = tournament::score_sheet(player.sheet, variant);
    std::string text;
    text.reserve(score.games.size());
    for (auto it = score.games.rbegin(); it != score.games.rend(); ++it) {
        text.push_back(static_cast<char>('0' + std::min(it->points, 9)));
    }
    return text;
}

protocol::TournamentRow line_of(const ArenaView& view, const tournament::Standing& standing) {
    const auto& player = view.state.players.at(standing.id);
    protocol::TournamentRow row;
    row.player_id = standing.id;
    const auto name = view.names.find(standing.id);
    row.name = name == view.names.end() ? standing.id : name->second;
    row.rank = standing.rank;
    row.score = standing.points;
    row.rating = player.rating;
    row.performance = standing.performance;
    row.games = standing.games;
    row.fire = standing.on_fire;
    row.status = player_status_name(standing.status);
    row.sheet = sheet_text(player, view.state.config.variant);
    return row;
}

}  // namespace

std::string arena_status(const tournament::ArenaState& state, std::int64_t now) {
    if (state.finished) {
        return "finished";
    }
    return now >= state.config.starts_at ? "started" : "created";
}

protocol::TournamentInfo arena_info(const ArenaView& view, std::int64_t now) {
    const auto& config = view.state.config;
    protocol::TournamentInfo info;
    info.id = view.record.id;
    info.kind = view.record.kind;
    info.name = view.record.name;
    info.variant = config.variant;
    info.clock = config.clock;
    info.minutes = static_cast<int>(config.duration_ms / 60'000);
    info.rated = config.rated;
    info.berserkable = config.berserkable;
    info.is_private = !view.record.password_hash.empty();
    const auto creator = view.names.find(view.record.created_by);
    info.created_by = creator == view.names.end() ? "" : creator->second;
    info.status = arena_status(view.state, now);
    info.starts_at = config.starts_at;
    info.ends_at = config.ends_at();
    info.now = now;
    info.pairings_closed =
        view.state.finished || now >= config.ends_at() - tournament::pairing_stop_ms(config.clock);
    info.players = static_cast<int>(view.state.players.size());
    return info;
}

std::vector<protocol::TournamentRow> arena_rows(const ArenaView& view) {
    std::vector<protocol::TournamentRow> rows;
    const auto table = tournament::standings(view.state);
    rows.reserve(table.size());
    for (const auto& standing : table) {
        rows.push_back(line_of(view, standing));
    }
    return rows;
}

std::string arena_watch_message(const ArenaView& view, const std::string& player_id,
                                std::int64_t now, const nlohmann::json& request_id) {
    auto rows = arena_rows(view);
    std::optional<protocol::TournamentRow> me;
    for (const auto& row : rows) {
        if (row.player_id == player_id) {
            me = row;
        }
    }
    std::string my_game;
    if (const auto player = view.state.players.find(player_id);
        player != view.state.players.end() && player->second.game) {
        const auto game = view.state.games.find(*player->second.game);
        if (game != view.state.games.end() && game->second.game_id) {
            my_game = *game->second.game_id;
        }
    }
    rows.resize(std::min(rows.size(), arena_first_page));
    std::vector<protocol::TournamentChatLine> chat;
    chat.reserve(view.state.chat.size());
    for (const auto& line : view.state.chat) {
        chat.push_back(arena_chat_line(line));
    }
    return protocol::tournament_message(arena_info(view, now), rows, arena_duels(view),
                                        view.standings_version, me, my_game, chat, request_id);
}

protocol::TournamentChatLine arena_chat_line(const tournament::ArenaChatLine& line) {
    return {line.player, line.name, line.text, line.at};
}

std::vector<protocol::TournamentDuel> arena_duels(const ArenaView& view, std::size_t limit) {
    const auto rank_of = tournament::ranks(view.state);
    auto duelist = [&](const std::string& id, int rating) {
        const auto name = view.names.find(id);
        const auto rank = rank_of.find(id);
        return protocol::TournamentDuelist{id, name == view.names.end() ? id : name->second,
                                           rank == rank_of.end() ? 0 : rank->second, rating};
    };
    std::vector<protocol::TournamentDuel> duels;
    for (const auto& [number, game] : view.state.games) {
        if (game.game_id) {
            duels.push_back({*game.game_id, duelist(game.first, game.first_rating),
                             duelist(game.second, game.second_rating)});
        }
    }
    auto placed = [](const protocol::TournamentDuel& duel) {
        return std::pair{std::min(duel.first.rank, duel.second.rank),
                         std::max(duel.first.rank, duel.second.rank)};
    };
    std::sort(duels.begin(), duels.end(),
              [&](const auto& a, const auto& b) { return placed(a) < placed(b); });
    if (duels.size() > limit) {
        duels.resize(limit);
    }
    return duels;
}

core::Expected<ReplayedArena> replay_arena(const TournamentRecord& record,
                                           const std::vector<StoredTournamentEvent>& events) {
    auto config = tournament::decode_config(record.config_json);
    if (!config) {
        return core::make_error("tournament " + record.id + ": its settings: " + config.error());
    }
    ReplayedArena replayed{tournament::new_arena(*config), 0};
    for (const auto& stored : events) {
        if (stored.version != replayed.version + 1) {
            return core::make_error("tournament " + record.id + ": event " +
                                    std::to_string(stored.version) + " after " +
                                    std::to_string(replayed.version));
        }
        auto event = tournament::decode_event(stored.json);
        if (!event) {
            return core::make_error("tournament " + record.id + ": event " +
                                    std::to_string(stored.version) + ": " + event.error());
        }
        if (auto applied = tournament::apply(replayed.state, *event); !applied) {
            return core::make_error("tournament " + record.id + ": event " +
                                    std::to_string(stored.version) + ": " + applied.error());
        }
        replayed.version = stored.version;
    }
    return replayed;
}

}  // namespace server
