// The registry of GET /metrics and its text: histogram buckets by upper bound (inclusive, as
// Prometheus's `le`), cumulative in the text; every family with its HELP and TYPE; a label for
// every error code and refusal reason; the process's own figures.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "server/metrics/exposition.h"
#include "server/metrics/metrics.h"
#include "server/metrics/process_stats.h"
#include "server/test_support.h"

namespace {

using server::Histogram;

TEST(MetricsHistogram, ABoundBelongsToItsOwnBucketAndTheRestToInf) {
    Histogram histogram{1, 2, 4};
    histogram.observe(0.5);
    histogram.observe(1.0);
    histogram.observe(3.0);
    histogram.observe(9.0);
    const auto shot = histogram.snapshot();
    ASSERT_EQ(shot.cumulative.size(), 4u);
    EXPECT_EQ(shot.cumulative[0], 2u);  // le=1: 0.5 and 1.0
    EXPECT_EQ(shot.cumulative[1], 2u);  // le=2
    EXPECT_EQ(shot.cumulative[2], 3u);  // le=4: and 3.0
    EXPECT_EQ(shot.cumulative[3], 4u);  // +Inf: and 9.0
    EXPECT_EQ(shot.count, 4u);
    EXPECT_DOUBLE_EQ(shot.sum, 13.5);
}

TEST(MetricsHistogram, DurationsAreObservedInSeconds) {
    Histogram histogram{0.001, 0.01};
    histogram.observe(std::chrono::microseconds(2500));
    const auto shot = histogram.snapshot();
    EXPECT_EQ(shot.cumulative[0], 0u);
    EXPECT_EQ(shot.cumulative[1], 1u);
    EXPECT_DOUBLE_EQ(shot.sum, 0.0025);
}

TEST(MetricsText, EveryFamilyHasHelpAndTypeAndEverySampleIsWellFormed) {
    server::Metrics registry;
    registry.moves.add(3);
    registry.move_seconds.observe(0.002);
    registry.refused(server::Refusal::origin);
    registry.error_sent(protocol::ErrorCode::illegal_move);
    registry.error_sent(protocol::ErrorCode::illegal_move);
    server::LiveFigures live;
    live.connections = 7;
    live.games_active = 2;
    live.rooms_in_memory = 5;
    live.cluster = server::ClusterFigures{};
    live.cluster->relay_dropped_outbox_full = 4;
    server::ProcessStats process;
    process.resident_bytes = 1048576;
    const auto text = server::prometheus_text(registry, live, process);

    EXPECT_EQ(test::metric_value(text, "chessence_moves_total"), 3);
    EXPECT_EQ(test::metric_value(text, "chessence_connections"), 7);
    EXPECT_EQ(test::metric_value(text, "chessence_games_active"), 2);
    EXPECT_EQ(test::metric_value(text, "chessence_rooms_in_memory"), 5);
    EXPECT_EQ(test::metric_value(text, "chessence_refusals_total{reason=\"origin\"}"), 1);
    EXPECT_EQ(test::metric_value(text, "chessence_refusals_total{reason=\"http_rate\"}"), 0);
    EXPECT_EQ(test::metric_value(text, "chessence_errors_total{code=\"illegal_move\"}"), 2);
    EXPECT_EQ(test::metric_value(text, "chessence_errors_total{code=\"server_restarting\"}"), 0);
    EXPECT_EQ(test::metric_value(text, "chessence_move_seconds_bucket{le=\"0.001\"}"), 0);
    EXPECT_EQ(test::metric_value(text, "chessence_move_seconds_bucket{le=\"0.0025\"}"), 1);
    EXPECT_EQ(test::metric_value(text, "chessence_move_seconds_bucket{le=\"+Inf\"}"), 1);
    EXPECT_EQ(test::metric_value(text, "chessence_move_seconds_count"), 1);
    EXPECT_EQ(test::metric_value(text, "process_resident_memory_bytes"), 1048576);
    EXPECT_EQ(
        test::metric_value(text, "chessence_relay_records_dropped_total{reason=\"outbox_full\"}"),
        4);
    EXPECT_EQ(text.find("process_cpu_seconds_total"), std::string::npos)
        << "a figure that could not be read is left out, not shown as 0";

    const std::regex help(R"(# HELP ([a-z_]+) .+)");
    const std::regex type(R"(# TYPE ([a-z_]+) (counter|gauge|histogram))");
    const std::regex series(R"(([a-z_]+)(\{[a-z_]+="[^"]*"\})? (-?[0-9.e+-]+|\+Inf))");
    std::set<std::string> helped;
    std::set<std::string> typed;
    std::istringstream lines(text);
    int samples = 0;
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_match(line, m, help)) {
            EXPECT_TRUE(helped.insert(m[1]).second) << "two HELP lines for " << m[1];
        } else if (std::regex_match(line, m, type)) {
            EXPECT_TRUE(helped.count(m[1])) << "TYPE before HELP: " << line;
            typed.insert(m[1]);
        } else {
            ASSERT_TRUE(std::regex_match(line, m, series)) << "not a sample: " << line;
            std::string family = m[1];
            for (const char* suffix : {"_bucket", "_sum", "_count"}) {
                const std::string s(suffix);
                if (!typed.count(family) && family.size() > s.size() &&
                    family.compare(family.size() - s.size(), s.size(), s) == 0) {
                    family.resize(family.size() - s.size());
                }
            }
            EXPECT_TRUE(typed.count(family)) << "a sample before its TYPE: " << line;
            ++samples;
        }
    }
    EXPECT_GT(samples, protocol::error_code_count);
}

