// chessence-store-bench [file] [seconds]: how many room events per second the SQLite store makes
// durable (WAL mode, synchronous=FULL) while 1, 10 and 100 rooms play at once. Each room behaves
// like a real one: it builds its next batch only after the handler for its previous batch ran, on
// a pool of two threads standing in for the server's I/O threads. A room's game is a CreateGame
// with its first move, 58 single moves, and [move, game_over] with FinishGame; then the next game.
// Prints `events_per_s_rooms_1|10|100 N`, `appends_per_s N` (the 1-room number: each event waits
// for its own fsync) and the latency of reading a game's events (about 60 of them), idle and while
// 100 rooms write.
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/store/sqlite_store.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int plies_per_game = 60;

struct Room {
    std::string prefix;  // game ids: prefix + game number
    int game = 0;
    std::int64_t version = 0;  // events stored in the current game
};

// Rooms commit until stop() and report the events made durable.
class Run {
public:
    Run(server::Store& store, boost::asio::thread_pool& io, int rooms, const std::string& tag)
        : store_(store), io_(io), rooms_(static_cast<std::size_t>(rooms)) {
        for (std::size_t r = 0; r < rooms_.size(); ++r) {
            rooms_[r].prefix = "g_" + tag + "_" + std::to_string(r) + "_";
        }
    }

    void start() {
        started_ = Clock::now();
        in_flight_ = rooms_.size();
        for (auto& room : rooms_) {
            boost::asio::post(io_, [this, &room] { submit(room); });
        }
    }

    // Stops the rooms and waits for their last batches; events per second over the whole run.
    double stop() {
        stopping_ = true;
        std::unique_lock lock(mutex_);
        idle_.wait(lock, [this] { return in_flight_ == 0; });
        const std::chrono::duration<double> elapsed = Clock::now() - started_;
        return static_cast<double>(events_.load()) / elapsed.count();
    }

    // The first game of each room: written before start() returns to the caller's reads.
    std::string first_game(std::size_t room) const { return rooms_[room].prefix + "0"; }
    bool failed() const { return failed_; }

private:
    void submit(Room& room) {
        const auto id = room.prefix + std::to_string(room.game);
        const std::string move = R"({"by":"white","kind":"move","move":"e3-e4","ply":)" +
                                 std::to_string(room.version + 1) + "}";
        server::WriteBatch batch;
        std::int64_t events = 1;
        if (room.version == 0) {
            server::GameRecord game;
            game.id = id;
            game.variant = "chessence";
            game.rules = "house";
            game.seats = {"p_a", "p_b"};
            batch = {server::CreateGame{game}, server::AppendEvents{id, 1, {move}}};
        } else if (room.version + 2 >= plies_per_game) {
            const std::string result = R"({"reason":"checkmate","winner":"white"})";
            batch = {
                server::AppendEvents{id,
                                     room.version + 1,
                                     {move, R"({"kind":"game_over","result":)" + result + "}"}},
                server::FinishGame{id, result, 1700000000}};
            events = 2;
        } else {
            batch = {server::AppendEvents{id, room.version + 1, {move}}};
        }
        store_.commit(std::move(batch), [this, &room, events](core::Status status) {
            if (!status) {
                std::cerr << "chessence-store-bench: " << status.error() << "\n";
                failed_ = true;
            }
            events_ += events;
            room.version += events;
            if (room.version >= plies_per_game) {
                room.version = 0;
                ++room.game;
            }
            if (stopping_ || failed_) {
                std::lock_guard lock(mutex_);
                if (--in_flight_ == 0) {
                    idle_.notify_all();
                }
                return;
            }
            boost::asio::post(io_, [this, &room] { submit(room); });
        });
    }

    server::Store& store_;
    boost::asio::thread_pool& io_;
    std::vector<Room> rooms_;
    Clock::time_point started_;
    std::atomic<long> events_{0};
    std::atomic<bool> stopping_{false};
    std::atomic<bool> failed_{false};
    std::mutex mutex_;
    std::condition_variable idle_;
    std::size_t in_flight_ = 0;
};

