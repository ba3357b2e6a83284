#include "protocol/requests.h"

#include <array>

#include "protocol/limits.h"

namespace protocol {

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, request_type_count> type_names = {
    "hello",
    "set_name",
    "lobby_subscribe",
    "lobby_unsubscribe",
    "lobby_games",
    "seek_create",
    "seek_cancel",
    "seek_accept",
    "quick_pair",
    "watch",
    "unwatch",
    "move",
    "resign",
    "draw_offer",
    "draw_accept",
    "draw_decline",
    "rematch_offer",
    "rematch_accept",
    "name_object",
    "choose_side",
    "chat",
    "abort",
    "claim_victory",
    "claim_draw",
    "takeback_offer",
    "takeback_accept",
    "takeback_decline",
    "moretime",
    "spectator_chat",
    "berserk",
    "register",
    "login",
    "logout",
    "change_password",
    "admin_mute",
    "admin_close",
    "tournament_watch",
    "tournament_unwatch",
    "tournament_join",
    "tournament_withdraw",
    "tournament_pause",
    "tournament_chat",
    "ping",
};

// Reads the fields of one message object; the first problem found is kept and later reads are
// no-ops.
class FieldReader {
public:
    explicit FieldReader(const json& object) : object_(object) {}

    bool failed() const { return error_.has_value(); }
    const ProtocolError& error() const { return *error_; }

    void fail(ErrorCode code, std::string message) {
        if (!error_) {
            error_ = ProtocolError{code, std::move(message)};
        }
    }

    // A string of 1..max_length bytes; nullopt (and an error if required) when absent or wrong.
    std::optional<std::string> string(const char* key, std::size_t max_length, bool required) {
        const json* value = find(key, required);
        if (!value) {
            return std::nullopt;
        }
        if (!value->is_string()) {
            fail(ErrorCode::bad_field, std::string("`") + key + "` must be a string");
            return std::nullopt;
        }
        const auto& text = value->get_ref<const std::string&>();
        if (text.empty()) {
            fail(ErrorCode::bad_field, std::string("`") + key + "` must not be empty");
            return std::nullopt;
        }
        if (text.size() > max_length) {
            fail(ErrorCode::bad_field, std::string("`") + key + "` must have at most " +
                                           std::to_string(max_length) + " characters");
            return std::nullopt;
        }
        return text;
    }

    // An integer within [min, max].
    std::optional<std::int64_t> integer(const char* key, std::int64_t min, std::int64_t max,
                                        bool required) {
        const json* value = find(key, required);
        if (!value) {
            return std::nullopt;
        }
        if (!value->is_number_integer()) {
            fail(ErrorCode::bad_field, std::string("`") + key + "` must be an integer");
            return std::nullopt;
        }
        const bool is_unsigned = value->is_number_unsigned();
        const auto number = is_unsigned ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                                              value->get<std::uint64_t>(), INT64_MAX))
                                        : value->get<std::int64_t>();
        if (number < min || number > max) {
            fail(ErrorCode::bad_field, std::string("`") + key + "` must be between " +
                                           std::to_string(min) + " and " + std::to_string(max));
            return std::nullopt;
        }
        return number;
    }

    std::optional<bool> boolean(const char* key) {
        const json* value = find(key, false);
        if (!value) {
            return std::nullopt;
        }
        if (!value->is_boolean()) {
            fail(ErrorCode::bad_field, std::string("`") + key + "` must be true or false");
            return std::nullopt;
        }
        return value->get<bool>();
    }

    // The field as sent (null when absent), for readers of structured fields.
    const json* raw(const char* key) const {
        const auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }

private:
    const json* find(const char* key, bool required) {
        if (failed()) {
            return nullptr;
        }
        auto it = object_.find(key);
        if (it == object_.end() || it->is_null()) {
            if (required) {
                fail(ErrorCode::missing_field, std::string("`") + key + "` is required");
            }
            return nullptr;
        }
        return &*it;
    }

    const json& object_;
    std::optional<ProtocolError> error_;
};

// Reads and checks the display name of hello / set_name into r.name.
void read_name(FieldReader& in, Request& r, bool required) {
    if (auto raw = in.string("name", 64, required)) {
        auto checked = validate_name(*raw);
        if (auto* e = std::get_if<ProtocolError>(&checked)) {
            in.fail(e->code, e->message);
        } else {
            r.name = std::get<std::string>(checked);
        }
    }
}

