#include "server/tournament/arena_json.h"

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
namespace ev = arena_event;

template <class T>
constexpr std::string_view arena_kind_of();
template <>
constexpr std::string_view arena_kind_of<ev::Joined>() {
    return "joined";
}
template <>
constexpr std::string_view arena_kind_of<ev::Rejoined>() {
    return "rejoined";
}
template <>
constexpr std::string_view arena_kind_of<ev::Left>() {
    return "left";
}
template <>
constexpr std::string_view arena_kind_of<ev::Withdrew>() {
    return "withdrew";
}
template <>
constexpr std::string_view arena_kind_of<ev::Paused>() {
    return "paused";
}
template <>
constexpr std::string_view arena_kind_of<ev::CameBack>() {
    return "came_back";
}
template <>
constexpr std::string_view arena_kind_of<ev::Berserked>() {
    return "berserked";
}
template <>
constexpr std::string_view arena_kind_of<ev::Paired>() {
    return "paired";
}
template <>
constexpr std::string_view arena_kind_of<ev::GameStarted>() {
    return "game_started";
}
template <>
constexpr std::string_view arena_kind_of<ev::GameFinished>() {
    return "game_finished";
}
template <>
constexpr std::string_view arena_kind_of<ev::GameCancelled>() {
    return "game_cancelled";
}
template <>
constexpr std::string_view arena_kind_of<ev::Finished>() {
    return "finished";
}
template <>
constexpr std::string_view arena_kind_of<ev::Said>() {
    return "said";
}

const char* arena_side_name(core::Side side) {
    return side == core::Side::first ? "first" : "second";
}

// The fields of one event, in its stored form (without `kind`).
json arena_fields(const ev::Joined& e) {
    return {{"player", e.player}, {"rating", e.rating}};
}
json arena_fields(const ev::Rejoined& e) {
    return {{"player", e.player}, {"rating", e.rating}};
}
json arena_fields(const ev::Left& e) {
    return {{"player", e.player}};
}
json arena_fields(const ev::Withdrew& e) {
    return {{"player", e.player}};
}
json arena_fields(const ev::Paused& e) {
    return {{"player", e.player}, {"counted", e.counted}, {"at", e.at}};
}
json arena_fields(const ev::CameBack& e) {
    return {{"player", e.player}};
}
json arena_fields(const ev::Berserked& e) {
    return {{"game", e.game}, {"side", arena_side_name(e.side)}};
}
json arena_fields(const ev::Paired& e) {
    return {{"game", e.game}, {"first", e.first}, {"second", e.second}, {"at", e.at}};
}
json arena_fields(const ev::GameStarted& e) {
    return {{"game", e.game}, {"game_id", e.game_id}};
}
json arena_fields(const ev::GameFinished& e) {
    return {{"game", e.game},
            {"winner", e.winner ? json(arena_side_name(*e.winner)) : json(nullptr)},
            {"plies", e.plies},
            {"first_berserk", e.first_berserk},
            {"second_berserk", e.second_berserk}};
}
json arena_fields(const ev::GameCancelled& e) {
    return {{"game", e.game}};
}
json arena_fields(const ev::Finished& e) {
    return {{"at", e.at}};
}
json arena_fields(const ev::Said& e) {
    return {{"player", e.player}, {"name", e.name}, {"text", e.text}, {"at", e.at}};
}

// Reads the fields of a stored object (protocol/json_reader.h), with an arena's kinds of field.
class ArenaFieldReader : public protocol::FieldReader {
public:
    using FieldReader::FieldReader;

