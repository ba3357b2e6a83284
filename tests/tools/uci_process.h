#pragma once
// `chessence uci` as a child process behind two pipes, for the UCI tests: write a command line,
// read reply lines with a time limit (a hung engine fails the test instead of hanging it).
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>

namespace uci_test {

class UciProcess {
public:
    UciProcess() {
        int to_child[2];
        int from_child[2];
        if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) {
            return;
        }
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(to_child[0], STDIN_FILENO);
            ::dup2(from_child[1], STDOUT_FILENO);
            ::close(to_child[1]);
            ::close(from_child[0]);
            const std::string program = std::string(CHESSENCE_BIN_DIR) + "/chessence";
            ::execl(program.c_str(), program.c_str(), "uci", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(to_child[0]);
        ::close(from_child[1]);
        in_ = to_child[1];
        out_ = from_child[0];
    }
    ~UciProcess() {
        if (in_ >= 0) {
            ::close(in_);
        }
        if (pid_ > 0 && !exited_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        if (out_ >= 0) {
            ::close(out_);
        }
    }
    UciProcess(const UciProcess&) = delete;
    UciProcess& operator=(const UciProcess&) = delete;

    bool started() const { return pid_ > 0 && in_ >= 0 && out_ >= 0; }

    void send(const std::string& line) {
        const std::string text = line + "\n";
        std::size_t done = 0;
        while (done < text.size()) {
            const auto n = ::write(in_, text.data() + done, text.size() - done);
            if (n <= 0) {
                return;
            }
            done += static_cast<std::size_t>(n);
        }
    }

    // The next line the engine writes, or nothing if none comes within `limit`.
    std::optional<std::string> read_line(
        std::chrono::milliseconds limit = std::chrono::seconds(30)) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (true) {
            const auto newline = buffer_.find('\n');
            if (newline != std::string::npos) {
                std::string line = buffer_.substr(0, newline);
                buffer_.erase(0, newline + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                return std::nullopt;
            }
            pollfd fd{out_, POLLIN, 0};
            if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) {
                return std::nullopt;
            }
            char chunk[4096];
            const auto n = ::read(out_, chunk, sizeof chunk);
            if (n <= 0) {
                return std::nullopt;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // Lines up to and including the first one that starts with `prefix` (empty if it never
    // comes); `seen` gets every line read.
    std::optional<std::string> read_until(const std::string& prefix, std::string* seen = nullptr) {
        while (const auto line = read_line()) {
            if (seen != nullptr) {
                *seen += *line + "\n";
            }
            if (line->rfind(prefix, 0) == 0) {
                return line;
            }
        }
        return std::nullopt;
    }

    // Closes the engine's input and waits for it to exit; its exit status.
    int finish() {
        ::close(in_);
        in_ = -1;
        int status = 0;
        ::waitpid(pid_, &status, 0);
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    pid_t pid_ = -1;
    int in_ = -1;
    int out_ = -1;
    bool exited_ = false;
    std::string buffer_;
};

}  // namespace uci_test