// Issue 42: what a node of a cluster holds and lost, from the figures the scrape read; a single
// node shows none of these families (there is no cluster to describe).
TEST(MetricsText, ClusterFamiliesAppearOnlyInClusterMode) {
    server::Metrics registry;
    server::LiveFigures live;
    const server::ProcessStats process;
    const auto single = server::prometheus_text(registry, live, process);
    for (const char* family :
         {"chessence_leases_held", "chessence_lease_renewal_failures_total",
          "chessence_leases_lost_total", "chessence_relay_records_queued",
          "chessence_relay_records_dropped_total", "chessence_pubsub_reconnects_total",
          "chessence_relay_remote_clients", "chessence_relay_relayed_clients"}) {
        EXPECT_EQ(single.find(family), std::string::npos) << family << " on a single node";
    }

    server::ClusterFigures cluster;
    cluster.leases_held = 3;
    cluster.lease_renewal_failures = 2;
    cluster.leases_lost = 1;
    cluster.relay_queued = 17;
    cluster.relay_dropped_outbox_full = 4;
    cluster.relay_dropped_publish_failed = 5;
    cluster.relay_dropped_nobody_listening = 6;
    cluster.pubsub_reconnects = 7;
    cluster.remote_clients = 8;
    cluster.relayed_clients = 9;
    live.cluster = cluster;
    const auto text = server::prometheus_text(registry, live, process);
    EXPECT_EQ(test::metric_value(text, "chessence_leases_held"), 3);
    EXPECT_EQ(test::metric_value(text, "chessence_lease_renewal_failures_total"), 2);
    EXPECT_EQ(test::metric_value(text, "chessence_leases_lost_total"), 1);
    EXPECT_EQ(test::metric_value(text, "chessence_relay_records_queued"), 17);
    EXPECT_EQ(
        test::metric_value(text, "chessence_relay_records_dropped_total{reason=\"outbox_full\"}"),
        4);
    EXPECT_EQ(test::metric_value(
                  text, "chessence_relay_records_dropped_total{reason=\"publish_failed\"}"),
              5);
    EXPECT_EQ(test::metric_value(
                  text, "chessence_relay_records_dropped_total{reason=\"nobody_listening\"}"),
              6);
    EXPECT_EQ(test::metric_value(text, "chessence_pubsub_reconnects_total"), 7);
    EXPECT_EQ(test::metric_value(text, "chessence_relay_remote_clients"), 8);
    EXPECT_EQ(test::metric_value(text, "chessence_relay_relayed_clients"), 9);
    EXPECT_NE(text.find("# TYPE chessence_leases_held gauge\n"), std::string::npos);
    EXPECT_NE(text.find("# TYPE chessence_pubsub_reconnects_total counter\n"), std::string::npos);
}

TEST(ProcessStats, ReadsThisProcess) {
    const auto stats = server::read_process_stats();
    ASSERT_TRUE(stats.resident_bytes.has_value());
    EXPECT_GT(*stats.resident_bytes, 1024 * 1024);
    ASSERT_TRUE(stats.cpu_seconds.has_value());
    EXPECT_GE(*stats.cpu_seconds, 0);
    ASSERT_TRUE(stats.open_fds.has_value());
    EXPECT_GE(*stats.open_fds, 3);  // stdin, stdout, stderr at least
    ASSERT_TRUE(stats.start_time_seconds.has_value());
    EXPECT_GT(*stats.start_time_seconds, 1.7e9);  // after 2023
}

}  // namespace
