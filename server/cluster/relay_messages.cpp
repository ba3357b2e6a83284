#include "server/cluster/relay_messages.h"

#include <array>
#include <utility>

#include <nlohmann/json.hpp>

namespace server::cluster {

namespace {

using Json = nlohmann::json;

constexpr std::array<std::pair<RelayKind, const char*>, 8> kind_names{{
    {RelayKind::request, "request"},
    {RelayKind::looked_away, "looked_away"},
    {RelayKind::lag, "lag"},
    {RelayKind::gone, "gone"},
    {RelayKind::present, "present"},
    {RelayKind::frame, "frame"},
    {RelayKind::watching, "watching"},
    {RelayKind::close, "close"},
}};

const char* kind_name(RelayKind kind) {
    for (const auto& [k, name] : kind_names) {
        if (k == kind) {
            return name;
        }
    }
    return "?";
}

}  // namespace

std::string node_channel(std::string_view key_prefix, std::string_view node_id) {
    std::string channel(key_prefix);
    channel += "node:";
    channel += node_id;
    return channel;
}

std::string encode_relay(const std::vector<RelayRecord>& records) {
    Json out = Json::array();
    for (const auto& r : records) {
        Json j{{"k", kind_name(r.kind)}, {"from", r.from}, {"client", r.client}};
        if (!r.game_id.empty()) {
            j["game"] = r.game_id;
        }
        switch (r.kind) {
            case RelayKind::request:
                j["text"] = r.text;
                [[fallthrough]];
            case RelayKind::present:
                j["player"] = r.player_id;
                j["name"] = r.name;
                j["account"] = r.account;
                j["lag"] = r.lag_ms;
                j["ip"] = r.ip;
                break;
            case RelayKind::lag:
                j["lag"] = r.lag_ms;
                break;
            case RelayKind::frame:
                j["text"] = r.text;
                break;
            case RelayKind::watching:
                j["on"] = r.on;
                break;
            case RelayKind::close:
                j["code"] = r.code;
                break;
            case RelayKind::looked_away:
            case RelayKind::gone:
                break;
        }
        out.push_back(std::move(j));
    }
    return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

core::Expected<std::vector<RelayRecord>> decode_relay(std::string_view message) {
    auto parsed = Json::parse(message, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_array()) {
        return core::make_error("a relay message is a JSON array of records");
    }
    std::vector<RelayRecord> records;
    records.reserve(parsed.size());
    for (const auto& j : parsed) {
        if (!j.is_object() || !j.contains("k") || !j["k"].is_string() || !j.contains("from") ||
            !j["from"].is_string() || !j.contains("client") || !j["client"].is_number_unsigned()) {
            return core::make_error("a relay record needs a kind (k), from and client");
        }
        RelayRecord r;
        const auto kind = j["k"].get<std::string>();
        bool known = false;
        for (const auto& [k, name] : kind_names) {
            if (kind == name) {
                r.kind = k;
                known = true;
            }
        }
        if (!known) {
            return core::make_error("unknown relay record kind: " + kind);
        }
        r.from = j["from"].get<std::string>();
        r.client = j["client"].get<std::uint64_t>();
        r.game_id = j.value("game", "");
        const bool needs_text = r.kind == RelayKind::request || r.kind == RelayKind::frame;
        if (needs_text && !(j.contains("text") && j["text"].is_string())) {
            return core::make_error(std::string("a relay ") + kind_name(r.kind) +
                                    " record needs its text");
        }
        if ((r.kind == RelayKind::looked_away || r.kind == RelayKind::watching ||
             r.kind == RelayKind::lag) &&
            r.game_id.empty()) {
            return core::make_error(std::string("a relay ") + kind_name(r.kind) +
                                    " record needs its game");
        }
        if (needs_text) {
            r.text = j["text"].get<std::string>();
        }
        try {
            r.player_id = j.value("player", "");
            r.name = j.value("name", "");
            r.account = j.value("account", false);
            r.lag_ms = j.value("lag", 0);
            r.ip = j.value("ip", "");
            r.on = j.value("on", false);
            r.code = j.value("code", 0);
        } catch (const Json::exception& error) {
            return core::make_error(std::string("a relay record has a field of the wrong type: ") +
                                    error.what());
        }
        if ((r.kind == RelayKind::request || r.kind == RelayKind::present) && r.player_id.empty()) {
            return core::make_error(std::string("a relay ") + kind_name(r.kind) +
                                    " record needs its player");
        }
        records.push_back(std::move(r));
    }
    return records;
}

}  // namespace server::cluster
