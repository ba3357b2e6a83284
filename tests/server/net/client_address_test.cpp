// Issue 23: X-Forwarded-For counts only when a trusted proxy sends it.
#include "server/net/client_address.h"

#include <gtest/gtest.h>

#include <boost/beast/http/fields.hpp>

namespace {

using server::client_address;
using server::forwarded_for;
using server::parse_address_list;

TEST(AddressList, ParsesCommaSeparatedAddresses) {
    auto list = parse_address_list(" 10.0.0.2, ::1 ,192.168.1.1");
    ASSERT_TRUE(list) << list.error();
    EXPECT_EQ(*list, (std::vector<std::string>{"10.0.0.2", "::1", "192.168.1.1"}));
    ASSERT_TRUE(parse_address_list(""));
    EXPECT_TRUE(parse_address_list("")->empty());
    auto bad = parse_address_list("10.0.0.2, proxy.example");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("proxy.example"), std::string::npos) << bad.error();
    EXPECT_FALSE(parse_address_list("10.0.0.2,"));
}

TEST(ClientAddress, IgnoresTheHeaderFromAnUntrustedPeer) {
    EXPECT_EQ(client_address("203.0.113.9", "198.51.100.1", {}), "203.0.113.9");
    EXPECT_EQ(client_address("203.0.113.9", "198.51.100.1", {"10.0.0.2"}), "203.0.113.9");
}

TEST(ClientAddress, TakesTheRightMostUntrustedHopFromATrustedProxy) {
    const std::vector<std::string> proxies{"10.0.0.2", "10.0.0.3"};
    EXPECT_EQ(client_address("10.0.0.2", "198.51.100.1", proxies), "198.51.100.1");
    EXPECT_EQ(client_address("10.0.0.2", "1.2.3.4, 198.51.100.1", proxies), "198.51.100.1")
        << "what the client wrote itself on the left is not believed";
    EXPECT_EQ(client_address("10.0.0.2", "198.51.100.1, 10.0.0.3", proxies), "198.51.100.1")
        << "a chain of trusted proxies";
    EXPECT_EQ(client_address("10.0.0.2", "", proxies), "10.0.0.2");
    EXPECT_EQ(client_address("10.0.0.2", "nonsense", proxies), "10.0.0.2");
    EXPECT_EQ(client_address("10.0.0.2", " 2001:db8::1 ", proxies), "2001:db8::1");
}

TEST(ClientAddress, SkipsEmptyEntries) {
    const std::vector<std::string> proxies{"10.0.0.2"};
    EXPECT_EQ(client_address("10.0.0.2", "198.51.100.1, ,", proxies), "198.51.100.1");
    EXPECT_EQ(client_address("10.0.0.2", " , ", proxies), "10.0.0.2");
}

// Issue 42: a proxy that appends a field line of its own puts it after the client's.
TEST(ForwardedFor, JoinsEveryLineInTheOrderTheyArrived) {
    boost::beast::http::fields header;
    EXPECT_EQ(forwarded_for(header), "");
    header.insert("X-Forwarded-For", "203.0.113.5, 203.0.113.6");
    header.insert("Host", "x");
    header.insert("x-forwarded-for", "  ");
    header.insert("X-Forwarded-For", "198.51.100.1");
    EXPECT_EQ(forwarded_for(header), "203.0.113.5, 203.0.113.6, 198.51.100.1");
    EXPECT_EQ(client_address("10.0.0.2", forwarded_for(header), {"10.0.0.2"}), "198.51.100.1")
        << "the proxy's line, not the client's forged one";
}

}  // namespace
