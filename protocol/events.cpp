#include "protocol/events.h"

#include <type_traits>

#include "protocol/json_reader.h"
#include "protocol/json_text.h"

namespace protocol::events {

using nlohmann::json;

namespace {

template <class T>
constexpr std::string_view kind_of();
template <>
constexpr std::string_view kind_of<Move>() {
    return "move";
}
template <>
constexpr std::string_view kind_of<GameOver>() {
    return "game_over";
}
template <>
constexpr std::string_view kind_of<DrawOffered>() {
    return "draw_offered";
}
template <>
constexpr std::string_view kind_of<DrawDeclined>() {
    return "draw_declined";
}
template <>
constexpr std::string_view kind_of<RematchOffered>() {
    return "rematch_offered";
}
template <>
constexpr std::string_view kind_of<RematchStarted>() {
    return "rematch_started";
}
template <>
constexpr std::string_view kind_of<Chat>() {
    return "chat";
}
template <>
constexpr std::string_view kind_of<SpectatorChat>() {
    return "spectator_chat";
}
template <>
constexpr std::string_view kind_of<RoundStarted>() {
    return "round_started";
}
template <>
constexpr std::string_view kind_of<ObjectNamed>() {
    return "object_named";
}
template <>
constexpr std::string_view kind_of<SideChosen>() {
    return "side_chosen";
}
template <>
constexpr std::string_view kind_of<RoundOver>() {
    return "round_over";
}
template <>
constexpr std::string_view kind_of<TakebackOffered>() {
    return "takeback_offered";
}
template <>
constexpr std::string_view kind_of<TakebackDeclined>() {
    return "takeback_declined";
}
template <>
constexpr std::string_view kind_of<Takeback>() {
    return "takeback";
}
template <>
constexpr std::string_view kind_of<MoreTime>() {
    return "moretime";
}
template <>
constexpr std::string_view kind_of<Berserk>() {
    return "berserk";
}

const char* clock_key(const ClockReading& clock, int seat) {
    if (clock.by_player) {
        return seat == 0 ? "player0" : "player1";
    }
    return seat == 0 ? "white" : "black";
}

// Adds the clock (and the lag credited, when any) of an event that may carry one.
void add_clock(json& j, const std::optional<ClockReading>& clock, int lag_ms = 0) {
    if (clock) {
        j["clock"] = clock_json(*clock);
        if (lag_ms > 0) {
            j["lag_ms"] = lag_ms;
        }
    }
}

json optional_string(const std::optional<std::string>& value) {
    return value ? json(*value) : json(nullptr);
}

// The fields of one event, in its stored form (without `kind`).
json fields(const Move& e) {
    json j = {{"move", e.move}, {"by", e.by}, {"ply", e.ply}};
    if (e.player) {
        j["player"] = *e.player;
    }
    add_clock(j, e.clock, e.lag_ms);
    return j;
}
json fields(const GameOver& e) {
    json j = {{"result", result_json(e.result)}};
    add_clock(j, e.clock);
    return j;
}
json fields(const DrawOffered& e) {
    return {{"by", e.by}};
}
json fields(const DrawDeclined& e) {
    return {{"by", e.by}};
}
json fields(const RematchOffered& e) {
    return {{"by", e.by}};
}
json fields(const RematchStarted& e) {
    return {{"new_game_id", e.new_game_id}};
}
json fields(const Chat& e) {
    return {{"from", e.from},
            {"player_id", e.player_id},
            {"seat", optional_string(e.seat)},
            {"text", e.text},
            {"at", e.at}};
}
json fields(const SpectatorChat& e) {
    return {{"by", e.by}, {"open", e.open}};
}
json fields(const RoundStarted& e) {
    return {{"round", e.round}, {"fen", e.fen}, {"namer", e.namer}};
}
json fields(const ObjectNamed& e) {
    json j = {{"by", e.by}, {"object", e.object}};
    add_clock(j, e.clock, e.lag_ms);
    return j;
}
json fields(const SideChosen& e) {
    json j = {{"by", e.by}, {"odd", e.odd}, {"even", e.even}};
    add_clock(j, e.clock, e.lag_ms);
    return j;
}
json fields(const TakebackOffered& e) {
    return {{"by", e.by}};
}
json fields(const TakebackDeclined& e) {
    return {{"by", e.by}};
}
json fields(const Takeback& e) {
    json j = {{"by", e.by}, {"plies", e.plies}};
    add_clock(j, e.clock);
    return j;
}
json fields(const MoreTime& e) {
    return {{"by", e.by}, {"ms", e.ms}, {"clock", clock_json(e.clock)}};
}
json fields(const Berserk& e) {
    return {{"by", e.by}, {"clock", clock_json(e.clock)}};
}
json fields(const RoundOver& e) {
    return {{"round", e.round},
            {"winner", e.winner},
            {"winner_player", e.winner_player},
            {"score", e.score}};
}

// Reads fields of a stored event (json_reader.h), with the kinds of field events have.
class Reader : public FieldReader {
public:
    using FieldReader::FieldReader;

