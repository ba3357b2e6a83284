#include "uci_session.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "core/sniderman/position.h"

namespace cli {

namespace {

using Words = std::vector<std::string>;

Words split(const std::string& line) {
    Words words;
    std::istringstream in(line);
    std::string word;
    while (in >> word) {
        words.push_back(word);
    }
    return words;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::optional<std::int64_t> integer(const std::string& text) {
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// The words of `words` after `key` up to the next word of `stops`, joined by spaces.
std::string words_after(const Words& words, const std::string& key, const Words& stops) {
    std::string joined;
    auto at = std::find(words.begin(), words.end(), key);
    if (at == words.end()) {
        return joined;
    }
    for (++at; at != words.end() && std::find(stops.begin(), stops.end(), *at) == stops.end();
         ++at) {
        joined += (joined.empty() ? "" : " ") + *at;
    }
    return joined;
}

// A share of the remaining clock for one move: a thirtieth (or the time per move left until the
// next control) plus most of the increment, never more than half of what is left.
std::chrono::milliseconds clock_share(std::int64_t left, std::int64_t increment,
                                      std::int64_t moves_to_go) {
    const std::int64_t divisor = moves_to_go > 0 ? std::min<std::int64_t>(moves_to_go, 30) : 30;
    std::int64_t share = left / divisor + increment * 3 / 4;
    share = std::min(share, left / 2);
    return std::chrono::milliseconds(std::max<std::int64_t>(share, 5));
}

std::string info_line(const core::engine::SearchResult& r) {
    std::ostringstream line;
    const auto micros = std::max<std::int64_t>(r.elapsed.count(), 1);
    line << "info depth " << r.depth << " score ";
    if (r.mate_in) {
        line << "mate " << *r.mate_in;
    } else {
        line << "cp " << r.score_cp;
    }
    line << " nodes " << r.nodes << " nps "
         << static_cast<std::uint64_t>(static_cast<double>(r.nodes) * 1e6 / micros) << " time "
         << micros / 1000 << " pv";
    for (const auto& move : r.pv) {
        line << ' ' << move;
    }
    return line.str();
}

}  // namespace

UciSession::UciSession(std::ostream& out)
    : out_(out), engine_(std::make_unique<core::engine::Engine>()) {
    set_position({"position", "startpos"});
}

UciSession::~UciSession() {
    stop_search();
}

void UciSession::send(const std::string& line) {
    const std::lock_guard lock(out_mutex_);
    out_ << line << '\n' << std::flush;
}

bool UciSession::handle(const std::string& line) {
    const Words words = split(line);
    if (words.empty()) {
        return true;
    }
    const std::string& command = words[0];
    if (command == "uci") {
        identify();
    } else if (command == "isready") {
        send("readyok");
    } else if (command == "setoption") {
        stop_search();
        set_option(words);
    } else if (command == "ucinewgame") {
        stop_search();
        engine_->new_game();
    } else if (command == "position") {
        stop_search();
        set_position(words);
    } else if (command == "go") {
        stop_search();
        go(words);
    } else if (command == "stop") {
        stop_search();
    } else if (command == "quit") {
        stop_search();
        return false;
    } else if (command != "ponderhit" && command != "debug" && command != "register") {
        error("unknown command '" + command + "'");
    }
    return true;
}

void UciSession::identify() {
    send("id name Chessence Server engine");
    send("id author the Chessence Server contributors");
    send(
        "option name UCI_Variant type combo default chessence var chessence var chesica var "
        "sniderman");
    send("option name Hash type spin default 16 min 1 max 4096");
    send("option name Level type spin default 8 min 1 max 8");
    send("option name Object type spin default 1 min 1 max 10");
    send("option name Rules type combo default house var house var strict");
    send("option name Seed type spin default 0 min 0 max 2147483647");
    send("uciok");
}

void UciSession::set_option(const Words& words) {
    const std::string name = lower(words_after(words, "name", {"value"}));
    const std::string value = words_after(words, "value", {});
    const auto number = integer(value);
    if (name == "uci_variant") {
        const auto variant = core::parse_variant(lower(value));
        if (!variant) {
            return error("unknown variant '" + value + "' (chessence, chesica, sniderman)");
        }
        variant_ = *variant;
        engine_->new_game();
        set_position({"position", "startpos"});
    } else if (name == "hash") {
        if (!number || *number < 1 || *number > 4096) {
            return error("Hash must be 1 to 4096 (MB), not '" + value + "'");
        }
        engine_->set_hash(static_cast<std::size_t>(*number));
    } else if (name == "level") {
        if (!number || *number < 1 || *number > 8) {
            return error("Level must be 1 to 8, not '" + value + "'");
        }
        level_ = static_cast<int>(*number);
    } else if (name == "object") {
        if (!number || *number < 1 || *number > 10) {
            return error("Object must be 1 to 10, not '" + value + "'");
        }
        object_ = static_cast<int>(*number);
        set_position(last_position_);
    } else if (name == "rules") {
        const auto rules = core::parse_rule_set(lower(value));
        if (!rules) {
            return error("Rules must be house or strict, not '" + value + "'");
        }
        rules_ = *rules;
        set_position(last_position_);
    } else if (name == "seed") {
        if (!number || *number < 0) {
            return error("Seed must be a whole number from 0, not '" + value + "'");
        }
        seed_ = static_cast<std::uint64_t>(*number);
    } else {
        error("unknown option '" + name + "'");
    }
}

void UciSession::set_position(const Words& words) {
    last_position_ = words;
    game_.reset();
    core::GameOptions options;
    options.rules = rules_;
    options.object = variant_ == core::VariantId::sniderman ? object_ : 0;
    if (words.size() >= 2 && words[1] == "fen") {
        options.fen = words_after(words, "fen", {"moves"});
    } else if (words.size() >= 2 && words[1] == "startpos") {
        if (variant_ == core::VariantId::sniderman) {
            options.fen = std::string(core::sniderman::reference_fen);
        }
    } else {
        return error("position needs 'startpos' or 'fen <position string>'");
    }
    auto game = core::make_game(variant_, options);
    if (!game) {
        return error("bad position: " + game.error());
    }
    const auto moves_at = std::find(words.begin(), words.end(), "moves");
    for (auto it = moves_at == words.end() ? moves_at : moves_at + 1; it != words.end(); ++it) {
        const auto played = (*game)->play(*it);
        if (!played) {
            return error("illegal move '" + *it + "': " + played.error());
        }
    }
    game_ = std::move(*game);
}

void UciSession::go(const Words& words) {
    if (!game_) {
        error("no position to search: the last 'position' was refused");
        return send("bestmove 0000");
    }
    if (const auto outcome = game_->outcome()) {
        error("the game is over (" + outcome->reason + ")");
        return send("bestmove 0000");
    }
    std::int64_t clock[2] = {-1, -1}, increment[2] = {0, 0}, moves_to_go = 0;
    core::engine::SearchLimits limits;
    bool infinite = words.size() == 1;
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (words[i] == "infinite") {
            infinite = true;
            continue;
        }
        if (words[i] == "ponder") {
            continue;
        }
        const auto value = i + 1 < words.size() ? integer(words[i + 1]) : std::nullopt;
        if (!value || *value < 0) {
            error("'go " + words[i] + "' needs a whole number from 0");
            return send("bestmove 0000");
        }
        const std::string& key = words[i++];
        if (key == "movetime") {
            limits.move_time = std::chrono::milliseconds(std::max<std::int64_t>(*value, 1));
        } else if (key == "wtime" || key == "btime") {
            clock[key == "wtime" ? 0 : 1] = *value;
        } else if (key == "winc" || key == "binc") {
            increment[key == "winc" ? 0 : 1] = *value;
        } else if (key == "movestogo") {
            moves_to_go = *value;
        } else if (key == "depth") {
            limits.max_depth = static_cast<int>(std::clamp<std::int64_t>(*value, 1, 90));
        } else if (key == "nodes") {
            limits.max_nodes = static_cast<std::uint64_t>(std::max<std::int64_t>(*value, 1));
        } else if (key != "mate") {
            error("unknown 'go' parameter '" + key + "'");
        }
    }
    const int us = game_->to_move() == core::Side::first ? 0 : 1;
    if (limits.move_time.count() == 0 && clock[us] >= 0) {
        limits.move_time = clock_share(clock[us], increment[us], moves_to_go);
    }
    stop_ = false;
    limits.stop = &stop_;
    limits.on_iteration = [this](const core::engine::SearchResult& r) { send(info_line(r)); };
    auto position = game_->clone();
    const std::uint64_t seed = seed_ + searches_++;
    search_ = std::thread([this, position = std::move(position), limits, infinite, seed] {
        const auto result = engine_->choose(*position, level_, limits, seed);
        if (infinite) {
            // UCI: after `go infinite` the best move waits for `stop`.
            std::unique_lock lock(stop_mutex_);
            stop_signal_.wait(lock, [this] { return stop_.load(); });
        }
        if (!result) {
            error(result.error());
            return send("bestmove 0000");
        }
        send(info_line(*result));
        send("bestmove " + result->best_move);
    });
}

void UciSession::stop_search() {
    if (!search_.joinable()) {
        return;
    }
    {
        const std::lock_guard lock(stop_mutex_);
        stop_ = true;
    }
    stop_signal_.notify_all();
    search_.join();
}

}  // namespace cli
