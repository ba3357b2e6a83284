#pragma once
// Memory given back to the system (issue 42, finding 18). Measured: 10 000 idle connections took
// RSS from 15 MB to 121 MB, and after they all closed RSS stayed at 121 MB while the heap held
// 4.4 MB in use (glibc's malloc_stats) — not a leak: glibc keeps what was freed in its arenas for
// the next allocations and gives a page back only when it lies at an arena's top. Every
// memory_return_interval the server looks at its heap (on the blocking pool: mallinfo2 takes the
// arenas' locks) and, when what the heap holds free is large both in bytes and beside what is in
// use, asks glibc to return the free pages (malloc_trim).
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>

namespace server {

// How often the heap is looked at.
inline constexpr std::chrono::seconds memory_return_interval{10};
// Free heap below this is never worth returning (one trim walks every arena).
inline constexpr std::size_t memory_return_min_free = std::size_t{32} << 20;

// What the heap holds: bytes handed out and not yet freed, and bytes freed but kept.
struct HeapFigures {
    std::size_t in_use = 0;
    std::size_t free = 0;
};

// Whether returning the free heap is worth a trim: at least memory_return_min_free free, more
// free than in use (a heap that only breathes with its load is left alone), and the resident set
// grown by memory_return_min_free above `base`, the least it was since the last return (pages
// already given back still count as free in the heap: without this, every look would trim again).
bool worth_returning(const HeapFigures& heap, std::size_t resident, std::size_t base);

// The heap's figures now (glibc's mallinfo2); nothing where the C library cannot say.
std::optional<HeapFigures> heap_figures();

// The process's resident set in bytes (/proc/self/statm); 0 when it cannot be read.
std::size_t resident_bytes();

// What one return did: the heap before, and the resident set before and after.
struct MemoryReturned {
    HeapFigures heap;
    std::size_t resident_before = 0;
    std::size_t resident_after = 0;
};

// The looks of one process. Thread-safe.
class MemoryReturn {
public:
    // The resident set now is the first base: make it at start, before the load.
    MemoryReturn();

    // Looks at the heap and, when worth_returning says so, returns its free pages to the system
    // (malloc_trim) and says what that did; nothing when it was not worth it (or cannot be done
    // here). It blocks for as long as the trim takes (milliseconds for a hundred megabytes, the
    // arenas locked meanwhile): never call it on an I/O thread or a strand.
    std::optional<MemoryReturned> look();

private:
    std::mutex mutex_;
    std::size_t base_ = 0;  // least resident set since the last return (or the start)
};

}  // namespace server
