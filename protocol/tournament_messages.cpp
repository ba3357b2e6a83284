#include "protocol/tournament_messages.h"

#include "protocol/json_text.h"
#include "protocol/messages.h"

namespace protocol {

using nlohmann::json;

json tournament_info_json(const TournamentInfo& info) {
    json out = {{"id", info.id},
                {"kind", info.kind},
                {"name", info.name},
                {"variant", core::variant_name(info.variant)},
                {"clock", time_control_json(info.clock)},
                {"minutes", info.minutes},
                {"rated", info.rated},
                {"berserkable", info.berserkable},
                {"private", info.is_private},
                {"created_by", info.created_by},
                {"status", info.status},
                {"starts_at", info.starts_at},
                {"ends_at", info.ends_at},
                {"pairings_closed", info.pairings_closed},
                {"players", info.players}};
    if (info.status == "created") {
        out["seconds_to_start"] = std::max<std::int64_t>(0, (info.starts_at - info.now) / 1000);
    } else if (info.status == "started") {
        out["seconds_to_finish"] = std::max<std::int64_t>(0, (info.ends_at - info.now) / 1000);
    }
    return out;
}

json tournament_row_json(const TournamentRow& row) {
    return {{"player_id", row.player_id}, {"name", row.name},     {"rank", row.rank},
            {"score", row.score},         {"rating", row.rating}, {"performance", row.performance},
            {"games", row.games},         {"fire", row.fire},     {"status", row.status},
            {"sheet", row.sheet}};
}

json tournament_chat_line_json(const TournamentChatLine& line) {
    return {{"player_id", line.player_id},
            {"from", line.from},
            {"text", line.text},
            {"at", iso_utc(line.at)}};
}

namespace {

json tournament_rows_json(const std::vector<TournamentRow>& rows) {
    json out = json::array();
    for (const auto& row : rows) {
        out.push_back(tournament_row_json(row));
    }
    return out;
}

json duelist_json(const TournamentDuelist& duelist) {
    return {{"player_id", duelist.player_id},
            {"name", duelist.name},
            {"rank", duelist.rank},
            {"rating", duelist.rating}};
}

json tournament_duels_json(const std::vector<TournamentDuel>& duels) {
    json out = json::array();
    for (const auto& duel : duels) {
        out.push_back({{"game_id", duel.game_id},
                       {"first", duelist_json(duel.first)},
                       {"second", duelist_json(duel.second)}});
    }
    return out;
}

}  // namespace

std::string tournament_message(const TournamentInfo& info, const std::vector<TournamentRow>& page,
                               const std::vector<TournamentDuel>& duels, std::int64_t version,
                               const std::optional<TournamentRow>& me, std::string_view my_game,
                               const std::vector<TournamentChatLine>& chat, const json& id) {
    json lines = json::array();
    for (const auto& line : chat) {
        lines.push_back(tournament_chat_line_json(line));
    }
    json out = {{"type", "tournament"},
                {"tournament", tournament_info_json(info)},
                {"standings", tournament_rows_json(page)},
                {"duels", tournament_duels_json(duels)},
                {"version", version},
                {"chat", std::move(lines)}};
    if (!id.is_null()) {
        out["id"] = id;
    }
    if (me) {
        out["me"] = tournament_row_json(*me);
        if (!my_game.empty()) {
            out["me"]["game_id"] = my_game;
        }
    }
    return to_text(out);
}

std::string tournament_standings_message(std::string_view tournament_id, std::int64_t version,
                                         int players, std::string_view status,
                                         const std::vector<TournamentRow>& changed,
                                         const std::vector<TournamentDuel>& duels) {
    return to_text({{"type", "tournament_standings"},
                    {"tournament_id", tournament_id},
                    {"version", version},
                    {"players", players},
                    {"status", status},
                    {"changed", tournament_rows_json(changed)},
                    {"duels", tournament_duels_json(duels)}});
}

std::string tournament_paired_message(std::string_view tournament_id, std::string_view game_id,
                                      std::string_view you) {
    return to_text({{"type", "tournament_paired"},
                    {"tournament_id", tournament_id},
                    {"game_id", game_id},
                    {"you", you}});
}

std::string tournament_chat_message(std::string_view tournament_id,
                                    const TournamentChatLine& line) {
    return to_text({{"type", "tournament_chat"},
                    {"tournament_id", tournament_id},
                    {"line", tournament_chat_line_json(line)}});
}

std::string tournament_finished_message(std::string_view tournament_id,
                                        const std::vector<TournamentRow>& podium) {
    return to_text({{"type", "tournament_finished"},
                    {"tournament_id", tournament_id},
                    {"podium", tournament_rows_json(podium)}});
}

}  // namespace protocol
