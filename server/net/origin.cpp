#include "server/net/origin.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "server/net/text_list.h"

namespace server {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// A host[:port] of letters, digits, '.', '-', or a bracketed IPv6 address, with a numeric port.
bool valid_authority(std::string_view authority) {
    if (authority.empty()) {
        return false;
    }
    std::string_view host = authority;
    std::string_view port;
    if (authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) {
            return false;
        }
        host = authority.substr(0, close + 1);
        const auto after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') {
                return false;
            }
            port = after.substr(1);
        }
    } else if (const auto colon = authority.find(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
        if (port.empty()) {
            return false;
        }
    }
    if (host.empty()) {
        return false;
    }
    if (host.front() != '[') {
        for (const char c : host) {
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') {
                return false;
            }
        }
    }
    return port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c));
           });
}

struct Origin {
    std::string scheme;
    std::string authority;  // host[:port] without the scheme's default port
};

// `text` as an origin (scheme://host[:port], nothing after), normalised; nothing if it is not one.
std::optional<Origin> parse_origin(std::string_view text) {
    const auto normal = lower(trim_blanks(text));
    const auto separator = normal.find("://");
    if (separator == std::string::npos) {
        return std::nullopt;
    }
    Origin origin{normal.substr(0, separator), normal.substr(separator + 3)};
    if ((origin.scheme != "http" && origin.scheme != "https") ||
        !valid_authority(origin.authority)) {
        return std::nullopt;
    }
    const std::string default_port = origin.scheme == "https" ? ":443" : ":80";
    if (origin.authority.size() > default_port.size() &&
        origin.authority.compare(origin.authority.size() - default_port.size(), default_port.size(),
                                 default_port) == 0) {
        origin.authority.resize(origin.authority.size() - default_port.size());
    }
    return origin;
}

// The Host header's host[:port], lower case, without a port of 80 or 443.
std::string host_authority(std::string_view host) {
    auto normal = lower(trim_blanks(host));
    for (const std::string_view port : {":80", ":443"}) {
        if (normal.size() > port.size() &&
            normal.compare(normal.size() - port.size(), port.size(), port) == 0) {
            normal.resize(normal.size() - port.size());
        }
    }
    return normal;
}

}  // namespace

core::Expected<std::vector<std::string>> parse_origin_list(std::string_view list) {
    std::vector<std::string> origins;
    for (const auto entry : comma_list(list)) {
        auto origin = parse_origin(entry);
        if (!origin) {
            std::string message(entry);
            message += " is not an origin (scheme://host[:port], http or https)";
            return core::make_error(message);
        }
        origins.push_back(origin->scheme + "://" + origin->authority);
    }
    return origins;
}

bool origin_allowed(std::string_view origin, std::string_view host,
                    const std::vector<std::string>& allowed) {
    if (trim_blanks(origin).empty()) {
        return true;
    }
    const auto parsed = parse_origin(origin);
    if (!parsed) {
        return false;
    }
    if (!trim_blanks(host).empty() && parsed->authority == host_authority(host)) {
        return true;
    }
    const auto normal = parsed->scheme + "://" + parsed->authority;
    return std::find(allowed.begin(), allowed.end(), normal) != allowed.end();
}

}  // namespace server