void read_variant_options(FieldReader& in, Request& r) {
    if (auto name = in.string("variant", 16, true)) {
        if (auto v = core::parse_variant(*name)) {
            r.variant = *v;
        } else {
            in.fail(ErrorCode::bad_field, "`variant` must be chessence, chesica or sniderman");
        }
    }
    if (auto name = in.string("rules", 16, false)) {
        if (auto rules = core::parse_rule_set(*name)) {
            r.rules = *rules;
        } else {
            in.fail(ErrorCode::bad_field, "`rules` must be house or strict");
        }
    }
    if (auto rounds = in.integer("rounds", 1, 9, false)) {
        if (*rounds % 2 == 0) {
            in.fail(ErrorCode::bad_field, "`rounds` must be 1, 3, 5, 7 or 9");
        }
        r.rounds = static_cast<int>(*rounds);
    }
    if (!in.failed()) {
        auto clock = read_time_control(in.raw("clock"));
        if (auto* error = std::get_if<ProtocolError>(&clock)) {
            in.fail(error->code, error->message);
        } else {
            r.clock = std::get<TimeControl>(clock);
        }
    }
}

// A password of min_password_length code points or more (weak_password below), at most
// max_password_bytes bytes.
std::string read_password(FieldReader& in, const char* key) {
    auto password = in.string(key, max_password_bytes, true);
    if (!password) {
        return {};
    }
    if (utf8_length(*password) < min_password_length) {
        in.fail(ErrorCode::weak_password,
                "a password has at least " + std::to_string(min_password_length) + " characters");
        return {};
    }
    return *password;
}

void read_credentials(FieldReader& in, Request& r) {
    if (auto name = in.string("username", 64, true)) {
        if (auto bad = check_username(*name)) {
            in.fail(bad->code, bad->message);
        }
        r.username = *name;
    }
    r.password = read_password(in, "password");
}

// rated, and for seek_create the accepter's rating range.
void read_rated_options(FieldReader& in, Request& r, bool with_range) {
    r.rated = in.boolean("rated").value_or(false);
    if (!with_range) {
        return;
    }
    if (auto low = in.integer("rating_min", min_rating_bound, max_rating_bound, false)) {
        r.rating_min = static_cast<int>(*low);
    }
    if (auto high = in.integer("rating_max", min_rating_bound, max_rating_bound, false)) {
        r.rating_max = static_cast<int>(*high);
    }
    if (r.rating_min && r.rating_max && *r.rating_min > *r.rating_max) {
        in.fail(ErrorCode::bad_field, "`rating_min` must not be above `rating_max`");
    }
}

// seek_create's opponent (issue 25): a person (the default, a listed seek) or the computer at a
// level. A game against the computer is casual and public with no rating range: those fields are
// refused rather than silently dropped.
void read_opponent(FieldReader& in, Request& r) {
    const auto opponent = in.string("opponent", 16, false);
    if (opponent && *opponent != "human" && *opponent != "computer") {
        in.fail(ErrorCode::bad_field, "`opponent` must be human or computer");
        return;
    }
    r.computer = opponent == "computer";
    if (!r.computer) {
        if (in.raw("level") && !in.raw("level")->is_null() && !in.failed()) {
            in.fail(ErrorCode::bad_field, "`level` is only for games against the computer");
        }
        return;
    }
    if (auto level = in.integer("level", min_bot_level, max_bot_level, true)) {
        r.level = static_cast<int>(*level);
    }
    if (in.failed()) {
        return;
    }
    if (r.rated) {
        in.fail(ErrorCode::bad_field, "games against the computer are casual");
    } else if (r.is_private) {
        in.fail(ErrorCode::bad_field, "games against the computer are public");
    } else if (r.rating_min || r.rating_max) {
        in.fail(ErrorCode::bad_field, "a game against the computer has no rating range");
    }
}

void read_account_fields(FieldReader& in, Request& r) {
    using T = RequestType;
    switch (r.type) {
        case T::register_account:
            read_credentials(in, r);
            break;
        case T::login:
            // A password that is too short cannot be right: it gets bad_credentials from the
            // server, never a hint from the parser.
            if (auto name = in.string("username", 64, true)) {
                if (auto bad = check_username(*name)) {
                    in.fail(bad->code, bad->message);
                }
                r.username = *name;
            }
            if (auto password = in.string("password", max_password_bytes, true)) {
                r.password = *password;
            }
            break;
        case T::logout:
            r.everywhere = in.boolean("everywhere").value_or(false);
            break;
        case T::change_password:
            if (auto password = in.string("password", max_password_bytes, true)) {
                r.password = *password;
            }
            r.new_password = read_password(in, "new_password");
            break;
        case T::admin_mute:
        case T::admin_close:
            if (auto id = in.string("player_id", max_ref_length, true)) {
                r.player_id = *id;
            }
            if (r.type == T::admin_mute) {
                r.muted = in.boolean("muted").value_or(true);
            } else {
                r.closed = in.boolean("closed").value_or(true);
            }
            break;
        default:
            break;
    }
}

