// The chessence-server program: port 0 with the "listening on" line, clean and fast shutdown on
// SIGTERM (clients hear server_restart, then 1012), exit codes for bad configuration and an
// unusable database.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "server/test_support.h"

namespace {

const std::string server_binary = std::string(CHESSENCE_BIN_DIR) + "/chessence-server";

struct Child {
    pid_t pid = -1;
    FILE* out = nullptr;
};

// Starts the server with `args`; its stdout (and, with `with_stderr`, its stderr too) is readable
// through `out`; otherwise stderr is discarded.
Child spawn(const std::vector<std::string>& args, bool with_stderr = false) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        return {};
    }
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipe_fds[1], STDOUT_FILENO);
        if (with_stderr) {
            dup2(pipe_fds[1], STDERR_FILENO);
        } else {
            std::freopen("/dev/null", "w", stderr);
        }
        close(pipe_fds[0]);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(server_binary.c_str()));
        for (const auto& a : args) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        execv(server_binary.c_str(), argv.data());
        _exit(127);
    }
    close(pipe_fds[1]);
    return {pid, fdopen(pipe_fds[0], "r")};
}

int wait_exit(pid_t pid, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return -1;
}

TEST(ServerProgram, ListensOnAFreePortAndStopsCleanlyOnSigterm) {
    const auto root =
        std::filesystem::temp_directory_path() / ("cs_main_" + std::to_string(getpid()));
    std::filesystem::create_directories(root);
    auto child = spawn(
        {"--port", "0", "--bind", "127.0.0.1", "--db", ":memory:", "--web-root", root.string()});
    ASSERT_GT(child.pid, 0);
    char line[256] = {};
    ASSERT_NE(std::fgets(line, sizeof line, child.out), nullptr);
    std::smatch m;
    const std::string text(line);
    ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(listening on 127\.0\.0\.1:(\d+))")))
        << text;
    const auto port = static_cast<std::uint16_t>(std::stoi(m[1]));
    EXPECT_GT(port, 0);
    EXPECT_EQ(test::http_get(port, "/healthz").status, 200);
    test::WsClient client(port);
    client.hello();
    const auto started = std::chrono::steady_clock::now();
    kill(child.pid, SIGTERM);
    EXPECT_EQ(client.wait_type("server_restart")["reconnect_ms"], 3000);
    EXPECT_TRUE(client.wait_closed());
    EXPECT_EQ(client.close_code(), 1012);
    EXPECT_EQ(wait_exit(child.pid, std::chrono::seconds(5)), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
    std::fclose(child.out);
    std::filesystem::remove_all(root);
}

// Reads everything the child writes (stdout, and stderr when spawned with it) until it exits.
std::string read_all(FILE* out) {
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, out) != nullptr) {
        output += buffer;
    }
    return output;
}

TEST(ServerProgram, BadConfigurationExitsWithTwoNamingTheFlag) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--port", "99999"}, {"--rate", "fast"}, {"--nonsense"}, {"--log-level", "loud"}}) {
        auto child = spawn(args, true);
        const auto output = read_all(child.out);
        EXPECT_EQ(wait_exit(child.pid, std::chrono::seconds(5)), 2) << args[0];
        EXPECT_NE(output.find(args[0]), std::string::npos) << output;
        std::fclose(child.out);
    }
}

TEST(ServerProgram, HelpPrintsUsageAndExitsWithZero) {
    auto child = spawn({"--help"});
    const auto output = read_all(child.out);
    EXPECT_EQ(wait_exit(child.pid, std::chrono::seconds(5)), 0);
    std::fclose(child.out);
    EXPECT_NE(output.find("--port"), std::string::npos) << output;
    EXPECT_NE(output.find("CHESSENCE_DB"), std::string::npos) << output;
    EXPECT_EQ(output.find("listening on"), std::string::npos) << output;
}

TEST(ServerProgram, UnusableDatabaseExitsWithOne) {
    // A directory is not a database file.
    const auto dir = std::filesystem::temp_directory_path() / ("cs_db_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto child = spawn({"--port", "0", "--db", dir.string()});
    EXPECT_EQ(wait_exit(child.pid, std::chrono::seconds(5)), 1);
    std::fclose(child.out);
    std::filesystem::remove_all(dir);
}

TEST(ServerProgram, CorruptDatabaseFileIsAClearStartupError) {
    const auto path =
        std::filesystem::temp_directory_path() / ("cs_corrupt_" + std::to_string(getpid()) + ".db");
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        for (int i = 0; i < 8192; ++i) {
            std::fputc((i * 131 + 17) % 256, f);
        }
        std::fclose(f);
    }
    auto child = spawn({"--port", "0", "--db", path.string()}, true);
    const auto output = read_all(child.out);
    EXPECT_EQ(wait_exit(child.pid, std::chrono::seconds(5)), 1);
    std::fclose(child.out);
    EXPECT_NE(output.find("cannot open the database " + path.string()), std::string::npos)
        << output;
    EXPECT_TRUE(std::regex_search(output, std::regex("not a SQLite database|corrupt"))) << output;
    std::filesystem::remove(path);
}

}  // namespace