    int integer(const char* key) {
        const auto n = whole(key, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
        return static_cast<int>(n.value_or(0));
    }

    // Milliseconds (a time since the epoch or a length).
    std::int64_t milliseconds(const char* key) {
        const auto n = whole(key, std::numeric_limits<std::int64_t>::min(),
                             std::numeric_limits<std::int64_t>::max(), "whole milliseconds");
        return n.value_or(0);
    }

    core::Side side(const char* key) {
        const json* value = find(key);
        if (value && value->is_string()) {
            if (auto side = parse_side(value->get<std::string>())) {
                return *side;
            }
        }
        fail(key, "\"first\" or \"second\"");
        return core::Side::first;
    }

    // Present, and a side or null.
    std::optional<core::Side> nullable_side(const char* key) {
        const json* value = find(key);
        if (value && value->is_null()) {
            return std::nullopt;
        }
        if (value && value->is_string()) {
            if (auto side = parse_side(value->get<std::string>())) {
                return side;
            }
        }
        fail(key, "\"first\", \"second\" or null");
        return std::nullopt;
    }

private:
    static std::optional<core::Side> parse_side(const std::string& name) {
        if (name == "first") {
            return core::Side::first;
        }
        if (name == "second") {
            return core::Side::second;
        }
        return std::nullopt;
    }
};

// The event of `kind` read from `r`; nothing for a kind this arena does not know.
std::optional<ArenaEvent> read_arena_event(const std::string& kind, ArenaFieldReader& r) {
    if (kind == "joined") {
        ev::Joined e;
        e.player = r.string("player");
        e.rating = r.integer("rating");
        return e;
    }
    if (kind == "rejoined") {
        ev::Rejoined e;
        e.player = r.string("player");
        e.rating = r.integer("rating");
        return e;
    }
    if (kind == "left") {
        return ev::Left{r.string("player")};
    }
    if (kind == "withdrew") {
        return ev::Withdrew{r.string("player")};
    }
    if (kind == "paused") {
        ev::Paused e;
        e.player = r.string("player");
        e.counted = r.boolean("counted");
        e.at = r.milliseconds("at");
        return e;
    }
    if (kind == "came_back") {
        return ev::CameBack{r.string("player")};
    }
    if (kind == "berserked") {
        ev::Berserked e;
        e.game = r.integer("game");
        e.side = r.side("side");
        return e;
    }
    if (kind == "paired") {
        ev::Paired e;
        e.game = r.integer("game");
        e.first = r.string("first");
        e.second = r.string("second");
        e.at = r.milliseconds("at");
        return e;
    }
    if (kind == "game_started") {
        ev::GameStarted e;
        e.game = r.integer("game");
        e.game_id = r.string("game_id");
        return e;
    }
    if (kind == "game_finished") {
        ev::GameFinished e;
        e.game = r.integer("game");
        e.winner = r.nullable_side("winner");
        e.plies = r.integer("plies");
        e.first_berserk = r.boolean("first_berserk");
        e.second_berserk = r.boolean("second_berserk");
        return e;
    }
    if (kind == "game_cancelled") {
        return ev::GameCancelled{r.integer("game")};
    }
    if (kind == "finished") {
        return ev::Finished{r.milliseconds("at")};
    }
    if (kind == "said") {
        ev::Said e;
        e.player = r.string("player");
        e.name = r.string("name");
        e.text = r.string("text");
        e.at = r.milliseconds("at");
        return e;
    }
    return std::nullopt;
}

// `text` as a JSON object, or an error saying what `what` (an event, the settings) must be.
core::Expected<json> parse_arena_object(std::string_view text, const char* what) {
    json object = json::parse(text, nullptr, false);
    if (object.is_discarded()) {
        return core::make_error(std::string(what) + " must be JSON");
    }
    if (!object.is_object()) {
        return core::make_error(std::string(what) + " must be a JSON object");
    }
    return object;
}

std::string arena_text(const json& object) {
    return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string_view arena_event_kind(const ArenaEvent& event) {
    return std::visit([](const auto& e) { return arena_kind_of<std::decay_t<decltype(e)>>(); },
                      event);
}

std::string encode_event(const ArenaEvent& event) {
    json out = std::visit([](const auto& e) { return arena_fields(e); }, event);
    out["kind"] = arena_event_kind(event);
    return arena_text(out);
}

core::Expected<ArenaEvent> decode_event(std::string_view text) {
    auto object = parse_arena_object(text, "an arena event");
    if (!object) {
        return core::make_error(object.error());
    }
    const auto kind_it = object->find("kind");
    if (kind_it == object->end() || !kind_it->is_string()) {
        return core::make_error("an arena event needs a `kind` string");
    }
    const auto kind = kind_it->get<std::string>();
    ArenaFieldReader r(*object);
    auto event = read_arena_event(kind, r);
    if (!event) {
        return core::make_error("unknown arena event kind `" + kind + "`");
    }
    if (r.error()) {
        return core::make_error(kind + " event: " + *r.error());
    }
    return std::move(*event);
}

std::string encode_config(const ArenaConfig& config) {
    const json out = {{"starts_at", config.starts_at},
                      {"duration_ms", config.duration_ms},
                      {"clock", protocol::time_control_json(config.clock)},
                      {"berserkable", config.berserkable},
                      {"variant", core::variant_name(config.variant)},
                      {"rules", core::rule_set_name(config.rules)},
                      {"rated", config.rated}};
    return arena_text(out);
}

core::Expected<ArenaConfig> decode_config(std::string_view text) {
    auto object = parse_arena_object(text, "an arena's settings");
    if (!object) {
        return core::make_error(object.error());
    }
    ArenaFieldReader r(*object);
    ArenaConfig config;
    config.starts_at = r.milliseconds("starts_at");
    config.duration_ms = r.milliseconds("duration_ms");
    if (const json* clock = r.present("clock")) {
        auto control = protocol::read_time_control(clock);
        if (const auto* error = std::get_if<protocol::ProtocolError>(&control)) {
            r.fail_with(error->message);
        } else {
            config.clock = std::get<protocol::TimeControl>(control);
        }
    }
    config.berserkable = r.boolean("berserkable");
    const std::string variant = r.string("variant");
    if (!r.error()) {
        if (auto id = core::parse_variant(variant)) {
            config.variant = *id;
        } else {
            r.fail_with("`variant` must be chessence, chesica or sniderman, not `" + variant + "`");
        }
    }
    config.rated = r.boolean("rated");
    // "rules" came with the server's arenas (slice 2): settings without it are house rules.
    if (const auto it = object->find("rules"); it != object->end() && !r.error()) {
        const auto rules =
            it->is_string() ? core::parse_rule_set(it->get<std::string>()) : std::nullopt;
        if (!rules) {
            r.fail_with("`rules` must be house or strict");
        } else {
            config.rules = *rules;
        }
    }
    if (r.error()) {
        return core::make_error("arena settings: " + *r.error());
    }
    return config;
}

}  // namespace server::tournament