    std::optional<std::string> nullable_string(const char* key) {
        const json* value = find(key);
        if (value && value->is_string()) {
            return value->get<std::string>();
        }
        if (!value || !value->is_null()) {
            fail(key, "a string or null");
        }
        return std::nullopt;
    }

    // Absent is fine; present must be a string.
    std::optional<std::string> optional_string(const char* key) {
        if (!object_.contains(key)) {
            return std::nullopt;
        }
        return string(key);
    }

    int integer(const char* key) {
        return static_cast<int>(whole(key, -1000000000, 1000000000).value_or(0));
    }

    const json* object(const char* key) {
        const json* value = find(key);
        if (value && value->is_object()) {
            return value;
        }
        fail(key, "an object");
        return nullptr;
    }

    std::array<int, 2> pair(const char* key) {
        const json* value = find(key);
        if (value && value->is_array() && value->size() == 2 && (*value)[0].is_number_integer() &&
            (*value)[1].is_number_integer()) {
            return {(*value)[0].get<int>(), (*value)[1].get<int>()};
        }
        fail(key, "two whole numbers");
        return {0, 0};
    }

    // Absent is fine; present must be a clock object.
    std::optional<ClockReading> optional_clock(const char* key) {
        const json* value = find(key);
        if (!value) {
            return std::nullopt;
        }
        auto clock = clock_from_json(*value);
        if (!clock) {
            fail_with(std::string("`") + key + "`: " + clock.error());
            return std::nullopt;
        }
        return *clock;
    }

