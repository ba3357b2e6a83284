// MemoryStore's tournaments (tournament_records.h): the writes, with the checks the SQL stores'
// schema makes (kind, status and variant among the known ones; gapless event versions), and the
// reads in the SQL stores' orders.
#include <algorithm>
#include <array>
#include <string_view>

#include "server/store/memory_store.h"

namespace server {

namespace {

constexpr std::array<std::string_view, 3> kinds = {"arena", "swiss", "roundrobin"};
constexpr std::array<std::string_view, 3> statuses = {"created", "started", "finished"};
constexpr std::array<std::string_view, 3> variants = {"chessence", "chesica", "sniderman"};

bool one_of(const auto& known, std::string_view value) {
    return std::find(known.begin(), known.end(), value) != known.end();
}

}  // namespace

core::Status MemoryStore::apply_tournament(const CreateTournament& w, Undo& undo) {
    const auto& t = w.tournament;
    if (tournaments_.count(t.id)) {
        return core::make_error("create_tournament: tournament " + t.id + " already exists");
    }
    if (!one_of(kinds, t.kind) || !one_of(statuses, t.status) || !one_of(variants, t.variant)) {
        return core::make_error("create_tournament: tournament " + t.id + " has kind '" + t.kind +
                                "', status '" + t.status + "', variant '" + t.variant +
                                "': not all known");
    }
    tournaments_[t.id] = StoredTournament{t, {}, next_order_++};
    undo.push_back([this, id = t.id] { tournaments_.erase(id); });
    return core::ok_status();
}

core::Status MemoryStore::apply_tournament(const AppendTournamentEvents& w, Undo& undo) {
    if (w.events.empty()) {
        return core::ok_status();
    }
    auto it = tournaments_.find(w.tournament_id);
    if (it == tournaments_.end()) {
        return core::make_error("append_tournament_events: no such tournament " + w.tournament_id);
    }
    auto& events = it->second.events;
    const std::int64_t last = events.empty() ? 0 : events.back().version;
    if (w.first_version != last + 1) {
        return core::make_error("append_tournament_events: version " +
                                std::to_string(w.first_version) + " of tournament " +
                                w.tournament_id + " is not the last stored version (" +
                                std::to_string(last) + ") + 1");
    }
    undo.push_back([&events, size = events.size()] { events.resize(size); });
    for (std::size_t i = 0; i < w.events.size(); ++i) {
        events.push_back({w.first_version + static_cast<std::int64_t>(i), w.events[i]});
    }
    return core::ok_status();
}

core::Status MemoryStore::apply_tournament(const SetTournamentStatus& w, Undo& undo) {
    auto it = tournaments_.find(w.tournament_id);
    if (it == tournaments_.end()) {
        return core::make_error("set_tournament_status: no such tournament " + w.tournament_id);
    }
    if (!one_of(statuses, w.status)) {
        return core::make_error("set_tournament_status: unknown status '" + w.status + "'");
    }
    auto& record = it->second.record;
    undo.push_back([&record, old = record] { record = old; });
    record.status = w.status;
    record.players = w.players;
    if (!w.winner_json.empty()) {
        record.winner_json = w.winner_json;
    }
    return core::ok_status();
}

template <class Keep, class Before>
std::vector<TournamentRecord> MemoryStore::tournaments_where(Keep&& keep, Before&& before) const {
    std::vector<const StoredTournament*> kept;
    for (const auto& [id, stored] : tournaments_) {
        if (keep(stored.record)) {
            kept.push_back(&stored);
        }
    }
    std::sort(kept.begin(), kept.end(), [&](const StoredTournament* a, const StoredTournament* b) {
        if (before(a->record, b->record) || before(b->record, a->record)) {
            return before(a->record, b->record);
        }
        return std::pair(a->record.created_at, a->order) <
               std::pair(b->record.created_at, b->order);
    });
    std::vector<TournamentRecord> out;
    for (const auto* stored : kept) {
        out.push_back(stored->record);
    }
    return out;
}

core::Expected<std::optional<TournamentRecord>> MemoryStore::tournament(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = tournaments_.find(id);
    if (it == tournaments_.end()) {
        return std::nullopt;
    }
    return it->second.record;
}

core::Expected<std::vector<TournamentRecord>> MemoryStore::tournaments(const TournamentQuery& q) {
    std::lock_guard lock(mutex_);
    const auto keep = [&](const TournamentRecord& t) {
        return t.status == q.status && (q.kind.empty() || t.kind == q.kind);
    };
    const auto before = [&](const TournamentRecord& a, const TournamentRecord& b) {
        if (q.status == "finished") {
            return a.ends_at > b.ends_at;
        }
        return q.status == "started" ? a.ends_at < b.ends_at : a.starts_at < b.starts_at;
    };
    auto found = tournaments_where(keep, before);
    found.resize(std::min(found.size(), static_cast<std::size_t>(std::max(q.limit, 0))));
    return found;
}

core::Expected<std::vector<TournamentRecord>> MemoryStore::unfinished_tournaments() {
    std::lock_guard lock(mutex_);
    return tournaments_where(
        [](const TournamentRecord& t) { return t.status != "finished"; },
        [](const TournamentRecord&, const TournamentRecord&) { return false; });
}

core::Expected<std::vector<StoredTournamentEvent>> MemoryStore::tournament_events(
    std::string_view id, std::int64_t after_version) {
    std::lock_guard lock(mutex_);
    std::vector<StoredTournamentEvent> found;
    auto it = tournaments_.find(id);
    if (it == tournaments_.end()) {
        return found;
    }
    for (const auto& event : it->second.events) {
        if (event.version > after_version) {
            found.push_back(event);
        }
    }
    return found;
}

core::Expected<int> MemoryStore::tournaments_created_since(std::string_view player_id,
                                                           std::int64_t since_ms) {
    std::lock_guard lock(mutex_);
    return static_cast<int>(
        std::count_if(tournaments_.begin(), tournaments_.end(), [&](const auto& entry) {
            const auto& t = entry.second.record;
            return t.created_by == player_id && t.created_at >= since_ms;
        }));
}

core::Expected<std::vector<GameRecord>> MemoryStore::tournament_games(
    std::string_view tournament_id) {
    std::lock_guard lock(mutex_);
    std::vector<const StoredGame*> found;
    for (const auto& [id, game] : games_) {
        if (!tournament_id.empty() && game.record.tournament_id == tournament_id) {
            found.push_back(&game);
        }
    }
    std::sort(found.begin(), found.end(), [](const StoredGame* a, const StoredGame* b) {
        return std::pair(a->record.created_at, a->order) <
               std::pair(b->record.created_at, b->order);
    });
    std::vector<GameRecord> games;
    for (const auto* game : found) {
        games.push_back(game->record);
    }
    return games;
}

}  // namespace server
