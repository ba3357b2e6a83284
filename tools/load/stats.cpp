#include "tools/load/stats.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

namespace load {

namespace beast = boost::beast;
namespace http = beast::http;

double Latencies::percentile(double p) {
    if (samples_.empty()) {
        return 0;
    }
    if (!sorted_) {
        std::sort(samples_.begin(), samples_.end());
        sorted_ = true;
    }
    const auto rank =
        static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(samples_.size())));
    return samples_[std::clamp<std::size_t>(rank, 1, samples_.size()) - 1];
}

namespace {

std::optional<ServerFigures> from_proc(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line)) {
        return std::nullopt;
    }
    std::istringstream rest(line.substr(line.rfind(')') + 1));
    std::vector<std::string> fields;
    for (std::string f; rest >> f;) {
        fields.push_back(f);
    }
    if (fields.size() < 22) {
        return std::nullopt;
    }
    // proc(5): utime 14, stime 15, rss 24 (fields[n - 3]).
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    ServerFigures figures;
    figures.cpu_seconds = (std::stod(fields[11]) + std::stod(fields[12])) / ticks;
    figures.resident_bytes = std::stod(fields[21]) * static_cast<double>(sysconf(_SC_PAGESIZE));
    return figures;
}

std::optional<ServerFigures> from_metrics(const Target& target) {
    try {
        boost::asio::io_context io;
        boost::asio::ip::tcp::resolver resolver(io);
        beast::tcp_stream stream(io);
        stream.expires_after(std::chrono::seconds(5));
        stream.connect(resolver.resolve(target.host, target.port));
        http::request<http::empty_body> req{http::verb::get, target.path, 11};
        req.set(http::field::host, target.host);
        http::write(stream, req);
        beast::flat_buffer buffer;
        http::response<http::string_body> res;
        http::read(stream, buffer, res);
        if (res.result_int() != 200) {
            return std::nullopt;
        }
        std::optional<double> cpu;
        std::optional<double> rss;
        std::istringstream lines(res.body());
        for (std::string line; std::getline(lines, line);) {
            const auto value = [&](const std::string& name) -> std::optional<double> {
                if (line.rfind(name + " ", 0) == 0) {
                    return std::stod(line.substr(name.size() + 1));
                }
                return std::nullopt;
            };
            if (auto v = value("process_cpu_seconds_total")) {
                cpu = v;
            } else if (auto r = value("process_resident_memory_bytes")) {
                rss = r;
            }
        }
        if (!cpu || !rss) {
            return std::nullopt;
        }
        return ServerFigures{*cpu, *rss};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

std::optional<ServerFigures> read_server(const Target& metrics_target, std::optional<int> pid) {
    if (pid) {
        return from_proc(*pid);
    }
    return from_metrics(metrics_target);
}

}  // namespace load