// Reads the events of the given games in turn, one read every `pause`, until `stop` or `count`
// reads; each read's latency in microseconds, sorted, or the error of the first read that failed.
// Paced like a server's occasional reads (a reconnecting client, the HTTP API), not a loop that
// would take a core from the writer.
core::Expected<std::vector<double>> read_latencies(server::Store& store,
                                                   const std::vector<std::string>& games,
                                                   const std::atomic<bool>& stop,
                                                   std::size_t count) {
    constexpr auto pause = std::chrono::microseconds(500);
    std::vector<double> micros;
    for (std::size_t i = 0; !games.empty() && !stop && micros.size() < count; ++i) {
        const auto begin = Clock::now();
        if (auto read = store.events(games[i % games.size()]); !read) {
            return core::make_error("reading events: " + read.error());
        }
        micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - begin).count());
        std::this_thread::sleep_for(pause);
    }
    std::sort(micros.begin(), micros.end());
    return micros;
}

long percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) {
        return 0;
    }
    return static_cast<long>(sorted[static_cast<std::size_t>(p * (sorted.size() - 1))]);
}

void remove_database(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
        std::filesystem::remove(path + suffix);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string path =
        argc > 1 ? argv[1]
                 : (std::filesystem::temp_directory_path() / "chessence-store-bench.db").string();
    const double seconds = argc > 2 ? std::stod(argv[2]) : 2.0;
    remove_database(path);
    auto store = server::open_sqlite_store(path);
    if (!store) {
        std::cerr << "chessence-store-bench: " << store.error() << "\n";
        return 1;
    }
    for (const char* id : {"p_a", "p_b"}) {
        if (auto status = (*store)->insert_player({id, id, std::string("hash_") + id, 0});
            !status) {
            std::cerr << "chessence-store-bench: " << status.error() << "\n";
            return 1;
        }
    }
    boost::asio::thread_pool io(2);
    std::vector<std::string> read_games;
    long one_room = 0;
    for (const int rooms : {1, 10, 100}) {
        Run run(**store, io, rooms, std::to_string(rooms));
        run.start();
        core::Expected<std::vector<double>> busy = std::vector<double>{};
        if (rooms == 100) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));  // first games exist
            for (std::size_t r = 0; r < 100; r += 7) {
                read_games.push_back(run.first_game(r));
            }
            std::atomic<bool> stop{false};
            std::thread reader([&] { busy = read_latencies(**store, read_games, stop, 1000000); });
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
            stop = true;
            reader.join();
        } else {
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        }
        const auto per_s = static_cast<long>(run.stop());
        if (run.failed()) {
            return 1;
        }
        std::cout << "events_per_s_rooms_" << rooms << " " << per_s << "\n";
        if (rooms == 1) {
            one_room = per_s;
        }
        if (!busy) {
            std::cerr << "chessence-store-bench: " << busy.error() << "\n";
            return 1;
        }
        if (!busy->empty()) {
            std::cout << "read_us_p50_while_writing " << percentile(*busy, 0.5) << "\n";
            std::cout << "read_us_p99_while_writing " << percentile(*busy, 0.99) << "\n";
        }
    }
    std::atomic<bool> never{false};
    const auto idle = read_latencies(**store, read_games, never, 2000);
    if (!idle) {
        std::cerr << "chessence-store-bench: " << idle.error() << "\n";
        return 1;
    }
    std::cout << "read_us_p50_idle " << percentile(*idle, 0.5) << "\n";
    std::cout << "read_us_p99_idle " << percentile(*idle, 0.99) << "\n";
    std::cout << "appends_per_s " << one_room << "\n";
    io.join();
    store->reset();
    remove_database(path);
    return 0;
}
