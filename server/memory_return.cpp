// Memory given back to the system (memory_return.h).
#include "server/memory_return.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace server {

bool worth_returning(const HeapFigures& heap, std::size_t resident, std::size_t base) {
    return heap.free >= memory_return_min_free && heap.free > heap.in_use && resident >= base &&
           resident - base >= memory_return_min_free;
}

std::optional<HeapFigures> heap_figures() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const auto info = mallinfo2();
    if (info.arena == 0 && info.hblkhd == 0) {
        return std::nullopt;  // another allocator (a sanitizer's) serves malloc: glibc's is unused
    }
    HeapFigures heap;
    heap.in_use = info.uordblks + info.hblkhd;  // chunks in use, and mmap()ed blocks
    heap.free = info.fordblks;
    return heap;
#else
    return std::nullopt;
#endif
}

std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages_total = 0;
    std::size_t pages_resident = 0;
    if (!(statm >> pages_total >> pages_resident)) {
        return 0;
    }
    return pages_resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

MemoryReturn::MemoryReturn() : base_(resident_bytes()) {}

std::optional<MemoryReturned> MemoryReturn::look() {
    std::lock_guard lock(mutex_);
    const auto resident = resident_bytes();
    base_ = std::min(base_, resident);
    const auto heap = heap_figures();
    if (!heap || !worth_returning(*heap, resident, base_)) {
        return std::nullopt;
    }
    MemoryReturned returned;
    returned.heap = *heap;
    returned.resident_before = resident;
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    returned.resident_after = resident_bytes();
    base_ = returned.resident_after;
    return returned;
}

}  // namespace server
