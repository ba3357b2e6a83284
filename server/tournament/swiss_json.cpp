#include "server/tournament/swiss_json.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/variant.h"
#include "protocol/json_reader.h"
#include "protocol/time_control.h"

namespace server::tournament {

namespace {

using nlohmann::json;
namespace sev = swiss_event;

template <class T>
constexpr std::string_view swiss_kind_of();
template <>
constexpr std::string_view swiss_kind_of<sev::Joined>() {
    return "joined";
}
template <>
constexpr std::string_view swiss_kind_of<sev::Left>() {
    return "left";
}
template <>
constexpr std::string_view swiss_kind_of<sev::Withdrew>() {
    return "withdrew";
}
template <>
constexpr std::string_view swiss_kind_of<sev::RoundPaired>() {
    return "round_paired";
}
template <>
constexpr std::string_view swiss_kind_of<sev::GameStarted>() {
    return "game_started";
}
template <>
constexpr std::string_view swiss_kind_of<sev::GameFinished>() {
    return "game_finished";
}
template <>
constexpr std::string_view swiss_kind_of<sev::GameCancelled>() {
    return "game_cancelled";
}
template <>
constexpr std::string_view swiss_kind_of<sev::Finished>() {
    return "finished";
}

const char* swiss_side_name(core::Side side) {
    return side == core::Side::first ? "first" : "second";
}

json swiss_fields(const sev::Joined& e) {
    return {{"player", e.player}, {"rating", e.rating}, {"bot", e.bot}};
}
json swiss_fields(const sev::Left& e) {
    return {{"player", e.player}};
}
json swiss_fields(const sev::Withdrew& e) {
    return {{"player", e.player}};
}
json swiss_fields(const sev::RoundPaired& e) {
    json games = json::array();
    for (const auto& game : e.games) {
        games.push_back({{"game", game.game}, {"first", game.first}, {"second", game.second}});
    }
    return {{"round", e.round},
            {"games", std::move(games)},
            {"bye", e.bye ? json(*e.bye) : json(nullptr)},
            {"at", e.at}};
}
json swiss_fields(const sev::GameStarted& e) {
    return {{"game", e.game}, {"game_id", e.game_id}};
}
json swiss_fields(const sev::GameFinished& e) {
    return {{"game", e.game},
            {"winner", e.winner ? json(swiss_side_name(*e.winner)) : json(nullptr)},
            {"forfeit", e.forfeit},
            {"at", e.at}};
}
json swiss_fields(const sev::GameCancelled& e) {
    return {{"game", e.game}, {"at", e.at}};
}
json swiss_fields(const sev::Finished& e) {
    return {{"at", e.at}, {"early", e.early}};
}

// Reads the fields of a stored object (protocol/json_reader.h), with a Swiss's kinds of field.
class SwissFieldReader : public protocol::FieldReader {
public:
    using FieldReader::FieldReader;

