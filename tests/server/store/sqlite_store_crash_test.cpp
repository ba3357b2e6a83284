// A writer killed with SIGKILL in the middle of a stream of appends loses nothing it was told is
// stored: every append that returned ok is in the file when it is opened again.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"

namespace {

// Runs in the forked child: opens its own connection and appends until killed, writing each
// acknowledged version (as 8 bytes) to `ack_fd` only after append_event returned ok.
std::string event_json(std::int64_t version) {
    return "{\"kind\":\"move\",\"ply\":" + std::to_string(version) + "}";
}

[[noreturn]] void append_forever(const std::string& path, std::int64_t first, int ack_fd) {
    auto store = server::open_sqlite_store(path);
    if (!store) {
        _exit(3);
    }
    for (std::int64_t version = first;; ++version) {
        if (!(*store)->append_event("g_crash", version, event_json(version))) {
            _exit(4);
        }
        if (write(ack_fd, &version, sizeof version) != sizeof version) {
            _exit(5);
        }
    }
}

TEST(SqliteStoreCrash, EveryAcknowledgedAppendSurvivesSigkill) {
    storage_test::TempDir dir;
    const auto path = dir.file("crash.db");
    {
        auto store = server::open_sqlite_store(path);
        ASSERT_TRUE(store.ok());
        ASSERT_TRUE((*store)->insert_player({"p_1", "Ann", "h1", 1}).ok());
        server::GameRecord g;
        g.id = "g_crash";
        g.variant = "chessence";
        g.rules = "house";
        g.seats = {"p_1", "p_1"};
        ASSERT_TRUE((*store)->create_game(g).ok());
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
        SCOPED_TRACE("attempt " + std::to_string(attempt));
        auto before = server::open_sqlite_store(path);
        ASSERT_TRUE(before.ok());
        const auto base = static_cast<std::int64_t>((*before)->events("g_crash").value().size());
        before->reset();

        int fds[2];
        ASSERT_EQ(pipe(fds), 0);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            close(fds[0]);
            append_forever(path, base + 1, fds[1]);
        }
        close(fds[1]);
        // Let the child get well into its stream, then kill it without warning.
        std::int64_t acked = base;
        const std::int64_t kill_after = base + 20 + attempt * 15;
        std::int64_t version = 0;
        while (acked < kill_after && read(fds[0], &version, sizeof version) == sizeof version) {
            acked = version;
        }
        kill(child, SIGKILL);
        // Acknowledgements already in the pipe when the kill landed count too.
        while (read(fds[0], &version, sizeof version) == sizeof version) {
            acked = version;
        }
        close(fds[0]);
        int wstatus = 0;
        ASSERT_EQ(waitpid(child, &wstatus, 0), child);
        ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
            << "the child stopped by itself with status " << wstatus;
        ASSERT_GE(acked, kill_after);

        auto after = server::open_sqlite_store(path);
        ASSERT_TRUE(after.ok()) << after.error();
        const auto events = (*after)->events("g_crash").value();
        ASSERT_GE(static_cast<std::int64_t>(events.size()), acked);
        for (std::size_t i = 0; i < events.size(); ++i) {
            ASSERT_EQ(events[i].version, static_cast<std::int64_t>(i + 1)) << "no gap, no reorder";
            ASSERT_EQ(events[i].json, event_json(static_cast<std::int64_t>(i + 1)));
        }
        // The stream continues where the killed writer stopped.
        const auto next = static_cast<std::int64_t>(events.size()) + 1;
        EXPECT_TRUE((*after)->append_event("g_crash", next, event_json(next)).ok());
    }
}

}  // namespace
