// Many rooms commit multi-write batches at once; the process is killed with SIGKILL in the middle.
// When the file is opened again every batch that was acknowledged is there, and every batch is
// all or nothing: a game has a game_over event exactly when it is finished, a created game always
// has its first event, and Sniderman's move/round_over/round_started triples are never split.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "protocol/events.h"
#include "server/storage_test_util.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_store.h"

namespace {

namespace ev = protocol::events;
using server::AppendEvents;
using server::CreateGame;
using server::FinishGame;

constexpr int rooms = 12;  // even rooms play chess-like games, odd rooms Sniderman-like matches

// What a room reports once a batch is acknowledged: the game and its last version so far.
struct Ack {
    std::int32_t room = 0;
    std::int32_t game = 0;
    std::int32_t version = 0;
    std::int32_t finished = 0;
};

std::string game_id(int attempt, int room, int game) {
    return "g_" + std::to_string(attempt) + "_" + std::to_string(room) + "_" + std::to_string(game);
}

std::string text(const ev::RoomEvent& event) {
    return ev::encode_event_text(event);
}

const ev::Result result{"player0", "match_won"};
const std::string result_text = ev::result_json(result).dump();

// A room in the forked child: plays games one after another, each batch committed and
// acknowledged (to `ack_fd`, one atomic pipe write) before the next, until the process is killed.
void play_room(server::Store& store, int attempt, int room, int ack_fd) {
    const bool sniderman = room % 2 == 1;
    for (int game = 0;; ++game) {
        const auto id = game_id(attempt, room, game);
        server::GameRecord record;
        record.id = id;
        record.variant = sniderman ? "sniderman" : "chessence";
        record.rules = "house";
        record.seats = {"p_a", "p_b"};
        std::int32_t version = 0;
        const auto commit = [&](server::WriteBatch batch, std::int32_t last, bool finished) {
            if (!store.commit_sync(std::move(batch))) {
                _exit(4);
            }
            version = last;
            const Ack ack{room, game, version, finished ? 1 : 0};
            if (write(ack_fd, &ack, sizeof ack) != sizeof ack) {
                _exit(5);
            }
        };
        const auto move = [&](int ply) { return text(ev::Move{"a1xb2", "odd", "player0", ply}); };
        const int steps = 2 + (room + game) % 4;
        if (!sniderman) {
            commit({CreateGame{record}, AppendEvents{id, 1, {move(1)}}}, 1, false);
            for (int ply = 2; ply <= steps; ++ply) {
                commit({AppendEvents{id, ply, {move(ply)}}}, ply, false);
            }
            commit({AppendEvents{id, version + 1, {move(version + 1), text(ev::GameOver{result})}},
                    FinishGame{id, result_text, 1700000000}},
                   version + 2, true);
            continue;
        }
        commit(
            {CreateGame{record}, AppendEvents{id, 1, {text(ev::RoundStarted{1, "x", "player0"})}}},
            1, false);
        for (int round = 1; round <= steps; ++round) {
            const bool last = round == steps;
            const auto over = text(ev::RoundOver{round, "odd", "player0", {round, 0}});
            const auto next = last ? text(ev::GameOver{result})
                                   : text(ev::RoundStarted{round + 1, "x", "player1"});
            server::WriteBatch batch{AppendEvents{id, version + 1, {move(1), over, next}}};
            if (last) {
                batch.push_back(FinishGame{id, result_text, 1700000000});
            }
            commit(std::move(batch), version + 3, last);
        }
    }
}

[[noreturn]] void play_until_killed(const std::string& path, int attempt, int ack_fd) {
    auto store = server::open_sqlite_store(path);
    if (!store) {
        _exit(3);
    }
    std::vector<std::thread> threads;
    for (int room = 0; room < rooms; ++room) {
        threads.emplace_back([&, room] { play_room(**store, attempt, room, ack_fd); });
    }
    for (auto& t : threads) {
        t.join();
    }
    _exit(6);
}

std::string kind_of(const std::string& json) {
    auto event = ev::decode_event_text(json);
    EXPECT_TRUE(event.ok()) << json;
    return event.ok() ? std::string(ev::kind_name(*event)) : "";
}

// Checks that every batch of one game is all there or not at all.
void expect_whole_batches(server::Store& store, const std::string& id) {
    SCOPED_TRACE(id);
    const auto game = store.game(id).value();
    ASSERT_TRUE(game.has_value());
    const auto events = store.events(id).value();
    ASSERT_FALSE(events.empty()) << "a created game has its first event";
    std::vector<std::string> kinds;
    for (std::size_t i = 0; i < events.size(); ++i) {
        ASSERT_EQ(events[i].version, static_cast<std::int64_t>(i + 1));
        kinds.push_back(kind_of(events[i].json));
    }
    const bool over = kinds.back() == "game_over";
    EXPECT_EQ(over, game->status == "finished") << "game_over is stored with the finished mark";
    if (over) {
        EXPECT_EQ(game->result_json, result_text);
    }
    if (game->variant == "chessence") {
        for (std::size_t i = 0; i + 1 < kinds.size(); ++i) {
            EXPECT_EQ(kinds[i], "move") << i;
        }
        return;
    }
    EXPECT_EQ(kinds[0], "round_started");
    ASSERT_EQ((kinds.size() - 1) % 3, 0u) << "a triple was split";
    for (std::size_t i = 1; i < kinds.size(); i += 3) {
        EXPECT_EQ(kinds[i], "move");
        EXPECT_EQ(kinds[i + 1], "round_over");
        EXPECT_EQ(kinds[i + 2], i + 3 == kinds.size() && over ? "game_over" : "round_started");
    }
}

bool read_ack(int fd, Ack& ack) {
    auto* bytes = reinterpret_cast<char*>(&ack);
    std::size_t got = 0;
    while (got < sizeof ack) {
        const auto n = read(fd, bytes + got, sizeof ack - got);
        if (n <= 0) {
            return false;
        }
        got += static_cast<std::size_t>(n);
    }
    return true;
}

TEST(SqliteStoreCrash, EveryAcknowledgedBatchSurvivesSigkillWhole) {
    storage_test::TempDir dir;
    const auto path = dir.file("batches.db");
    {
        auto store = server::open_sqlite_store(path);
        ASSERT_TRUE(store.ok());
        ASSERT_TRUE((*store)->insert_player({"p_a", "Ann", "ha", 1}).ok());
        ASSERT_TRUE((*store)->insert_player({"p_b", "Bob", "hb", 1}).ok());
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
        SCOPED_TRACE("attempt " + std::to_string(attempt));
        int fds[2];
        ASSERT_EQ(pipe(fds), 0);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            close(fds[0]);
            play_until_killed(path, attempt, fds[1]);
        }
        close(fds[1]);
        std::vector<Ack> acks;
        const std::size_t kill_after = 150 + 200 * static_cast<std::size_t>(attempt);
        Ack ack;
        while (acks.size() < kill_after && read_ack(fds[0], ack)) {
            acks.push_back(ack);
        }
        kill(child, SIGKILL);
        while (read_ack(fds[0], ack)) {  // acknowledged before the kill landed
            acks.push_back(ack);
        }
        close(fds[0]);
        int wstatus = 0;
        ASSERT_EQ(waitpid(child, &wstatus, 0), child);
        ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
            << "the child stopped by itself with status " << wstatus;
        ASSERT_GE(acks.size(), kill_after);

        auto store = server::open_sqlite_store(path);
        ASSERT_TRUE(store.ok()) << store.error();
        for (const auto& a : acks) {
            const auto id = game_id(attempt, a.room, a.game);
            ASSERT_GE((*store)->events(id).value().size(), static_cast<std::size_t>(a.version))
                << id;
            if (a.finished) {
                ASSERT_EQ((*store)->game(id).value()->status, "finished") << id;
            }
        }
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        auto ids = (*db)->prepare("SELECT id FROM games ORDER BY id");
        ASSERT_TRUE(ids.ok());
        int games = 0;
        while ((*ids)->step()) {
            expect_whole_batches(**store, (*ids)->text(0));
            ++games;
        }
        EXPECT_GT(games, rooms);
    }
}

}  // namespace
