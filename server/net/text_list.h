#pragma once
// Comma-separated lists of the flags (--trusted-proxy, --allowed-origin).
#include <algorithm>
#include <string_view>
#include <vector>

namespace server {

// `text` without the spaces and tabs around it.
inline std::string_view trim_blanks(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The entries of "a, b ,c", trimmed; none for a blank list. An empty entry ("a,,b") stays, for
// the caller to refuse.
inline std::vector<std::string_view> comma_list(std::string_view list) {
    std::vector<std::string_view> entries;
    if (trim_blanks(list).empty()) {
        return entries;
    }
    for (std::size_t start = 0; start <= list.size();) {
        const auto comma = std::min(list.find(',', start), list.size());
        entries.push_back(trim_blanks(list.substr(start, comma - start)));
        start = comma + 1;
    }
    return entries;
}

}  // namespace server