// A chat line's text (a game's or a tournament's): 1 to max_chat_length code points.
void read_chat_text(FieldReader& in, Request& r) {
    if (auto text = in.string("text", SIZE_MAX, true)) {
        if (utf8_length(*text) > max_chat_length) {
            in.fail(ErrorCode::chat_too_long, "chat messages have at most " +
                                                  std::to_string(max_chat_length) + " characters");
        } else {
            r.text = *text;
        }
    }
}

void read_fields(FieldReader& in, Request& r) {
    using T = RequestType;
    const bool game_request =
        r.type == T::watch || r.type == T::unwatch || r.type == T::move || r.type == T::resign ||
        r.type == T::draw_offer || r.type == T::draw_accept || r.type == T::draw_decline ||
        r.type == T::rematch_offer || r.type == T::rematch_accept || r.type == T::name_object ||
        r.type == T::choose_side || r.type == T::chat || r.type == T::abort ||
        r.type == T::claim_victory || r.type == T::claim_draw || r.type == T::takeback_offer ||
        r.type == T::takeback_accept || r.type == T::takeback_decline || r.type == T::moretime ||
        r.type == T::spectator_chat || r.type == T::berserk;
    if (game_request) {
        if (auto id = in.string("game_id", max_ref_length, true)) {
            r.game_id = *id;
        }
    }
    if (is_tournament_request(r.type)) {
        if (auto id = in.string("tournament_id", max_ref_length, true)) {
            r.tournament_id = *id;
        }
        if (r.type == T::tournament_join) {
            r.code = in.string("code", max_join_code_length, false).value_or("");
        }
        if (r.type == T::tournament_chat) {
            read_chat_text(in, r);
        }
        return;
    }
    switch (r.type) {
        case T::hello:
            if (auto p = in.integer("protocol", 0, INT32_MAX, true)) {
                r.protocol = static_cast<int>(*p);
            }
            r.token = in.string("token", max_token_length, false);
            read_name(in, r, false);
            break;
        case T::set_name:
            read_name(in, r, true);
            break;
        case T::seek_create:
            read_variant_options(in, r);
            if (auto side = in.string("side", 16, false); side && *side != "random") {
                r.side = core::parse_side(r.variant, *side);
                if (!r.side && !in.failed()) {
                    in.fail(ErrorCode::bad_field, r.variant == core::VariantId::sniderman
                                                      ? "`side` must be odd, even or random"
                                                      : "`side` must be white, black or random");
                }
            }
            r.is_private = in.boolean("private").value_or(false);
            read_rated_options(in, r, true);
            read_opponent(in, r);
            break;
        case T::quick_pair:
            read_variant_options(in, r);
            read_rated_options(in, r, false);
            break;
        case T::seek_cancel:
        case T::seek_accept:
            if (auto id = in.string("seek_id", max_ref_length, true)) {
                r.seek_id = *id;
            }
            break;
        case T::lobby_games:
            r.offset = static_cast<int>(in.integer("offset", 0, INT32_MAX, false).value_or(0));
            r.limit = static_cast<int>(
                in.integer("limit", 1, max_lobby_games_page, false).value_or(lobby_games_page));
            break;
        case T::watch:
            r.since = in.integer("since", 0, INT64_MAX, false);
            r.full = in.boolean("full").value_or(false);
            r.key = in.string("key", max_access_key_length, false).value_or("");
            break;
        case T::move:
            if (auto move = in.string("move", max_move_length, true)) {
                r.move = *move;
            }
            break;
        case T::name_object:
            if (auto object = in.integer("object", min_object, max_object, true)) {
                r.object = static_cast<int>(*object);
            }
            break;
        case T::choose_side:
            if (auto side = in.string("side", 16, true)) {
                r.side = core::parse_side(core::VariantId::sniderman, *side);
                if (!r.side) {
                    in.fail(ErrorCode::bad_field, "`side` must be odd or even");
                }
            }
            break;
        case T::chat:
            read_chat_text(in, r);
            break;
        case T::spectator_chat:
            if (auto open = in.boolean("open"); open || in.failed()) {
                r.open = open.value_or(true);
            } else {
                in.fail(ErrorCode::missing_field, "`open` is required");
            }
            break;
        default:
            read_account_fields(in, r);
            break;
    }
}

bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ||
           c == '_' || c == '-' || c == '.';
}

// At most `max_bytes` of `text`, cut at a character boundary.
std::string utf8_prefix(const std::string& text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) {
        return text;
    }
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
        --end;
    }
    return text.substr(0, end);
}

