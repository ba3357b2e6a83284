#include "protocol/version.h"

namespace protocol {

const char* server_software() {
    return "chessence-server/0.1.0";
}

}  // namespace protocol
