#include "tools/load/scenario.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace load {

namespace asio = boost::asio;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Seat {
    std::shared_ptr<Connection> conn;
    std::string side;  // "white"/"black" once a game started
    bool welcomed = false;
};

// One room: two players who play game after game, and its spectators.
struct Room {
    int index = 0;
    std::array<Seat, 2> seats;
    std::vector<std::shared_ptr<Connection>> spectators;
    std::string game_id;
    std::int64_t version = 0;
    int plies = 0;
    bool over = false;
    bool started = false;
    std::map<std::int64_t, Clock::time_point> sent_at;  // event version -> when its move was sent
    std::map<std::int64_t, std::size_t> spectators_seen;
    std::map<std::string, Clock::time_point> acks;  // request id -> sent
};

// A game against the computer: one person who plays game after game and times each reply.
struct ComputerGame {
    int index = 0;
    std::shared_ptr<Connection> conn;
    std::string game_id;
    std::string side;
    std::int64_t version = 0;
    int plies = 0;
    bool over = false;
    bool started = false;
    std::optional<Clock::time_point> sent;  // the person's last move, while the computer answers
};

class Runner {
public:
    explicit Runner(const Options& options) : options_(options), rng_(options.seed), timer_(io_) {}

    Report run() {
        asio::co_spawn(io_, flow(), [this](std::exception_ptr error) {
            if (error) {
                try {
                    std::rethrow_exception(error);
                } catch (const std::exception& e) {
                    report_.failure = e.what();
                }
            }
            for (auto& conn : all_) {
                conn->close();
            }
            io_.stop();
        });
        io_.run();
        return std::move(report_);
    }

private:
    std::shared_ptr<Connection> connect(std::function<void(bool)> opened) {
        std::string forwarded;
        if (options_.spread_addresses) {
            const auto n = all_.size() + 1;
            forwarded = "10." + std::to_string((n >> 16) & 255) + "." +
                        std::to_string((n >> 8) & 255) + "." + std::to_string(n & 255);
        }
        const auto& target = options_.targets[all_.size() % options_.targets.size()];
        auto conn = std::make_shared<Connection>(io_, target, forwarded);
        all_.push_back(conn);
        conn->open(std::move(opened));
        return conn;
    }

    static json hello(const std::string& name) {
        return {{"type", "hello"}, {"protocol", 1}, {"name", name}};
    }

    void count_error(const json& m) {
        if (m.value("type", "") == "error") {
            ++report_.errors[m.value("code", "?")];
        }
    }

    // --- the players
    void start_room(Room& room) {
        for (int s = 0; s < 2; ++s) {
            auto& seat = room.seats[static_cast<std::size_t>(s)];
            const auto name = (s == 0 ? "load_w" : "load_b") + std::to_string(room.index);
            seat.conn = connect([this, &room, s, name](bool ok) {
                if (!ok) {
                    ++failed_;
                    return;
                }
                room.seats[static_cast<std::size_t>(s)].conn->send(hello(name));
            });
            seat.conn->on_message = [this, &room, s](const json& m) { on_player(room, s, m); };
        }
    }

    // White seeks and Black accepts; the room's state starts over when the game starts.
    void new_game(Room& room) {
        room.seats[0].conn->send({{"type", "seek_create"},
                                  {"variant", options_.variant},
                                  {"side", "white"},
                                  {"private", false}});
    }

    void on_player(Room& room, int s, const json& m) {
        auto& seat = room.seats[static_cast<std::size_t>(s)];
        const auto type = m.value("type", "");
        count_error(m);
        if (type == "welcome") {
            seat.welcomed = true;
            if (room.seats[0].welcomed && room.seats[1].welcomed) {
                new_game(room);
            }
        } else if (type == "seek_created" && s == 0) {
            room.seats[1].conn->send({{"type", "seek_accept"}, {"seek_id", m["seek"]["seek_id"]}});
        } else if (type == "game_started") {
            seat.side = m.value("you", "");
            if (room.game_id != m.value("game_id", "")) {
                room.game_id = m.value("game_id", "");
                room.version = 0;
                room.over = false;
                room.plies = 0;
                room.sent_at.clear();
                room.spectators_seen.clear();
                if (room.started) {
                    for (auto& spectator : room.spectators) {
                        spectator->send({{"type", "watch"}, {"game_id", room.game_id}});
                    }
                }
            }
        } else if (type == "snapshot" && m.value("game_id", "") == room.game_id) {
            room.version = std::max<std::int64_t>(room.version, m.value("version", 0));
            if (s == 0 && !room.started) {
                room.started = true;
                ++rooms_started_;
            }
            maybe_move(room, s, m);
        } else if (type == "event" && m.value("game_id", "") == room.game_id) {
            const auto v = m.value("version", std::int64_t{0});
            const auto& event = m["event"];
            const auto kind = event.value("kind", "");
            if (kind == "move" && event.value("by", "") != seat.side) {
                arrived(room.sent_at, v, report_.opponent);
            }
            room.version = std::max(room.version, v);
            if (kind == "game_over") {
                if (!room.over) {
                    room.over = true;
                    if (measuring_) {
                        ++report_.games_finished;
                    }
                }
                if (s == 0) {
                    new_game(room);  // the old game's events may still reach Black: harmless
                }
                return;
            }
            if (kind == "move") {
                maybe_move(room, s, event);
            }
        } else if (type == "ack") {
            if (auto it = room.acks.find(m.value("id", "")); it != room.acks.end()) {
                if (measuring_) {
                    report_.ack.add(Clock::now() - it->second);
                }
                room.acks.erase(it);
            }
        }
    }