// An error answer for the frame, built field by field.
ParseResult reject(ErrorCode code, std::string message, const json& id, std::string game_id = {}) {
    RequestError rejected;
    rejected.error.code = code;
    rejected.error.message = std::move(message);
    rejected.id = id;
    rejected.game_id = std::move(game_id);
    return ParseResult(std::in_place_type<RequestError>, std::move(rejected));
}

}  // namespace

std::string_view request_type_name(RequestType type) {
    return type_names[static_cast<std::size_t>(type)];
}

bool is_account_request(RequestType type) {
    return type >= RequestType::register_account && type <= RequestType::admin_close;
}

bool is_lobby_request(RequestType type) {
    return type == RequestType::lobby_subscribe || type == RequestType::lobby_unsubscribe ||
           type == RequestType::lobby_games || type == RequestType::seek_create ||
           type == RequestType::seek_cancel || type == RequestType::seek_accept ||
           type == RequestType::quick_pair;
}

bool is_tournament_request(RequestType type) {
    return type >= RequestType::tournament_watch && type <= RequestType::tournament_chat;
}

std::optional<RequestType> parse_request_type(std::string_view name) {
    for (int i = 0; i < request_type_count; ++i) {
        if (type_names[static_cast<std::size_t>(i)] == name) {
            return static_cast<RequestType>(i);
        }
    }
    return std::nullopt;
}

std::size_t utf8_length(std::string_view text) {
    std::size_t count = 0;
    for (char c : text) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++count;
        }
    }
    return count;
}

std::variant<std::string, ProtocolError> validate_name(std::string_view raw) {
    const auto first = raw.find_first_not_of(' ');
    const auto last = raw.find_last_not_of(' ');
    const std::string_view name =
        first == std::string_view::npos ? std::string_view{} : raw.substr(first, last - first + 1);
    if (name.size() < min_name_length || name.size() > max_name_length) {
        return ProtocolError{ErrorCode::bad_name, "a name has 1 to 20 characters"};
    }
    for (char c : name) {
        if (!is_name_char(c)) {
            return ProtocolError{ErrorCode::bad_name,
                                 "a name may hold letters, digits, spaces, '_', '-' and '.'"};
        }
    }
    return std::string(name);
}

std::optional<ProtocolError> check_username(std::string_view name) {
    if (name.size() < min_username_length || name.size() > max_username_length) {
        return ProtocolError{ErrorCode::bad_name, "a username has 3 to 20 characters"};
    }
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) {
            return ProtocolError{ErrorCode::bad_name,
                                 "a username may hold letters, digits, '_' and '-'"};
        }
    }
    return std::nullopt;
}

ParseResult parse_request(std::string_view text) {
    if (auto move = read_move_frame(text)) {
        return ParseResult(std::in_place_type<Request>, std::move(*move));
    }
    return parse_request_tree(text);
}

ParseResult parse_request_tree(std::string_view text) {
    // One JSON value and nothing after it: a NUL byte would otherwise end the text early.
    const json message = text.find('\0') == std::string_view::npos
                             ? json::parse(text, nullptr, false)
                             : json(json::value_t::discarded);
    if (message.is_discarded()) {
        return reject(ErrorCode::bad_json, "the frame is not valid JSON", nullptr);
    }
    if (!message.is_object()) {
        return reject(ErrorCode::bad_json, "a message must be a JSON object", nullptr);
    }
    json id = nullptr;
    if (auto it = message.find("id"); it != message.end() && !it->is_null()) {
        const bool good_string = it->is_string() && !it->get_ref<const std::string&>().empty() &&
                                 utf8_length(it->get_ref<const std::string&>()) <= max_id_length;
        if (!good_string && !it->is_number_integer()) {
            return reject(ErrorCode::bad_field,
                          "`id` must be an integer or a string of 1 to 64 characters", nullptr);
        }
        id = *it;
    }
    auto type_it = message.find("type");
    if (type_it == message.end()) {
        return reject(ErrorCode::missing_field, "`type` is required", id);
    }
    if (!type_it->is_string()) {
        return reject(ErrorCode::bad_field, "`type` must be a string", id);
    }
    const auto type = parse_request_type(type_it->get_ref<const std::string&>());
    if (!type) {
        return reject(ErrorCode::unknown_type,
                      "unknown message type `" +
                          utf8_prefix(type_it->get_ref<const std::string&>(), 40) + "`",
                      id);
    }
    Request request;
    request.type = *type;
    request.id = id;
    FieldReader reader(message);
    read_fields(reader, request);
    if (reader.failed()) {
        return reject(reader.error().code, reader.error().message, id, request.game_id);
    }
    return request;
}

}  // namespace protocol
