// libFuzzer target (issue 23): the game-record parser (PGN-like text, docs/records.md). Any text
// gets records or an error with a message, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/record.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto records = core::parse_records(text);
    if (!records && records.error().empty()) {
        __builtin_trap();  // an error always says why
    }
    return 0;
}
