#pragma once
// One HTTP connection: keep-alive requests answered from the API or the web root, until it is
// upgraded to a WebSocket on /ws.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace server {

class ServerState;

// Serves the connection on the socket's executor (a strand) until it closes or is upgraded. A
// request whose handler throws is answered 500 and logged; the connection goes on.
boost::asio::awaitable<void> serve_http(ServerState& state, boost::asio::ip::tcp::socket socket);
// Spawns serve_http on the socket's executor; an exception that ends it is logged with the peer's
// address (the socket is closed with the coroutine).
void start_http_session(ServerState& state, boost::asio::ip::tcp::socket socket);

}  // namespace server
