#include "players.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sstream>

#include "core/sniderman/sniderman_game.h"

namespace cli {

core::Expected<std::string> EnginePlayer::choose(const core::Game& game,
                                                 const core::engine::SearchLimits& limits,
                                                 std::uint64_t seed) {
    auto result = engine_.choose(game, level_, limits, seed);
    if (!result) {
        return core::make_error(result.error());
    }
    return result->best_move;
}

UciPlayer::UciPlayer(const std::string& program, int level) : program_(program), level_(level) {
    int to_child[2];
    int from_child[2];
    if (::pipe(to_child) != 0) {
        return;
    }
    if (::pipe(from_child) != 0) {
        ::close(to_child[0]);
        ::close(to_child[1]);
        return;
    }
    pid_ = ::fork();
    if (pid_ == 0) {
        ::dup2(to_child[0], STDIN_FILENO);
        ::dup2(from_child[1], STDOUT_FILENO);
        ::close(to_child[1]);
        ::close(from_child[0]);
        ::execl(program.c_str(), program.c_str(), "uci", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
    ::signal(SIGPIPE, SIG_IGN);  // a program that died is an error value, not our death
    send("uci");
    read_until("uciok");
    send("setoption name Level value " + std::to_string(level));
}

UciPlayer::~UciPlayer() {
    if (in_ >= 0) {
        send("quit");
        ::close(in_);
    }
    if (out_ >= 0) {
        ::close(out_);
    }
    if (pid_ > 0) {
        ::waitpid(pid_, nullptr, 0);
    }
}

void UciPlayer::send(const std::string& line) {
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (in_ >= 0 && done < text.size()) {
        const auto n = ::write(in_, text.data() + done, text.size() - done);
        if (n <= 0) {
            return;
        }
        done += static_cast<std::size_t>(n);
    }
}

std::optional<std::string> UciPlayer::read_until(const std::string& prefix) {
    while (out_ >= 0) {
        const auto newline = buffer_.find('\n');
        if (newline == std::string::npos) {
            char chunk[4096];
            const auto n = ::read(out_, chunk, sizeof chunk);
            if (n <= 0) {
                return std::nullopt;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
            continue;
        }
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        if (line.rfind(prefix, 0) == 0) {
            return line;
        }
    }
    return std::nullopt;
}

void UciPlayer::new_game() {
    send("ucinewgame");
}

core::Expected<std::string> UciPlayer::choose(const core::Game& game,
                                              const core::engine::SearchLimits& limits,
                                              std::uint64_t seed) {
    std::ostringstream setup;
    int object = 1;
    if (const auto* round = dynamic_cast<const core::sniderman::SnidermanGame*>(&game)) {
        object = round->object();
    }
    setup << core::variant_name(game.variant()) << ' ' << core::rule_set_name(game.rules()) << ' '
          << object;
    if (setup.str() != configured_) {
        configured_ = setup.str();
        send("setoption name UCI_Variant value " + std::string(core::variant_name(game.variant())));
        send("setoption name Rules value " + std::string(core::rule_set_name(game.rules())));
        send("setoption name Object value " + std::to_string(object));
    }
    send("setoption name Seed value " + std::to_string(seed & 0x7FFFFFFF));
    std::string position = "position fen " + game.start_fen();
    if (!game.moves().empty()) {
        position += " moves";
        for (const auto& move : game.moves()) {
            position += ' ' + move;
        }
    }
    send(position);
    if (limits.max_nodes > 0) {
        send("go nodes " + std::to_string(limits.max_nodes));
    } else {
        send("go movetime " + std::to_string(limits.move_time.count()));
    }
    const auto best = read_until("bestmove ");
    if (!best) {
        return core::make_error(program_ + " stopped answering");
    }
    return best->substr(9, best->find(' ', 9) - 9);
}

}  // namespace cli
