#pragma once
// The protocol version spoken on /ws (docs/protocol.md). Bump on any incompatible change.

namespace protocol {

inline constexpr int protocol_version = 1;

const char* server_software();

}  // namespace protocol
