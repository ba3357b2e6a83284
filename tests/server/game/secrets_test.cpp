#include "server/game/secrets.h"

#include <gtest/gtest.h>

#include <set>

namespace {

bool is_lower_hex(const std::string& text) {
    return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

TEST(Secrets, StartsLibsodium) {
    EXPECT_TRUE(server::init_secrets().ok());
    EXPECT_TRUE(server::init_secrets().ok());  // again: harmless
}

// FIPS 180-4 / NIST example digests.
TEST(Secrets, Sha256KnownDigests) {
    EXPECT_EQ(server::sha256_hex(""),
              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(server::sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(server::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(server::sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Secrets, Sha256BlockBoundaries) {
    // 55, 56 and 64 bytes straddle the padding boundary; digests differ and are 64 hex digits.
    const auto a = server::sha256_hex(std::string(55, 'x'));
    const auto b = server::sha256_hex(std::string(56, 'x'));
    const auto c = server::sha256_hex(std::string(64, 'x'));
    EXPECT_EQ(a.size(), 64u);
    EXPECT_NE(a, b);
    EXPECT_NE(b, c);
    EXPECT_EQ(server::sha256_hex(std::string(64, 'x')), c);
    // Bytes past a NUL count: the digest is of the whole view.
    EXPECT_NE(server::sha256_hex(std::string("a\0b", 3)), server::sha256_hex("a"));
}

TEST(Secrets, IdsCarry128RandomBits) {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        const auto id = server::random_id("g_");
        ASSERT_EQ(id.size(), 2u + 32u) << id;
        EXPECT_EQ(id.substr(0, 2), "g_");
        EXPECT_TRUE(is_lower_hex(id.substr(2))) << id;
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 1000u);
}

TEST(Secrets, TokensCarry256RandomBits) {
    const auto a = server::new_token();
    const auto b = server::new_token();
    EXPECT_EQ(a.size(), 64u);
    EXPECT_TRUE(is_lower_hex(a)) << a;
    EXPECT_NE(a, b);
    EXPECT_EQ(server::random_hex(3).size(), 6u);
    EXPECT_EQ(server::random_hex(0), "");
}

TEST(Secrets, RandomNumbersCoverTheirRange) {
    // 4000 draws below 4: every value appears (a stuck generator would fail); none reaches 4.
    int counts[4] = {};
    for (int i = 0; i < 4000; ++i) {
        const auto v = server::random_below(4);
        ASSERT_LT(v, 4u);
        ++counts[v];
    }
    for (int c : counts) {
        EXPECT_GT(c, 800);
    }
    // 64 draws of a 64-bit number: every bit is set at least once and clear at least once.
    std::uint64_t any_set = 0;
    std::uint64_t all_set = ~std::uint64_t(0);
    for (int i = 0; i < 64; ++i) {
        const auto v = server::random_u64();
        any_set |= v;
        all_set &= v;
    }
    EXPECT_EQ(any_set, ~std::uint64_t(0));
    EXPECT_EQ(all_set, 0u);
}

}  // namespace
