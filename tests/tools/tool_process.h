#pragma once
// The tools' tests run the `chessence` tool as a separate process, the way a user or a script
// does: its output (standard error with it) and its exit status.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace tool_test {

struct ToolRun {
    std::string out;  // standard output and error
    int status = -1;  // the exit status; -1 when it could not start or did not exit by itself
};

// Runs `command` with the shell and reads everything it prints on standard output.
inline ToolRun run_shell(const std::string& command) {
    ToolRun run;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return run;
    }
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        run.out.append(buffer, n);
    }
    const int status = ::pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

// Runs `chessence <arguments>` (already quoted for the shell) from the build's bin folder.
inline ToolRun run_chessence(const std::string& arguments) {
    return run_shell(std::string(CHESSENCE_BIN_DIR) + "/chessence " + arguments + " 2>&1");
}

}  // namespace tool_test
