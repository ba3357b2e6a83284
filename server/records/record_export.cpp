#include "server/records/record_export.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <sstream>

#include "core/game.h"
#include "server/bots/bot_identity.h"
#include "server/records/record_export_detail.h"

namespace server {

namespace record_detail {

using nlohmann::json;

core::Record common_record(const GameRecord& game, std::string_view site, const char* event) {
    std::string date = "????.??.??";
    if (game.created_at > 0) {
        const auto t = static_cast<std::time_t>(game.created_at);
        std::tm tm{};
        gmtime_r(&t, &tm);
        char text[32];
        std::snprintf(text, sizeof text, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                      tm.tm_mday);
        date = text;
    }
    core::Record r;
    r.tags = {{"Event", event}, {"Site", std::string(site)}, {"Date", date}};
    return r;
}

std::string result_token(std::string_view winner_side, bool decided) {
    if (!decided) {
        return "*";
    }
    if (winner_side.empty()) {
        return "1/2-1/2";
    }
    if (winner_side == "white" || winner_side == "odd") {
        return "1-0";
    }
    if (winner_side == "black" || winner_side == "even") {
        return "0-1";
    }
    return "*";
}

void number_from_fen(core::Record& record, const std::string& variant, const std::string& fen) {
    std::istringstream in(fen);
    std::vector<std::string> fields;
    for (std::string field; in >> field;) {
        fields.push_back(field);
    }
    const auto number = [](const std::string& text) {
        int value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        return ec == std::errc() && end == text.data() + text.size() && value >= 1 ? value : 0;
    };
    if (variant == "sniderman" && fields.size() >= 2 && number(fields.back()) > 0) {
        const int ply = number(fields.back());
        record.first_move_number = (ply + 1) / 2;
        record.second_moves_first = ply % 2 == 0;
    } else if (variant != "sniderman" && fields.size() >= 4 && number(fields.back()) > 0) {
        record.first_move_number = number(fields.back());
        record.second_moves_first = fields[1] == "b";
    }
}

std::string time_control_tag(const GameRecord& game) {
    return game.time_control.empty() ? "-" : game.time_control;
}

std::optional<std::int64_t> mover_clock(const protocol::events::Move& move, bool sniderman) {
    if (!move.clock) {
        return std::nullopt;
    }
    const auto& seat = sniderman ? move.player.value_or("") : move.by;
    if (seat == "white" || seat == "player0") {
        return move.clock->left[0];
    }
    if (seat == "black" || seat == "player1") {
        return move.clock->left[1];
    }
    return std::nullopt;
}

std::string name_of(const std::vector<std::string>& names, std::size_t seat) {
    return seat < names.size() && !names[seat].empty() ? names[seat] : "?";
}

}  // namespace record_detail

namespace {

using nlohmann::json;
using namespace record_detail;

// Whether `fen` is other than the variant's start position (asked of the rules; when they cannot
// tell, any non-empty string counts as a setup).
bool is_setup(const std::string& variant_name, const std::string& rules, const std::string& fen) {
    if (fen.empty()) {
        return false;
    }
    const auto variant = core::parse_variant(variant_name);
    if (!variant) {
        return true;
    }
    core::GameOptions options;
    options.rules = core::parse_rule_set(rules).value_or(core::RuleSet::house);
    auto standard = core::make_game(*variant, options);
    options.fen = fen;
    auto given = core::make_game(*variant, options);
    return !standard || !given || (*standard)->start_fen() != (*given)->start_fen();
}

std::vector<protocol::events::RoomEvent> decoded_events(const std::vector<StoredEvent>& events) {
    std::vector<protocol::events::RoomEvent> out;
    out.reserve(events.size());
    for (const auto& e : events) {
        if (auto event = protocol::events::decode_event_text(e.json)) {
            out.push_back(std::move(*event));
        }
    }
    return out;
}

// The record of a Chessence or Chesica game: its moves, and the result the game record holds (or
// failing that, its game_over event).
core::Record two_colour_record(const GameRecord& game, const std::vector<std::string>& names,
                               const std::vector<protocol::events::RoomEvent>& room_events,
                               std::string_view site) {
    namespace events = protocol::events;
    core::Record r = common_record(game, site, "Casual game");
    r.tags.push_back({"Variant", game.variant});
    r.tags.push_back({"White", name_of(names, 0)});
    r.tags.push_back({"Black", name_of(names, 1)});
    // Issue 25: PGN's WhiteType / BlackType say which side the computer played.
    for (std::size_t seat = 0; seat < game.seats.size() && seat < 2; ++seat) {
        if (bot_level(game.seats[seat])) {
            r.tags.push_back({seat == 0 ? "WhiteType" : "BlackType", "program"});
        }
    }
    std::optional<events::Result> result;
    if (!game.result_json.empty()) {
        if (auto stored = events::result_from_json(json::parse(game.result_json, nullptr, false))) {
            result = *stored;
        }
    }
    bool clocked = false;
    for (const auto& e : room_events) {
        if (const auto* move = std::get_if<events::Move>(&e)) {
            r.moves.push_back(move->move);
            r.clocks.push_back(mover_clock(*move, false));
            clocked = clocked || r.clocks.back().has_value();
        } else if (const auto* takeback = std::get_if<events::Takeback>(&e)) {
            // The record holds the game as it stands: moves taken back are not in it.
            const auto undone = std::min<std::size_t>(
                r.moves.size(), static_cast<std::size_t>(std::max(0, takeback->plies)));
            r.moves.resize(r.moves.size() - undone);
            r.clocks.resize(r.moves.size());
        } else if (const auto* over = std::get_if<events::GameOver>(&e); over && !result) {
            result = over->result;
        }
    }
    r.result = result_token(result ? result->winner.value_or("") : "", result.has_value());
    r.tags.push_back({"Result", r.result});
    if (!clocked) {
        r.clocks.clear();
    }
    r.tags.push_back({"RuleSet", game.rules});
    r.tags.push_back({"TimeControl", time_control_tag(game)});
    if (is_setup(game.variant, game.rules, game.start_fen)) {
        r.tags.push_back({"FEN", game.start_fen});
    }
    r.tags.push_back({"GameId", game.id});
    if (result && !result->reason.empty()) {
        r.tags.push_back({"Termination", result->reason});
    }
    if (!r.moves.empty()) {
        number_from_fen(r, game.variant, game.start_fen);
    }
    return r;
}

}  // namespace

std::vector<core::Record> game_records(const GameRecord& game,
                                       const std::vector<std::string>& names,
                                       const std::vector<StoredEvent>& events,
                                       std::string_view site) {
    const auto parsed = decoded_events(events);
    if (game.variant == "sniderman") {
        return sniderman_records(game, names, parsed, site);
    }
    return {two_colour_record(game, names, parsed, site)};
}

core::Expected<std::optional<std::string>> export_game_pgn(Store& store, std::string_view game_id,
                                                           std::string_view site) {
    const auto game = store.game(game_id);
    if (!game) {
        return core::make_error(game.error());
    }
    if (!*game) {
        return std::nullopt;
    }
    std::vector<std::string> names;
    for (const auto& id : (*game)->seats) {
        const auto player = store.player(id);
        if (!player) {
            return core::make_error(player.error());
        }
        names.push_back(*player ? (*player)->name : "");
    }
    const auto events = store.events(game_id);
    if (!events) {
        return core::make_error(events.error());
    }
    return core::write_records(game_records(**game, names, *events, site));
}

}  // namespace server
