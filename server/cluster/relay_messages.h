#pragma once
// What the nodes of a cluster tell each other about the clients of games they do not own (issue
// 27, docs/architecture.md "The relay"): one pub/sub message is a batch of records for one node's
// channel. A node that holds a client (the origin) sends the owner of the game its requests and
// their goodbyes; the owner sends back the frames its room pushes to the client and whether the
// room counts it among its watchers. Nodes trust each other: whatever a record says about a
// player was checked by the origin.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace server::cluster {

enum class RelayKind : std::uint8_t {
    // origin → owner
    request,      // `text` is the client's request frame as it came (a game's, or a lobby request
                  // for a seek of the owner's); the actor's fields are set
    looked_away,  // the client looks at another game now (Room::post_looked_away)
    lag,          // the client's measured round trip (`lag_ms`)
    gone,         // the client closed: every room of the owner forgets it
    present,      // the client speaks for a player who has seeks of the owner's (actor's fields
                  // set): the owner's lobby counts it as the player's connection (lobby.h)
    // owner → origin
    frame,     // `text` goes to the client as it is
    watching,  // the owner's room of `game_id` now pushes to the client (`on`) or stopped
    close,     // close the client's connection with WebSocket code `code` after its frames
};

struct RelayRecord {
    RelayKind kind = RelayKind::frame;
    std::string from;          // the node that sent the record (its channel answers)
    std::uint64_t client = 0;  // the client's id on the origin node
    std::string game_id;
    std::string text;
    // request: who the client speaks for, as the origin knows it
    std::string player_id;
    std::string name;
    bool account = false;
    int lag_ms = 0;
    std::string ip;
    bool on = false;  // watching
    int code = 0;     // close
};

// The channel a node listens on: "<prefix>node:<node_id>".
std::string node_channel(std::string_view key_prefix, std::string_view node_id);

// One message of records (a JSON array; the texts, UTF-8 like every frame and request, are
// carried as JSON strings).
std::string encode_relay(const std::vector<RelayRecord>& records);
// The records of a message, or an error naming what is wrong (an unknown kind, a missing field,
// not JSON): a node that receives one logs it and drops the message.
core::Expected<std::vector<RelayRecord>> decode_relay(std::string_view message);

}  // namespace server::cluster
