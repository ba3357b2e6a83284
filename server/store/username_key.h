#pragma once
// Usernames are unique regardless of case: the key under which one is stored and looked up.
#include <string>
#include <string_view>

namespace server {

// `username` in ASCII lower case (usernames are ASCII letters, digits, '_' and '-').
inline std::string username_key(std::string_view username) {
    std::string key(username);
    for (auto& c : key) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return key;
}

}  // namespace server
