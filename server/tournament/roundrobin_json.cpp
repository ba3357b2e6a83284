#include "server/tournament/roundrobin_json.h"

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
namespace rr_ev = roundrobin_event;

template <class T>
constexpr std::string_view rr_kind_of();
template <>
constexpr std::string_view rr_kind_of<rr_ev::Joined>() {
    return "joined";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Left>() {
    return "left";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Started>() {
    return "started";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Withdrew>() {
    return "withdrew";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Paired>() {
    return "paired";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::GameStarted>() {
    return "game_started";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::GameFinished>() {
    return "game_finished";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::GameCancelled>() {
    return "game_cancelled";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Forfeited>() {
    return "forfeited";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Unplayed>() {
    return "unplayed";
}
template <>
constexpr std::string_view rr_kind_of<rr_ev::Finished>() {
    return "finished";
}

const char* rr_side_name(core::Side side) {
    return side == core::Side::first ? "first" : "second";
}

// The fields of one event, in its stored form (without `kind`).
json rr_fields(const rr_ev::Joined& e) {
    return {{"player", e.player}, {"rating", e.rating}, {"bot", e.bot}};
}
json rr_fields(const rr_ev::Left& e) {
    return {{"player", e.player}};
}
json rr_fields(const rr_ev::Started& e) {
    return {{"players", e.players}, {"at", e.at}};
}
json rr_fields(const rr_ev::Withdrew& e) {
    return {{"player", e.player}};
}
json rr_fields(const rr_ev::Paired& e) {
    return {{"game", e.game}, {"at", e.at}};
}
json rr_fields(const rr_ev::GameStarted& e) {
    return {{"game", e.game}, {"game_id", e.game_id}};
}
json rr_fields(const rr_ev::GameFinished& e) {
    return {{"game", e.game}, {"winner", e.winner ? json(rr_side_name(*e.winner)) : json(nullptr)}};
}
json rr_fields(const rr_ev::GameCancelled& e) {
    return {{"game", e.game}};
}
json rr_fields(const rr_ev::Forfeited& e) {
    return {{"game", e.game}, {"winner", rr_side_name(e.winner)}};
}
json rr_fields(const rr_ev::Unplayed& e) {
    return {{"game", e.game}};
}
json rr_fields(const rr_ev::Finished& e) {
    return {{"at", e.at}, {"cancelled", e.cancelled}};
}

// Reads the fields of a stored object (protocol/json_reader.h), with a round robin's kinds.
class RoundRobinFieldReader : public protocol::FieldReader {
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

    // Present, and a side, or null when `nullable`.
    std::optional<core::Side> side(const char* key, bool nullable) {
        const json* value = find(key);
        if (value && value->is_null() && nullable) {
            return std::nullopt;
        }
        if (value && value->is_string()) {
            const auto name = value->get<std::string>();
            if (name == "first" || name == "second") {
                return name == "first" ? core::Side::first : core::Side::second;
            }
        }
        fail(key, nullable ? "\"first\", \"second\" or null" : "\"first\" or \"second\"");
        return std::nullopt;
    }

    std::vector<std::string> strings(const char* key) {
        const json* value = find(key);
        std::vector<std::string> out;
        if (value && value->is_array()) {
            for (const auto& item : *value) {
                if (!item.is_string()) {
                    fail(key, "an array of strings");
                    return {};
                }
                out.push_back(item.get<std::string>());
            }
            return out;
        }
        fail(key, "an array of strings");
        return out;
    }
};

// The event of `kind` read from `r`; nothing for a kind a round robin does not know.
std::optional<RoundRobinEvent> read_rr_event(const std::string& kind, RoundRobinFieldReader& r) {
    if (kind == "joined") {
        rr_ev::Joined e;
        e.player = r.string("player");
        e.rating = r.integer("rating");
        e.bot = r.boolean("bot");
        return e;
    }
    if (kind == "left") {
        return rr_ev::Left{r.string("player")};
    }
    if (kind == "started") {
        rr_ev::Started e;
        e.players = r.strings("players");
        e.at = r.milliseconds("at");
        return e;
    }
    if (kind == "withdrew") {
        return rr_ev::Withdrew{r.string("player")};
    }
    if (kind == "paired") {
        rr_ev::Paired e;
        e.game = r.integer("game");
        e.at = r.milliseconds("at");
        return e;
    }
    if (kind == "game_started") {
        rr_ev::GameStarted e;
        e.game = r.integer("game");
        e.game_id = r.string("game_id");
        return e;
    }
    if (kind == "game_finished") {
        rr_ev::GameFinished e;
        e.game = r.integer("game");
        e.winner = r.side("winner", true);
        return e;
    }
    if (kind == "game_cancelled") {
        return rr_ev::GameCancelled{r.integer("game")};
    }
    if (kind == "forfeited") {
        rr_ev::Forfeited e;
        e.game = r.integer("game");
        e.winner = r.side("winner", false).value_or(core::Side::first);
        return e;
    }
    if (kind == "unplayed") {
        return rr_ev::Unplayed{r.integer("game")};
    }
    if (kind == "finished") {
        rr_ev::Finished e;
        e.at = r.milliseconds("at");
        e.cancelled = r.boolean("cancelled");
        return e;
    }
    return std::nullopt;
}

// `text` as a JSON object, or an error saying what `what` must be.
core::Expected<json> parse_rr_object(std::string_view text, const char* what) {
    json object = json::parse(text, nullptr, false);
    if (object.is_discarded()) {
        return core::make_error(std::string(what) + " must be JSON");
    }
    if (!object.is_object()) {
        return core::make_error(std::string(what) + " must be a JSON object");
    }
    return object;
}

std::string rr_text(const json& object) {
    return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string_view roundrobin_event_kind(const RoundRobinEvent& event) {
    return std::visit([](const auto& e) { return rr_kind_of<std::decay_t<decltype(e)>>(); }, event);
}

std::string encode_roundrobin_event(const RoundRobinEvent& event) {
    json out = std::visit([](const auto& e) { return rr_fields(e); }, event);
    out["kind"] = roundrobin_event_kind(event);
    return rr_text(out);
}

core::Expected<RoundRobinEvent> decode_roundrobin_event(std::string_view text) {
    auto object = parse_rr_object(text, "a round-robin event");
    if (!object) {
        return core::make_error(object.error());
    }
    const auto kind_it = object->find("kind");
    if (kind_it == object->end() || !kind_it->is_string()) {
        return core::make_error("a round-robin event needs a `kind` string");
    }
    const auto kind = kind_it->get<std::string>();
    RoundRobinFieldReader r(*object);
    auto event = read_rr_event(kind, r);
    if (!event) {
        return core::make_error("unknown round-robin event kind `" + kind + "`");
    }
    if (r.error()) {
        return core::make_error(kind + " event: " + *r.error());
    }
    return std::move(*event);
}

std::string encode_roundrobin_config(const RoundRobinConfig& config) {
    const json out = {{"starts_at", config.starts_at},
                      {"double_round", config.double_round},
                      {"game_deadline_ms", config.game_deadline_ms},
                      {"clock", protocol::time_control_json(config.clock)},
                      {"variant", core::variant_name(config.variant)},
                      {"rules", core::rule_set_name(config.rules)},
                      {"rated", config.rated},
                      {"bots_allowed", config.bots_allowed},
                      {"max_players", config.max_players}};
    return rr_text(out);
}

core::Expected<RoundRobinConfig> decode_roundrobin_config(std::string_view text) {
    auto object = parse_rr_object(text, "a round robin's settings");
    if (!object) {
        return core::make_error(object.error());
    }
    RoundRobinFieldReader r(*object);
    RoundRobinConfig config;
    config.starts_at = r.milliseconds("starts_at");
    config.double_round = r.boolean("double_round");
    config.game_deadline_ms = r.milliseconds("game_deadline_ms");
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
    config.max_players = r.integer("max_players");
    if (r.error()) {
        return core::make_error("round-robin settings: " + *r.error());
    }
    return config;
}

}  // namespace server::tournament