    int integer(const char* key) {
        const auto n = whole(key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
        return static_cast<int>(n.value_or(0));
    }

    std::int64_t milliseconds(const char* key) {
        const auto n = whole(key, std::numeric_limits<std::int64_t>::min(),
                             std::numeric_limits<std::int64_t>::max(), "whole milliseconds");
        return n.value_or(0);
    }

    // Present, and a side or null.
    std::optional<core::Side> nullable_side(const char* key) {
        const json* value = find(key);
        if (value && value->is_null()) {
            return std::nullopt;
        }
        if (value && value->is_string()) {
            const auto name = value->get<std::string>();
            if (name == "first" || name == "second") {
                return name == "first" ? core::Side::first : core::Side::second;
            }
        }
        fail(key, "\"first\", \"second\" or null");
        return std::nullopt;
    }

    // Present, and a string or null.
    std::optional<std::string> nullable_string(const char* key) {
        const json* value = find(key);
        if (value && value->is_null()) {
            return std::nullopt;
        }
        if (value && value->is_string()) {
            return value->get<std::string>();
        }
        fail(key, "a string or null");
        return std::nullopt;
    }

    // Present, and an array of objects.
    const json* objects(const char* key) {
        const json* value = find(key);
        if (value && value->is_array()) {
            bool all = true;
            for (const auto& item : *value) {
                all = all && item.is_object();
            }
            if (all) {
                return value;
            }
        }
        fail(key, "an array of objects");
        return nullptr;
    }
};

sev::RoundPaired read_round_paired(SwissFieldReader& r) {
    sev::RoundPaired e;
    e.round = r.integer("round");
    if (const json* games = r.objects("games")) {
        for (const auto& item : *games) {
            SwissFieldReader g(item);
            sev::SwissPairedGame game;
            game.game = g.integer("game");
            game.first = g.string("first");
            game.second = g.string("second");
            if (g.error()) {
                r.fail_with("`games`: " + *g.error());
            }
            e.games.push_back(std::move(game));
        }
    }
    e.bye = r.nullable_string("bye");
    e.at = r.milliseconds("at");
    return e;
}

// The event of `kind` read from `r`; nothing for a kind a Swiss does not know.
std::optional<SwissEvent> read_swiss_event(const std::string& kind, SwissFieldReader& r) {
    if (kind == "joined") {
        sev::Joined e;
        e.player = r.string("player");
        e.rating = r.integer("rating");
        e.bot = r.boolean("bot");
        return e;
    }
    if (kind == "left") {
        return sev::Left{r.string("player")};
    }
    if (kind == "withdrew") {
        return sev::Withdrew{r.string("player")};
    }
    if (kind == "round_paired") {
        return read_round_paired(r);
    }
    if (kind == "game_started") {
        sev::GameStarted e;
        e.game = r.integer("game");
        e.game_id = r.string("game_id");
        return e;
    }
    if (kind == "game_finished") {
        sev::GameFinished e;
        e.game = r.integer("game");
        e.winner = r.nullable_side("winner");
        e.forfeit = r.boolean("forfeit");
        e.at = r.milliseconds("at");
        return e;
    }
    if (kind == "game_cancelled") {
        sev::GameCancelled e;
        e.game = r.integer("game");
        e.at = r.milliseconds("at");
        return e;
    }
    if (kind == "finished") {
        sev::Finished e;
        e.at = r.milliseconds("at");
        e.early = r.boolean("early");
        return e;
    }
    return std::nullopt;
}

core::Expected<json> parse_swiss_object(std::string_view text, const char* what) {
    json object = json::parse(text, nullptr, false);
    if (object.is_discarded()) {
        return core::make_error(std::string(what) + " must be JSON");
    }
    if (!object.is_object()) {
        return core::make_error(std::string(what) + " must be a JSON object");
    }
    return object;
}

std::string swiss_text(const json& object) {
    return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string_view swiss_event_kind(const SwissEvent& event) {
    return std::visit([](const auto& e) { return swiss_kind_of<std::decay_t<decltype(e)>>(); },
                      event);
}

std::string encode_swiss_event(const SwissEvent& event) {
    json out = std::visit([](const auto& e) { return swiss_fields(e); }, event);
    out["kind"] = swiss_event_kind(event);
    return swiss_text(out);
}

core::Expected<SwissEvent> decode_swiss_event(std::string_view text) {
    auto object = parse_swiss_object(text, "a Swiss event");
    if (!object) {
        return core::make_error(object.error());
    }
    const auto kind_it = object->find("kind");
    if (kind_it == object->end() || !kind_it->is_string()) {
        return core::make_error("a Swiss event needs a `kind` string");
    }
    const auto kind = kind_it->get<std::string>();
    SwissFieldReader r(*object);
    auto event = read_swiss_event(kind, r);
    if (!event) {
        return core::make_error("unknown Swiss event kind `" + kind + "`");
    }
    if (r.error()) {
        return core::make_error(kind + " event: " + *r.error());
    }
    return std::move(*event);
}

std::string encode_swiss_config(const SwissConfig& config) {
    const json out = {{"starts_at", config.starts_at},
                      {"rounds", config.rounds},
                      {"round_interval_ms", config.round_interval_ms},
                      {"clock", protocol::time_control_json(config.clock)},
                      {"variant", core::variant_name(config.variant)},
                      {"rules", core::rule_set_name(config.rules)},
                      {"rated", config.rated},
                      {"bots_allowed", config.bots_allowed}};
    return swiss_text(out);
}

core::Expected<SwissConfig> decode_swiss_config(std::string_view text) {
    auto object = parse_swiss_object(text, "a Swiss's settings");
    if (!object) {
        return core::make_error(object.error());
    }
    SwissFieldReader r(*object);
    SwissConfig config;
    config.starts_at = r.milliseconds("starts_at");
    config.rounds = r.integer("rounds");
    config.round_interval_ms = r.milliseconds("round_interval_ms");
    if (const json* clock = r.present("clock")) {
        auto control = protocol::read_time_control(clock);
        if (const auto* error = std::get_if<protocol::ProtocolError>(&control)) {
            r.fail_with(error->message);
        } else {
            config.clock = std::get<protocol::TimeControl>(control);
        }
    }
    const std::string variant = r.string("variant");
    if (!r.error()) {
        if (auto id = core::parse_variant(variant)) {
            config.variant = *id;
        } else {
            r.fail_with("`variant` must be chessence, chesica or sniderman, not `" + variant + "`");
        }
    }
    const std::string rules = r.string("rules");
    if (!r.error()) {
        if (auto set = core::parse_rule_set(rules)) {
            config.rules = *set;
        } else {
            r.fail_with("`rules` must be house or strict");
        }
    }
    config.rated = r.boolean("rated");
    config.bots_allowed = r.boolean("bots_allowed");
    if (r.error()) {
        return core::make_error("Swiss settings: " + *r.error());
    }
    return config;
}

}  // namespace server::tournament
