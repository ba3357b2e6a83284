// The move frame's fast road (read_move_frame) reads what the general road (parse_request_tree)
// reads, the same way: over random frames built from keys and values of every kind (escapes,
// UTF-8, numbers JSON writes and numbers it does not, duplicates, other keys, whitespace), every
// frame the fast road takes is a valid move request, equal field by field to the tree's reading.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "protocol/requests.h"

namespace {

using protocol::Request;

void expect_same_request(const Request& fast, const Request& tree, const std::string& frame) {
    EXPECT_EQ(fast.type, tree.type) << frame;
    EXPECT_EQ(fast.id, tree.id) << frame;
    EXPECT_EQ(fast.id.type(), tree.id.type()) << frame;
    EXPECT_EQ(fast.id.dump(), tree.id.dump()) << frame;
    EXPECT_EQ(fast.game_id, tree.game_id) << frame;
    EXPECT_EQ(fast.move, tree.move) << frame;
}

TEST(MoveFrame, TheFramesClientsSendTakeTheFastRoad) {
    for (const std::string frame :
         {R"({"type":"move","game_id":"g_1","move":"e3-e4"})",
          R"({"type":"move","game_id":"g_1","move":"N@c3","id":7})",
          R"({ "id" : "a b" , "move" : "a1xb2" , "game_id" : "g_2" , "type" : "move" })",
          "{\"type\":\"move\",\n\t\"game_id\":\"g\",\"move\":\"m\",\"id\":-4}\r\n"}) {
        const auto fast = protocol::read_move_frame(frame);
        ASSERT_TRUE(fast) << frame;
        const auto tree = protocol::parse_request_tree(frame);
        ASSERT_TRUE(std::holds_alternative<Request>(tree)) << frame;
        expect_same_request(*fast, std::get<Request>(tree), frame);
    }
}

TEST(MoveFrame, RandomFramesReadTheSameOnBothRoads) {
    const std::vector<std::string> keys = {"type", "game_id", "move", "id", "other", "Type"};
    const std::vector<std::string> values = {R"("move")",
                                             R"("g_1")",
                                             R"("e3-e4")",
                                             R"("")",
                                             "0",
                                             "12",
                                             "-3",
                                             "01",
                                             "1.5",
                                             "1e3",
                                             "-0",
                                             "123456789012345678",
                                             "1234567890123456789",
                                             R"("a\"b")",
                                             R"("é")",
                                             "null",
                                             "true",
                                             "[]",
                                             "{}",
                                             R"("\u0041")",
                                             "\"" + std::string(64, 'x') + "\"",
                                             "\"" + std::string(65, 'x') + "\"",
                                             R"("a	b")",
                                             R"("watch")"};
    const std::vector<std::string> spaces = {"", "", "", "", "", "", " ", "\n", "\t ", "\r"};
    std::mt19937 rng(3);
    const auto pick = [&](const auto& list) {
        return list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)];
    };
    int fast_taken = 0;
    int fast_left = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string frame = pick(spaces) + "{";
        // Mostly the three keys of a move in some order, sometimes with id, others or repeats.
        std::vector<std::string> chosen = {"type", "game_id", "move"};
        if (rng() % 2) {
            chosen.push_back("id");
        }
        if (rng() % 4 == 0) {
            chosen.push_back(pick(keys));
        }
        if (rng() % 8 == 0) {
            chosen.erase(chosen.begin() + static_cast<long>(rng() % chosen.size()));
        }
        std::shuffle(chosen.begin(), chosen.end(), rng);
        for (std::size_t k = 0; k < chosen.size(); ++k) {
            std::string value;
            if (chosen[k] == "type") {
                value = rng() % 6 ? R"("move")" : pick(values);
            } else if (chosen[k] == "id") {
                value = rng() % 2 ? std::to_string(rng() % 1000) : pick(values);
            } else {
                value = pick(values);
                if (rng() % 3) {
                    value = "\"g_";
                    value += std::to_string(rng() % 100);
                    value += '"';
                }
            }
            frame.append(k ? "," : "").append(pick(spaces)).append("\"").append(chosen[k]);
            frame.append("\"").append(pick(spaces)).append(":").append(pick(spaces));
            frame.append(value).append(pick(spaces));
        }
        frame += '}';
        frame += pick(spaces);
        if (rng() % 20 == 0) {
            frame += pick(values);  // something after the object
        }
        if (rng() % 20 == 0) {
            frame.insert(rng() % frame.size(), 1, "\x01\x7f\xc3\0"[rng() % 4]);  // a stray byte
        }
        const auto fast = protocol::read_move_frame(frame);
        const auto tree = protocol::parse_request_tree(frame);
        const auto whole = protocol::parse_request(frame);
        if (!fast) {
            ++fast_left;
            // The general road alone decides; parse_request gives its answer.
            ASSERT_EQ(whole.index(), tree.index()) << frame;
            continue;
        }
        ++fast_taken;
        ASSERT_TRUE(std::holds_alternative<Request>(tree))
            << frame << ": the tree refused what the fast road took: "
            << std::get<protocol::RequestError>(tree).error.message;
        expect_same_request(*fast, std::get<Request>(tree), frame);
        ASSERT_TRUE(std::holds_alternative<Request>(whole));
        expect_same_request(std::get<Request>(whole), std::get<Request>(tree), frame);
    }
    EXPECT_GT(fast_taken, 2000);
    EXPECT_GT(fast_left, 2000);
}

}  // namespace
