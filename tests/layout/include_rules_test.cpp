// Dependencies point one way: core <- protocol <- server, and inside server/ store <- records <-
// game <- net <- the program (server.cpp, config, main). This test reads every source file and
// fails on an include that crosses a line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Include {
    std::string file;
    std::string target;
    bool angled;
};

std::vector<Include> includes_under(const std::string& folder) {
    std::vector<Include> found;
    const std::regex include_line(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    for (const auto& entry :
         fs::recursive_directory_iterator(fs::path(CHESSENCE_SOURCE_DIR) / folder)) {
        const auto ext = entry.path().extension().string();
        if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".hpp")) {
            continue;
        }
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line)) {
            std::smatch m;
            if (std::regex_search(line, m, include_line)) {
                found.push_back({entry.path().string(), m[2].str(), m[1].str() == "<"});
            }
        }
    }
    return found;
}

// The headers of the C++20 standard library (and the C headers it wraps).
const std::set<std::string>& standard_headers() {
    static const std::set<std::string> names = {
        "algorithm",   "any",           "array",         "atomic",       "bit",
        "bitset",      "cassert",       "cctype",        "cerrno",       "charconv",
        "chrono",      "cinttypes",     "climits",       "cmath",        "compare",
        "concepts",    "cstddef",       "cstdint",       "cstdio",       "cstdlib",
        "cstring",     "deque",         "exception",     "functional",   "initializer_list",
        "iomanip",     "ios",           "iosfwd",        "iostream",     "istream",
        "iterator",    "limits",        "list",          "map",          "memory",
        "numeric",     "optional",      "ostream",       "queue",        "random",
        "ranges",      "set",           "span",          "sstream",      "stack",
        "stdexcept",   "string",        "string_view",   "system_error", "tuple",
        "type_traits", "unordered_map", "unordered_set", "utility",      "variant",
        "vector",      "version"};
    return names;
}

TEST(Layout, CoreIncludesOnlyTheStandardLibraryAndItself) {
    const auto found = includes_under("core");
    ASSERT_FALSE(found.empty());
    for (const auto& inc : found) {
        if (inc.angled) {
            EXPECT_TRUE(standard_headers().count(inc.target))
                << inc.file << " includes <" << inc.target << ">";
        } else {
            EXPECT_EQ(inc.target.rfind("core/", 0), 0u)
                << inc.file << " includes \"" << inc.target << "\"";
        }
    }
}

TEST(Layout, ProtocolNeverIncludesServer) {
    for (const auto& inc : includes_under("protocol")) {
        EXPECT_NE(inc.target.rfind("server/", 0), 0u) << inc.file << " includes " << inc.target;
        if (inc.angled) {
            EXPECT_EQ(inc.target.find("boost/"), std::string::npos)
                << inc.file << " includes " << inc.target;
            EXPECT_EQ(inc.target.find("spdlog/"), std::string::npos)
                << inc.file << " includes " << inc.target;
        }
    }
}

// Inside server/: each folder may include itself, the folders below it, and the shared leaves
// server/log.h, server/limits.h, server/guard.h, server/blocking_pool.h (issue 42: the threads
// for blocking calls, which include only guard.h), server/game/time_source.h (the clocks'
// interface, which includes only the standard library: the cluster clock is one) and
// server/metrics/ (what is counted for GET /metrics, which includes nothing else of the server);
// nothing includes the program level (server.h, config.h).
TEST(Layout, ServerFoldersIncludeOnlyDownwards) {
    const std::vector<std::pair<std::string, std::set<std::string>>> allowed = {
        {"metrics", {"metrics"}},
        // Issue 25: the computer players think on values of core and know nothing of rooms.
        {"bots", {"bots", "metrics"}},
        // Issue 25: the puzzle bank, read once at start (a leaf like the bots).
        {"puzzles", {"puzzles"}},
        {"store", {"store", "metrics"}},
        // Issue 27: cluster mode's Redis client and room leases (a leaf: nothing of the server).
        {"cluster", {"cluster"}},
        // Issue 43: the arena machine, pure (core, protocol and Boost headers only).
        {"tournament", {"tournament"}},
        {"records", {"records", "bots", "store", "metrics"}},
        // Issue 25: a game's analysis runs on the bots' pool and is kept in the store.
        {"analysis", {"analysis", "bots", "store", "metrics"}},
        // Issue 43: the rooms and the tournament actors beside them use the arena machine.
        {"game",
         {"game", "tournament", "analysis", "records", "bots", "puzzles", "store", "cluster",
          "metrics"}},
        {"net",
         {"net", "game", "tournament", "analysis", "records", "bots", "puzzles", "store",
          "cluster", "metrics"}},
    };
    for (const auto& [folder, may] : allowed) {
        const auto found = includes_under("server/" + folder);
        ASSERT_FALSE(found.empty()) << "server/" << folder;
        for (const auto& inc : found) {
            if (inc.angled || inc.target.rfind("server/", 0) != 0) {
                continue;
            }
            const std::string rest = inc.target.substr(7);
            if (rest == "log.h" || rest == "limits.h" || rest == "guard.h" ||
                rest == "blocking_pool.h" || rest == "game/time_source.h") {
                continue;
            }
            const auto slash = rest.find('/');
            const std::string target_folder =
                slash == std::string::npos ? "" : rest.substr(0, slash);
            EXPECT_TRUE(may.count(target_folder)) << inc.file << " includes " << inc.target;
        }
    }
}

}  // namespace
