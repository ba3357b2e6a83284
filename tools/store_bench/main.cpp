// chessence-store-bench [file]: how fast the SQLite store makes room events durable (WAL mode,
// synchronous=FULL), the cost every accepted move pays before it is acknowledged. Ends with
// `appends_per_s <number>`.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "server/store/sqlite_store.h"

int main(int argc, char** argv) {
    const std::string path =
        argc > 1 ? argv[1]
                 : (std::filesystem::temp_directory_path() / "chessence-store-bench.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) {
        std::filesystem::remove(path + suffix);
    }
    auto store = server::open_sqlite_store(path);
    if (!store) {
        std::cerr << "chessence-store-bench: " << store.error() << "\n";
        return 1;
    }
    const auto fail = [](const core::Status& status) {
        std::cerr << "chessence-store-bench: " << status.error() << "\n";
        return 1;
    };
    for (const char* id : {"p_a", "p_b"}) {
        if (auto status = (*store)->insert_player({id, id, std::string("hash_") + id, 0}); !status) {
            return fail(status);
        }
    }
    server::GameRecord game;
    game.id = "g_bench";
    game.variant = "chessence";
    game.rules = "house";
    game.seats = {"p_a", "p_b"};
    if (auto status = (*store)->create_game(game); !status) {
        return fail(status);
    }
    constexpr int count = 1000;
    const std::string event = R"({"kind":"move","move":"e3-e4","by":"white","ply":1})";
    const auto start = std::chrono::steady_clock::now();
    for (int version = 1; version <= count; ++version) {
        if (auto status = (*store)->append_event(game.id, version, event); !status) {
            return fail(status);
        }
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::cout << count << " durable appends in " << elapsed.count() * 1000 << " ms ("
              << elapsed.count() * 1e6 / count << " us each)\n";
    std::cout << "appends_per_s " << static_cast<long>(count / elapsed.count()) << "\n";
    store->reset();
    for (const char* suffix : {"", "-wal", "-shm"}) {
        std::filesystem::remove(path + suffix);
    }
    return 0;
}