    // Absent reads as 0.
    int optional_integer(const char* key) { return object_.contains(key) ? integer(key) : 0; }
};

Move read_move(Reader& r) {
    Move e;
    e.move = r.string("move");
    e.by = r.string("by");
    e.player = r.optional_string("player");
    e.ply = r.integer("ply");
    e.clock = r.optional_clock("clock");
    e.lag_ms = r.optional_integer("lag_ms");
    return e;
}

Chat read_chat(Reader& r) {
    Chat e;
    e.from = r.string("from");
    e.player_id = r.optional_string("player_id").value_or("");
    e.seat = r.nullable_string("seat");
    e.text = r.string("text");
    e.at = r.string("at");
    return e;
}

RoundOver read_round_over(Reader& r) {
    RoundOver e;
    e.round = r.integer("round");
    e.winner = r.string("winner");
    e.winner_player = r.string("winner_player");
    e.score = r.pair("score");
    return e;
}

}  // namespace

std::string_view kind_name(const RoomEvent& event) {
    return std::visit([](const auto& e) { return kind_of<std::decay_t<decltype(e)>>(); }, event);
}

json encode_event(const RoomEvent& event) {
    json out = {{"kind", kind_name(event)}};
    out.update(std::visit([](const auto& e) { return fields(e); }, event));
    return out;
}

namespace {

// A clock reading as clock_json would be written: keys sorted (at, black, running, white; or at,
// player0, player1, running).
void append_clock_text(std::string& out, const ClockReading& clock) {
    out += '{';
    if (clock.at) {
        out += "\"at\":";
        out += std::to_string(*clock.at);
        out += ',';
    }
    const auto left = [&](int seat) {
        out += '"';
        out += clock_key(clock, seat);
        out += "\":";
        out += std::to_string(clock.left[static_cast<std::size_t>(seat)]);
    };
    const auto running = [&] {
        out += "\"running\":";
        if (clock.running) {
            out += '"';
            out += clock_key(clock, *clock.running);
            out += '"';
        } else {
            out += "null";
        }
    };
    if (clock.by_player) {
        left(0);
        out += ',';
        left(1);
        out += ',';
        running();
    } else {
        left(1);  // black
        out += ',';
        running();
        out += ',';
        left(0);  // white
    }
    out += '}';
}

// A move's stored form written directly, as encode_event's tree would be written (every move is
// stored and sent): keys sorted (by, clock, kind, lag_ms, move, player, ply).
std::string move_text(const Move& e) {
    std::string out = "{\"by\":";
    out.reserve(160);
    append_json_string(out, e.by);
    if (e.clock) {
        out += ",\"clock\":";
        append_clock_text(out, *e.clock);
    }
    out += ",\"kind\":\"move\"";
    if (e.clock && e.lag_ms > 0) {
        out += ",\"lag_ms\":";
        out += std::to_string(e.lag_ms);
    }
    out += ",\"move\":";
    append_json_string(out, e.move);
    if (e.player) {
        out += ",\"player\":";
        append_json_string(out, *e.player);
    }
    out += ",\"ply\":";
    out += std::to_string(e.ply);
    out += '}';
    return out;
}

}  // namespace

std::string encode_event_text(const RoomEvent& event) {
    if (const auto* move = std::get_if<Move>(&event)) {
        return move_text(*move);
    }
    return encode_event(event).dump(-1, ' ', false, json::error_handler_t::replace);
}

json result_json(const Result& result) {
    return {{"winner", optional_string(result.winner)}, {"reason", result.reason}};
}

json clock_json(const ClockReading& clock) {
    json j = {{clock_key(clock, 0), clock.left[0]},
              {clock_key(clock, 1), clock.left[1]},
              {"running", clock.running ? json(clock_key(clock, *clock.running)) : json(nullptr)}};
    if (clock.at) {
        j["at"] = *clock.at;
    }
    return j;
}

core::Expected<ClockReading> clock_from_json(const json& object) {
    if (!object.is_object()) {
        return core::make_error("a clock must be an object");
    }
    ClockReading clock;
    clock.by_player = object.contains("player0");
    for (int seat = 0; seat < 2; ++seat) {
        const auto it = object.find(clock_key(clock, seat));
        if (it == object.end() || !it->is_number_integer()) {
            return core::make_error(std::string("a clock needs `") + clock_key(clock, seat) +
                                    "` in milliseconds");
        }
        clock.left[static_cast<std::size_t>(seat)] = it->get<std::int64_t>();
    }
    if (const auto at = object.find("at"); at != object.end()) {
        if (!at->is_number_integer()) {
            return core::make_error("a clock's `at` must be milliseconds since the epoch");
        }
        clock.at = at->get<std::int64_t>();
    }
    const auto running = object.find("running");
    if (running == object.end() || running->is_null()) {
        return clock;
    }
    for (int seat = 0; seat < 2; ++seat) {
        if (running->is_string() && running->get<std::string>() == clock_key(clock, seat)) {
            clock.running = seat;
            return clock;
        }
    }
    return core::make_error("a clock's `running` must be one of its seats or null");
}

core::Expected<Result> result_from_json(const json& object) {
    if (!object.is_object()) {
        return core::make_error("a result must be an object");
    }
    Reader r(object);
    Result result;
    result.winner = r.nullable_string("winner");
    result.reason = r.string("reason");
    if (r.error()) {
        return core::make_error("result: " + *r.error());
    }
    return result;
}

core::Expected<RoomEvent> decode_event(const json& object) {
    if (!object.is_object()) {
        return core::make_error("an event must be a JSON object");
    }
    const auto kind_it = object.find("kind");
    if (kind_it == object.end() || !kind_it->is_string()) {
        return core::make_error("an event needs a `kind`");
    }
    const auto kind = kind_it->get<std::string>();
    Reader r(object);
    std::optional<RoomEvent> event;
    if (kind == "move") {
        event = read_move(r);
    } else if (kind == "game_over") {
        if (const json* result = r.object("result")) {
            auto read = result_from_json(*result);
            if (read) {
                event = GameOver{std::move(*read), r.optional_clock("clock")};
            } else {
                r.fail_with(read.error());
            }
        }
    } else if (kind == "draw_offered") {
        event = DrawOffered{r.string("by")};
    } else if (kind == "draw_declined") {
        event = DrawDeclined{r.string("by")};
    } else if (kind == "rematch_offered") {
        event = RematchOffered{r.string("by")};
    } else if (kind == "rematch_started") {
        event = RematchStarted{r.string("new_game_id")};
    } else if (kind == "chat") {
        event = read_chat(r);
    } else if (kind == "spectator_chat") {
        event = SpectatorChat{r.string("by"), r.boolean("open")};
    } else if (kind == "round_started") {
        RoundStarted e;
        e.round = r.integer("round");
        e.fen = r.string("fen");
        e.namer = r.string("namer");
        event = std::move(e);
    } else if (kind == "object_named") {
        ObjectNamed e;
        e.by = r.string("by");
        e.object = r.integer("object");
        e.clock = r.optional_clock("clock");
        e.lag_ms = r.optional_integer("lag_ms");
        event = e;
    } else if (kind == "side_chosen") {
        SideChosen e;
        e.by = r.string("by");
        e.odd = r.string("odd");
        e.even = r.string("even");
        e.clock = r.optional_clock("clock");
        e.lag_ms = r.optional_integer("lag_ms");
        event = std::move(e);
    } else if (kind == "round_over") {
        event = read_round_over(r);
    } else if (kind == "takeback_offered") {
        event = TakebackOffered{r.string("by")};
    } else if (kind == "takeback_declined") {
        event = TakebackDeclined{r.string("by")};
    } else if (kind == "takeback") {
        Takeback e;
        e.by = r.string("by");
        e.plies = r.integer("plies");
        e.clock = r.optional_clock("clock");
        event = std::move(e);
    } else if (kind == "moretime") {
        MoreTime e;
        e.by = r.string("by");
        e.ms = r.integer("ms");
        e.clock = r.optional_clock("clock").value_or(ClockReading{});
        if (!object.contains("clock")) {
            r.fail_with("`clock` is required");
        }
        event = std::move(e);
    } else if (kind == "berserk") {
        Berserk e;
        e.by = r.string("by");
        e.clock = r.optional_clock("clock").value_or(ClockReading{});
        if (!object.contains("clock")) {
            r.fail_with("`clock` is required");
        }
        event = std::move(e);
    } else {
        return core::make_error("unknown event kind `" + kind + "`");
    }
    if (r.error()) {
        return core::make_error(kind + " event: " + *r.error());
    }
    return std::move(*event);
}

core::Expected<RoomEvent> decode_event_text(std::string_view text) {
    const json object = json::parse(text, nullptr, false);
    if (object.is_discarded()) {
        return core::make_error("an event must be JSON");
    }
    return decode_event(object);
}

}  // namespace protocol::events
