// Fencing numbers (fences.h) on PostgreSQL, where several nodes write into one database. A claim
// is one conditional UPDATE; a check reads the game's row FOR SHARE, and that row lock, held until
// the writer's group commits, makes a concurrent claim (an UPDATE of the row) wait for the batch
// that passed its check: a claim never slips between a batch's check and its writes. A check that
// meets an uncommitted claim waits for it in turn and then reads the new fence.
#include <string>

#include "server/store/postgres_writes.h"
#include "server/store/sql_writes.h"

namespace server::pg_writes {

namespace {

using pg::Connection;
using pg::Params;

// Why a batch holding `mine` may not write into a game whose fence is the `stored` text (nullopt:
// no such game); ok when it may.
core::Status pg_fence_allows(const std::optional<std::string>& stored, std::string_view game_id,
                             std::int64_t mine, std::string_view what) {
    if (!stored) {
        return core::make_error(std::string(what) + ": no such game " + std::string(game_id));
    }
    if (const auto fence = std::stoll(*stored); fence > mine) {
        return core::make_error(fenced_error(game_id, fence, mine));
    }
    return core::ok_status();
}

}  // namespace

core::Status apply(Connection& db, const ClaimGame& w) {
    auto claimed = db.query(sql::writes::claim_game(dialect), Params(w.game_id, w.fence));
    if (!claimed) {
        return core::make_error("claim_game: " + claimed.error());
    }
    if (claimed->affected() == 1) {
        return core::ok_status();
    }
    // Nothing changed: no such game, or a newer owner's fence.
    auto stored = db.query_text(sql::writes::fence_of(dialect), Params(w.game_id));
    if (!stored) {
        return core::make_error("claim_game: " + stored.error());
    }
    if (auto allowed = pg_fence_allows(*stored, w.game_id, w.fence, "claim_game"); !allowed) {
        return allowed;
    }
    // Only if the stored fence went down in between, which no write does.
    return core::make_error("claim_game: the claim of game " + w.game_id + " changed nothing");
}

core::Status apply(Connection& db, const CheckFence& w) {
    auto stored = db.query_text(sql::writes::checked_fence(dialect), Params(w.game_id));
    if (!stored) {
        return core::make_error("check_fence: " + stored.error());
    }
    return pg_fence_allows(*stored, w.game_id, w.fence, "check_fence");
}

}  // namespace server::pg_writes
