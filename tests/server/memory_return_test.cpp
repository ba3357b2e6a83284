// Issue 42, finding 18: memory freed but kept by the allocator is returned to the system.
#include "server/memory_return.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(MemoryReturn, OnlyALargeFreeHeapBesideLittleInUseIsWorthATrim) {
    const auto least = server::memory_return_min_free;
    EXPECT_FALSE(server::worth_returning({4 * mib, 8 * mib}, 200 * mib, 10 * mib)) << "little free";
    EXPECT_FALSE(server::worth_returning({200 * mib, 64 * mib}, 300 * mib, 10 * mib))
        << "less free than in use";
    EXPECT_TRUE(server::worth_returning({4 * mib, 64 * mib}, 100 * mib, 10 * mib));
    EXPECT_TRUE(server::worth_returning({0, least}, 10 * mib + least, 10 * mib));
    EXPECT_FALSE(server::worth_returning({0, least - 1}, 200 * mib, 10 * mib));
    EXPECT_FALSE(server::worth_returning({4 * mib, 64 * mib}, 10 * mib + least - 1, 10 * mib))
        << "the resident set has not grown since the last return: its free pages were given back";
}

// What connections leave behind: many small blocks freed, a few kept among them (as the
// connections' descriptor states stay with Asio), so that no freed page lies at the heap's top
// and the allocator keeps them all. Returning gives most of them back.
TEST(MemoryReturn, FreedBlocksAmongKeptOnesAreGivenBackToTheSystem) {
    if (!server::heap_figures()) {
        GTEST_SKIP() << "the C library cannot say what its heap holds";
    }
    server::MemoryReturn memory;
    EXPECT_FALSE(memory.look()) << "a small heap: nothing to return";  // the resident base
    constexpr std::size_t block = 8 * 1024;
    constexpr std::size_t count = 12000;  // about 94 MiB
    std::vector<std::unique_ptr<char[]>> blocks;
    blocks.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        blocks.emplace_back(new char[block]);
        std::memset(blocks.back().get(), static_cast<int>(i), block);  // resident
    }
    std::vector<std::unique_ptr<char[]>> kept;
    for (std::size_t i = 0; i < count; ++i) {
        if (i % 16 == 0) {
            kept.push_back(std::move(blocks[i]));
        }
    }
    blocks.clear();
    const auto before = server::resident_bytes();
    ASSERT_GT(before, 80 * mib);
    const auto heap = server::heap_figures();
    ASSERT_TRUE(heap);
    ASSERT_GT(heap->free, 64 * mib) << heap->free / mib << " MiB free";

    const auto returned = memory.look();
    ASSERT_TRUE(returned);
    EXPECT_GE(returned->resident_before, returned->resident_after + 50 * mib)
        << "resident " << returned->resident_before / mib << " MiB -> "
        << returned->resident_after / mib << " MiB";
    EXPECT_LE(server::resident_bytes(), before - 50 * mib);
    EXPECT_FALSE(memory.look()) << "nothing left worth returning: the free pages went back";
    for (const auto& k : kept) {
        EXPECT_NE(k.get(), nullptr);
    }
}

}  // namespace