    // Runs `play` at once, or after --think-ms (a player's pause before its move).
    void after_thinking(std::function<void()> play) {
        if (options_.think_ms <= 0) {
            play();
            return;
        }
        auto timer = std::make_shared<asio::steady_timer>(io_);
        timer->expires_after(std::chrono::milliseconds(options_.think_ms));
        timer->async_wait([timer, play = std::move(play)](const boost::system::error_code& ec) {
            if (!ec) {
                play();
            }
        });
    }

    // `position` carries to_move and legal (a snapshot, or a move event).
    void maybe_move(Room& room, int s, const json& position) {
        const auto& seat = room.seats[static_cast<std::size_t>(s)];
        if (room.over || position.value("to_move", json()) != json(seat.side)) {
            return;
        }
        const auto legal = position.value("legal", json::array());
        if (!legal.is_array() || legal.empty()) {
            return;
        }
        const auto play = [this, &room, s, legal, version = room.version] {
            if (room.over || room.version != version) {
                return;
            }
            auto& conn = room.seats[static_cast<std::size_t>(s)].conn;
            if (room.plies >= options_.max_plies) {
                conn->send({{"type", "resign"}, {"game_id", room.game_id}});
                return;
            }
            const auto pick = std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_);
            const auto id = "m" + std::to_string(++requests_);
            const auto now = Clock::now();
            room.sent_at[version + 1] = now;
            room.acks[id] = now;
            ++room.plies;
            if (measuring_) {
                ++report_.moves;
            }
            conn->send(
                {{"type", "move"}, {"game_id", room.game_id}, {"move", legal[pick]}, {"id", id}});
        };
        after_thinking(play);
    }

    void arrived(const std::map<std::int64_t, Clock::time_point>& sent_at, std::int64_t version,
                 Latencies& into) {
        if (!measuring_) {
            return;
        }
        if (auto it = sent_at.find(version); it != sent_at.end()) {
            into.add(Clock::now() - it->second);
        }
    }

    // --- the games against the computer
    void start_computer_game(ComputerGame& game) {
        const auto name = "load_c" + std::to_string(game.index);
        game.conn = connect([this, &game, name](bool ok) {
            if (!ok) {
                ++failed_;
                return;
            }
            game.conn->send(hello(name));
        });
        game.conn->on_message = [this, &game](const json& m) { on_computer_game(game, m); };
    }

    void new_computer_game(ComputerGame& game) {
        game.conn->send({{"type", "seek_create"},
                         {"variant", options_.variant},
                         {"opponent", "computer"},
                         {"level", options_.computer_level},
                         {"side", "white"}});
    }

    void on_computer_game(ComputerGame& game, const json& m) {
        const auto type = m.value("type", "");
        count_error(m);
        if (type == "welcome") {
            new_computer_game(game);
        } else if (type == "game_started" && game.game_id != m.value("game_id", "")) {
            game.game_id = m.value("game_id", "");
            game.side = m.value("you", "");
            game.version = 0;
            game.plies = 0;
            game.over = false;
            game.sent.reset();
        } else if (type == "snapshot" && m.value("game_id", "") == game.game_id) {
            game.version = std::max<std::int64_t>(game.version, m.value("version", 0));
            if (!game.started) {
                game.started = true;
                ++computer_started_;
            }
            computer_person_moves(game, m);
        } else if (type == "event" && m.value("game_id", "") == game.game_id) {
            const auto& event = m["event"];
            const auto kind = event.value("kind", "");
            game.version = std::max(game.version, m.value("version", std::int64_t{0}));
            if (kind == "game_over") {
                if (!game.over && measuring_) {
                    ++report_.computer_games_finished;
                }
                game.over = true;
                new_computer_game(game);
            } else if (kind == "move") {
                if (event.value("by", "") != game.side && game.sent) {
                    if (measuring_) {
                        report_.computer_reply.add(Clock::now() - *game.sent);
                    }
                    game.sent.reset();
                }
                computer_person_moves(game, event);
            }
        }
    }

    // The person plays a random legal move when `position` (a snapshot or a move event) says it
    // is to move; at once, or after --think-ms.
    void computer_person_moves(ComputerGame& game, const json& position) {
        if (game.over || position.value("to_move", json()) != json(game.side)) {
            return;
        }
        const auto legal = position.value("legal", json::array());
        if (!legal.is_array() || legal.empty()) {
            return;
        }
        const auto play = [this, &game, legal, version = game.version] {
            if (game.over || game.version != version) {
                return;
            }
            if (game.plies >= options_.max_plies) {
                game.conn->send({{"type", "resign"}, {"game_id", game.game_id}});
                return;
            }
            const auto pick = std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_);
            game.plies += 2;
            game.sent = Clock::now();
            game.conn->send({{"type", "move"}, {"game_id", game.game_id}, {"move", legal[pick]}});
        };
        after_thinking(play);
    }

    // --- the spectators
    void add_spectator(Room& room) {
        const auto name = "load_s" + std::to_string(all_.size() + 1);
        auto conn = connect([this](bool ok) { failed_ += ok ? 0 : 1; });
        conn->send(hello(name));
        std::weak_ptr<Connection> weak = conn;
        // A scan of the text, not a parse: only an event's game, kind and version matter here.
        conn->on_text = [this, &room, weak](std::string_view text) {
            const auto has = [&](std::string_view part) {
                return text.find(part) != std::string_view::npos;
            };
            if (has(R"("type":"event")")) {
                if (!has(R"("kind":"move")") || !has("\"" + room.game_id + "\"")) {
                    return;
                }
                const auto at = text.find(R"("version":)");  // the frame's, before its event
                if (at == std::string_view::npos) {
                    return;
                }
                const auto v = std::strtoll(text.data() + at + 10, nullptr, 10);
                if (++room.spectators_seen[v] == room.spectators.size()) {
                    arrived(room.sent_at, v, report_.last_spectator);
                    room.spectators_seen.erase(v);
                }
            } else if (has(R"("type":"welcome")")) {
                if (auto c = weak.lock()) {
                    c->send({{"type", "watch"}, {"game_id", room.game_id}});
                }
            } else if (has(R"("type":"snapshot")")) {
                ++spectators_joined_;
            } else if (has(R"("type":"error")")) {
                count_error(json::parse(text, nullptr, false));
            }
        };
        room.spectators.push_back(conn);
    }

    // --- waiting
    asio::awaitable<void> sleep(std::chrono::milliseconds ms) {
        timer_.expires_after(ms);
        co_await timer_.async_wait(asio::use_awaitable);
    }

    // Polls `done` every 10 ms; throws with `what` when the setup takes too long.
    asio::awaitable<void> until(const std::function<bool()>& done, const std::string& what) {
        while (!done()) {
            if (Clock::now() > setup_deadline_) {
                throw std::runtime_error("setup timed out waiting for " + what);
            }
            if (failed_ > 0) {
                throw std::runtime_error(std::to_string(failed_) +
                                         " connection(s) could not be opened (" + what + ")");
            }
            co_await sleep(std::chrono::milliseconds(10));
        }
    }

    asio::awaitable<void> flow() {
        setup_deadline_ = Clock::now() + options_.setup_timeout;
        // Lobby subscribers first, so that they see every game come.
        for (int i = 0; i < options_.lobby; ++i) {
            auto conn = connect([](bool) {});
            conn->send(hello("load_l" + std::to_string(i)));
            std::weak_ptr<Connection> weak = conn;
            conn->on_message = [this, weak](const json& m) {
                count_error(m);
                if (m.value("type", "") == "welcome") {
                    if (auto c = weak.lock()) {
                        c->send({{"type", "lobby_subscribe"}});
                    }
                } else if (m.value("type", "") == "lobby") {
                    ++lobby_ready_;
                }
            };
            lobby_.push_back(conn);
        }
        co_await until([&] { return lobby_ready_ == options_.lobby; }, "the lobby subscribers");

        rooms_.resize(static_cast<std::size_t>(options_.rooms));
        for (int r = 0; r < options_.rooms; ++r) {
            rooms_[static_cast<std::size_t>(r)].index = r;
            start_room(rooms_[static_cast<std::size_t>(r)]);
        }
        co_await until([&] { return rooms_started_ == options_.rooms; }, "the games to start");

        computer_games_.resize(static_cast<std::size_t>(options_.computer));
        for (int c = 0; c < options_.computer; ++c) {
            computer_games_[static_cast<std::size_t>(c)].index = c;
            start_computer_game(computer_games_[static_cast<std::size_t>(c)]);
        }
        co_await until([&] { return computer_started_ == options_.computer; },
                       "the games against the computer to start");

        // Spectators join `join_batch` at a time, round the rooms.
        const int total = options_.rooms * options_.spectators;
        for (int joined = 0; joined < total;) {
            const int batch = std::min(options_.join_batch, total - joined);
            for (int i = 0; i < batch; ++i, ++joined) {
                add_spectator(rooms_[static_cast<std::size_t>(joined % options_.rooms)]);
            }
            co_await until([&] { return spectators_joined_ >= joined; }, "the spectators");
        }

        if (total > 0) {
            co_await sleep(std::chrono::milliseconds(1000));  // a throttled count arrives
            for (const auto& room : rooms_) {
                for (const auto& spectator : room.spectators) {
                    report_.spectator_frames_joining += spectator->frames_received();
                }
            }
        }

        if (options_.idle > 0) {
            const auto before = read_server(options_.metrics, options_.pid);
            int opened = 0;
            for (int i = 0; i < options_.idle; ++i) {
                connect([this, &opened](bool ok) {
                    opened += ok ? 1 : 0;
                    failed_ += ok ? 0 : 1;
                });
                if (i % 200 == 199) {
                    co_await until([&] { return opened >= i + 1; }, "the idle connections");
                }
            }
            co_await until([&] { return opened == options_.idle; }, "the idle connections");
            co_await sleep(std::chrono::milliseconds(1000));
            const auto after = read_server(options_.metrics, options_.pid);
            if (before && after) {
                report_.idle_bytes_each =
                    (after->resident_bytes - before->resident_bytes) / options_.idle;
            }
        }
        report_.setup_complete = true;

        // The measured window.
        std::vector<std::uint64_t> lobby_frames_before;
        for (const auto& conn : lobby_) {
            lobby_frames_before.push_back(conn->frames_received());
        }
        const auto start_figures = read_server(options_.metrics, options_.pid);
        const auto started = Clock::now();
        measuring_ = true;
        co_await sleep(std::chrono::milliseconds(static_cast<int>(options_.seconds * 1000)));
        measuring_ = false;
        report_.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        const auto end_figures = read_server(options_.metrics, options_.pid);
        if (start_figures && end_figures && report_.moves > 0) {
            report_.cpu_us_per_move = (end_figures->cpu_seconds - start_figures->cpu_seconds) *
                                      1e6 / static_cast<double>(report_.moves);
        }
        double lobby_frames = 0;
        for (std::size_t i = 0; i < lobby_.size(); ++i) {
            lobby_frames +=
                static_cast<double>(lobby_[i]->frames_received() - lobby_frames_before[i]);
        }
        report_.lobby_frames_each = lobby_.empty() ? 0 : lobby_frames / lobby_.size();
        report_.connections = all_.size();
        for (const auto& conn : all_) {
            report_.connections_open += conn->is_open() ? 1 : 0;
        }
        for (const auto& room : rooms_) {
            report_.players += 2;
            for (const auto& seat : room.seats) {
                report_.players_open += seat.conn->is_open() ? 1 : 0;
            }
        }
    }

    Options options_;
    asio::io_context io_;
    std::mt19937 rng_;
    asio::steady_timer timer_;
    Report report_;
    std::vector<std::shared_ptr<Connection>> all_;
    std::vector<std::shared_ptr<Connection>> lobby_;
    std::vector<Room> rooms_;
    std::vector<ComputerGame> computer_games_;
    Clock::time_point setup_deadline_;
    bool measuring_ = false;
    int failed_ = 0;
    int lobby_ready_ = 0;
    int rooms_started_ = 0;
    int computer_started_ = 0;
    int spectators_joined_ = 0;
    std::uint64_t requests_ = 0;
};

}  // namespace

Report run(const Options& options) {
    return Runner(options).run();
}

}  // namespace load
