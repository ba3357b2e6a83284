// MemoryStore's fences (fences.h): a batch is applied whole under the store's lock, so nothing can
// claim a game between a batch's CheckFence and its writes.
#include "server/store/memory_store.h"

namespace server {

core::Status MemoryStore::apply_fence(const ClaimGame& w, Undo& undo) {
    auto it = games_.find(w.game_id);
    if (it == games_.end()) {
        return core::make_error("claim_game: no such game " + w.game_id);
    }
    auto& fence = it->second.record.fence;
    if (fence > w.fence) {
        return core::make_error(fenced_error(w.game_id, fence, w.fence));
    }
    undo.push_back([&fence, old = fence] { fence = old; });
    fence = w.fence;
    return core::ok_status();
}

core::Status MemoryStore::apply_fence(const CheckFence& w) {
    auto it = games_.find(w.game_id);
    if (it == games_.end()) {
        return core::make_error("check_fence: no such game " + w.game_id);
    }
    if (const auto fence = it->second.record.fence; fence > w.fence) {
        return core::make_error(fenced_error(w.game_id, fence, w.fence));
    }
    return core::ok_status();
}

}  // namespace server
