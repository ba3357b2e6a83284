#pragma once
// Which address a request comes from (issue 23): the peer's, unless the peer is a trusted reverse
// proxy, in which case the client its X-Forwarded-For names. Every per-address limit counts it.
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/http/fields.hpp>

#include "core/expected.h"

namespace server {

// The addresses of a comma-separated list ("10.0.0.2, ::1"), each in its canonical text; an error
// naming the first entry that is not an IP address. An empty list is fine.
core::Expected<std::vector<std::string>> parse_address_list(std::string_view list);

// Every X-Forwarded-For field line of a request's header, in the order they arrived, as one
// comma-separated list: several field lines of one name are one list (RFC 9110 section 5.3), and a
// proxy that appends a line of its own puts it last, after any line the client wrote. The one
// place the server reads the header; blank lines are left out.
std::string forwarded_for(const boost::beast::http::fields& header);

// The client's address: `peer` itself, or, when `peer` is one of `trusted_proxies`, the right-most
// address of `forwarded_for` that is not a trusted proxy (what the outermost proxy saw; entries a
// client wrote itself further left are ignored; empty entries are skipped, as RFC 9110 asks). An
// entry that is not an IP address where the walk reaches it leaves `peer`.
std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_proxies);

}  // namespace server
