#pragma once
// The completion token of the server's coroutines: `co_await op(…, use_tuple)` gives the error code
// (and results) as a tuple instead of throwing.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace server {

inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

}  // namespace server
