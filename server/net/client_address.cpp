#include "server/net/client_address.h"

#include <algorithm>
#include <optional>

#include <boost/asio/ip/address.hpp>

#include "server/net/text_list.h"

namespace server {

namespace {

// `text` as an IP address in canonical form, or nothing.
std::optional<std::string> canonical(std::string_view text) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(std::string(trim_blanks(text)), ec);
    if (ec) {
        return std::nullopt;
    }
    return address.to_string();
}

}  // namespace

core::Expected<std::vector<std::string>> parse_address_list(std::string_view list) {
    std::vector<std::string> addresses;
    for (const auto entry : comma_list(list)) {
        auto address = canonical(entry);
        if (!address) {
            std::string message(entry);
            message += " is not an IP address";
            return core::make_error(message);
        }
        addresses.push_back(std::move(*address));
    }
    return addresses;
}

std::string forwarded_for(const boost::beast::http::fields& header) {
    std::string list;
    const auto [first, last] = header.equal_range("X-Forwarded-For");
    for (auto line = first; line != last; ++line) {
        const auto value =
            trim_blanks(std::string_view(line->value().data(), line->value().size()));
        if (value.empty()) {
            continue;
        }
        if (!list.empty()) {
            list += ", ";
        }
        list += value;
    }
    return list;
}

std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_proxies) {
    const auto trusted = [&](const std::string& address) {
        return std::find(trusted_proxies.begin(), trusted_proxies.end(), address) !=
               trusted_proxies.end();
    };
    if (!trusted(peer) || trim_blanks(forwarded_for).empty()) {
        return peer;
    }
    // From the right: each hop was added by the proxy in front of it.
    std::string_view rest = forwarded_for;
    while (!rest.empty()) {
        const auto comma = rest.rfind(',');
        const auto entry = comma == std::string_view::npos ? rest : rest.substr(comma + 1);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(0, comma);
        if (trim_blanks(entry).empty()) {
            continue;
        }
        auto address = canonical(entry);
        if (!address) {
            return peer;
        }
        if (!trusted(*address)) {
            return *address;
        }
    }
    return peer;
}

}  // namespace server
