#include "server/net/static_files.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/percent.h"

namespace server {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The canonical regular file for `relative` inside `root`, or nothing.
std::optional<fs::path> resolve(const fs::path& root, const std::string& relative) {
    std::error_code ec;
    fs::path candidate = fs::weakly_canonical(root / relative, ec);
    if (ec) {
        return std::nullopt;
    }
    if (fs::is_directory(candidate, ec)) {
        candidate = fs::weakly_canonical(candidate / "index.html", ec);
    }
    if (ec || !fs::is_regular_file(candidate, ec)) {
        return std::nullopt;
    }
    const auto root_text = root.string();
    const auto text = candidate.string();
    if (text.compare(0, root_text.size(), root_text) != 0 ||
        (text.size() > root_text.size() && text[root_text.size()] != '/')) {
        return std::nullopt;  // a symlink leads out of the root
    }
    return candidate;
}

HttpReply file_reply(const fs::path& path) {
    auto body = read_file(path);
    if (!body) {
        return not_found_reply();
    }
    return HttpReply{200, std::string(mime_type(path.filename().string())), std::move(*body)};
}

}  // namespace

HttpReply json_reply(int status, std::string body) {
    return HttpReply{status, "application/json", std::move(body)};
}

HttpReply not_found_reply() {
    return json_reply(404, R"({"error":"not found"})");
}

std::string_view mime_type(std::string_view file_name) {
    const auto dot = file_name.rfind('.');
    const std::string_view ext = dot == std::string_view::npos ? "" : file_name.substr(dot + 1);
    struct Entry {
        std::string_view ext;
        std::string_view type;
    };
    static constexpr Entry types[] = {
        {"html", "text/html; charset=utf-8"},
        {"htm", "text/html; charset=utf-8"},
        {"js", "text/javascript; charset=utf-8"},
        {"mjs", "text/javascript; charset=utf-8"},
        {"css", "text/css; charset=utf-8"},
        {"json", "application/json"},
        {"svg", "image/svg+xml"},
        {"png", "image/png"},
        {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},
        {"gif", "image/gif"},
        {"ico", "image/x-icon"},
        {"webp", "image/webp"},
        {"woff", "font/woff"},
        {"woff2", "font/woff2"},
        {"txt", "text/plain; charset=utf-8"},
        {"map", "application/json"},
        {"wasm", "application/wasm"},
        {"webmanifest", "application/manifest+json"},
    };
    for (const auto& entry : types) {
        if (entry.ext == ext) {
            return entry.type;
        }
    }
    return "application/octet-stream";
}

HttpReply serve_static(const std::string& web_root, std::string_view target) {
    const auto query = target.find_first_of("?#");
    const std::string_view raw = target.substr(0, query);
    auto decoded = core::percent_decode(raw);
    if (!decoded || decoded->empty() || decoded->front() != '/' ||
        decoded->find('\0') != std::string::npos || decoded->find('\\') != std::string::npos) {
        return json_reply(400, R"({"error":"bad path"})");
    }
    std::istringstream segments(*decoded);
    std::string segment;
    while (std::getline(segments, segment, '/')) {
        if (segment == "..") {
            return json_reply(400, R"({"error":"bad path"})");
        }
    }
    std::error_code ec;
    const fs::path root = fs::canonical(web_root, ec);
    if (ec) {
        return not_found_reply();
    }
    const std::string relative = decoded->substr(1);
    if (auto file = resolve(root, relative)) {
        return file_reply(*file);
    }
    const bool has_extension = fs::path(relative).has_extension();
    if (!has_extension) {
        if (auto index = resolve(root, "index.html")) {
            return file_reply(*index);
        }
    }
    return not_found_reply();
}

}  // namespace server
