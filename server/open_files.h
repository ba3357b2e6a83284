#pragma once
// The process's open-file limit (issue 42): every connection holds a descriptor, so the soft
// RLIMIT_NOFILE must fit --connections-total and what the server keeps open besides
// (open_files_margin in server/limits.h).
#include <cstdint>

namespace server {

struct OpenFileLimit {
    std::uint64_t needed = 0;  // connections_total + open_files_margin
    std::uint64_t soft = 0;    // the soft limit now in force (raised if it could be)
    std::uint64_t hard = 0;
    bool raised = false;  // the soft limit was lower and has been raised
    bool enough() const { return soft >= needed; }
};

// Raises the soft open-file limit to what `connections_total` needs, up to the hard limit, and
// says what it found and did; never lowers it.
OpenFileLimit fit_open_file_limit(int connections_total);

}  // namespace server
