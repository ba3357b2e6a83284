// The records nodes relay to each other (server/cluster/relay_messages.h).
#include "server/cluster/relay_messages.h"

#include <gtest/gtest.h>

namespace {

using server::cluster::decode_relay;
using server::cluster::encode_relay;
using server::cluster::RelayKind;
using server::cluster::RelayRecord;

RelayRecord record(RelayKind kind, const std::string& from, std::uint64_t client,
                   const std::string& game_id = {}) {
    RelayRecord r;
    r.kind = kind;
    r.from = from;
    r.client = client;
    r.game_id = game_id;
    return r;
}

TEST(RelayMessages, EveryKindComesBackAsItWasSent) {
    RelayRecord request;
    request.kind = RelayKind::request;
    request.from = "node-a";
    request.client = 18446744073709551615ull;
    request.game_id = "g_1";
    request.text = R"({"type":"move","game_id":"g_1","move":"e2-e4","id":"\u00e9"})";
    request.player_id = "p_1";
    request.name = "Zoë \"Z\"";
    request.account = true;
    request.lag_ms = 87;
    request.ip = "2001:db8::1";
    RelayRecord frame;
    frame.kind = RelayKind::frame;
    frame.from = "node-b";
    frame.client = 7;
    frame.text = "{\"type\":\"event\",\"text\":\"line\\nbreak ♞\"}";
    auto watching = record(RelayKind::watching, "node-b", 7, "g_2");
    watching.on = true;
    auto close = record(RelayKind::close, "node-b", 7);
    close.code = 1012;
    auto lag = record(RelayKind::lag, "node-a", 9, "g_1");
    lag.lag_ms = 250;
    auto present = record(RelayKind::present, "node-c", 4);
    present.player_id = "p_2";
    present.name = "Ann";
    present.ip = "198.51.100.7";
    present.lag_ms = 31;
    const std::vector<RelayRecord> sent{request,
                                        frame,
                                        watching,
                                        close,
                                        lag,
                                        record(RelayKind::looked_away, "node-a", 9, "g_3"),
                                        record(RelayKind::gone, "node-a", 9),
                                        present};

    auto got = decode_relay(encode_relay(sent));
    ASSERT_TRUE(got.ok()) << got.error();
    ASSERT_EQ(got->size(), sent.size());
    for (std::size_t i = 0; i < sent.size(); ++i) {
        const auto& a = sent[i];
        const auto& b = (*got)[i];
        EXPECT_EQ(a.kind, b.kind) << i;
        EXPECT_EQ(a.from, b.from) << i;
        EXPECT_EQ(a.client, b.client) << i;
        EXPECT_EQ(a.game_id, b.game_id) << i;
        EXPECT_EQ(a.text, b.text) << i;
        EXPECT_EQ(a.player_id, b.player_id) << i;
        EXPECT_EQ(a.name, b.name) << i;
        EXPECT_EQ(a.account, b.account) << i;
        EXPECT_EQ(a.lag_ms, b.lag_ms) << i;
        EXPECT_EQ(a.ip, b.ip) << i;
        EXPECT_EQ(a.on, b.on) << i;
        EXPECT_EQ(a.code, b.code) << i;
    }
}

TEST(RelayMessages, AMalformedMessageIsAnErrorThatSaysWhy) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"not json", "JSON array"},
        {R"({"k":"frame"})", "JSON array"},
        {R"([{"from":"a","client":1}])", "kind"},
        {R"([{"k":"teleport","from":"a","client":1}])", "unknown relay record kind: teleport"},
        {R"([{"k":"frame","from":"a","client":-1,"text":"x"}])", "client"},
        {R"([{"k":"frame","from":"a","client":1}])", "needs its text"},
        {R"([{"k":"present","from":"a","client":1}])", "needs its player"},
        {R"([{"k":"watching","from":"a","client":1,"on":true}])", "needs its game"},
        {R"([{"k":"lag","from":"a","client":1,"game":"g","lag":"slow"}])", "wrong type"},
    };
    for (const auto& [message, why] : cases) {
        auto got = decode_relay(message);
        ASSERT_FALSE(got.ok()) << message;
        EXPECT_NE(got.error().find(why), std::string::npos) << message << ": " << got.error();
    }
}

TEST(RelayMessages, ANodesChannelCarriesThePrefix) {
    EXPECT_EQ(server::cluster::node_channel("chessence:", "web-1"), "chessence:node:web-1");
}

}  // namespace
