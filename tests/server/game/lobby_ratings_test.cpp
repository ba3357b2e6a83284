// The lobby's rated seeks (server/game/lobby_ratings.cpp): seeks show the creator's rating, a
// rating range keeps others out, and quick pairing takes the closest rating, not the oldest seek.
#include <gtest/gtest.h>

#include <future>

#include "server/game/lobby.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

server::Limits rated_lobby_limits() {
    auto limits = test::fast_limits();
    limits.password_ops = 1;
    limits.password_memory = 8192;
    return limits;
}

class LobbyRatings : public ::testing::Test {
protected:
    std::string account(WsClient& c, const std::string& username) {
        c.hello();
        c.send({{"type", "register"}, {"username", username}, {"password", "long enough"}});
        return c.wait_type("signed_in")["player"]["id"];
    }

    // Gives two players these Chessence ratings, as if they had just played each other.
    void set_ratings(const std::string& a, double ra, const std::string& b, double rb) {
        server::RateGame write;
        write.game_id = "g_seed_" + a;
        write.variant = "chessence";
        write.players = {a, b};
        write.at = 1;
        write.rate = [=](const auto&, std::int64_t) {
            return std::vector<server::RatedSeat>{{{1500, 350, 0.06}, {ra, 60, 0.06}},
                                                  {{1500, 350, 0.06}, {rb, 60, 0.06}}};
        };
        std::promise<core::Status> done;
        server_.store().commit({std::move(write)},
                               [&](core::Status s) { done.set_value(std::move(s)); });
        ASSERT_TRUE(done.get_future().get());
    }

    test::TestServer server_{rated_lobby_limits()};
};

TEST_F(LobbyRatings, QuickPairingTakesTheClosestRatingAndRangesKeepOthersOut) {
    WsClient low(server_.port());
    WsClient high(server_.port());
    WsClient mid(server_.port());
    WsClient fresh(server_.port());
    const auto low_id = account(low, "low");
    const auto high_id = account(high, "high");
    const auto mid_id = account(mid, "mid");
    account(fresh, "fresh");
    set_ratings(low_id, 1300.0, high_id, 1900.0);
    set_ratings(mid_id, 1820.0, low_id, 1300.0);

    low.send({{"type", "seek_create"}, {"variant", "chessence"}, {"rated", true}, {"id", 1}});
    const auto low_seek = low.wait_type("seek_created")["seek"];
    EXPECT_EQ(low_seek["rating"], 1300);
    EXPECT_EQ(low_seek["provisional"], false);
    high.send({{"type", "seek_create"},
               {"variant", "chessence"},
               {"rated", true},
               {"rating_min", 1700},
               {"id", 2}});
    const std::string high_seek = high.wait_type("seek_created")["seek"]["seek_id"];

    fresh.send({{"type", "seek_accept"}, {"seek_id", high_seek}, {"id", 3}});
    EXPECT_EQ(fresh.wait_error(3)["code"], "outside_rating_range");

    // The older seek is low's (1300); mid (1820) is paired with high (1900).
    mid.send({{"type", "quick_pair"}, {"variant", "chessence"}, {"rated", true}, {"id", 4}});
    const std::string game = mid.wait_type("game_started")["game_id"];
    EXPECT_EQ(high.wait_type("game_started")["game_id"], game);
    const auto record = server_.store().game(game).value();
    ASSERT_TRUE(record.has_value());
    EXPECT_TRUE(record->rated);

    // A casual quick pairing does not take a rated seek: it creates its own.
    fresh.send({{"type", "quick_pair"}, {"variant", "chessence"}, {"id", 5}});
    EXPECT_EQ(fresh.wait_type("seek_created")["seek"]["rated"], false);
}

}  // namespace
