#include "server/store/sqlite_fences.h"

#include <optional>
#include <string>

#include "server/store/sql_writes.h"

namespace server::sqlite_fences {

namespace {

using sqlite::Statement;

// The game's stored fence; nullopt when there is no such game. `what` names the write in errors.
core::Expected<std::optional<std::int64_t>> sqlite_stored_fence(sqlite::Connection& db,
                                                                std::string_view game_id,
                                                                std::string_view what) {
    auto stmt = db.prepare(sql::writes::fence_of(sql::Dialect::sqlite));
    if (!stmt) {
        return core::make_error(std::string(what) + ": " + stmt.error());
    }
    (*stmt)->bind(1, game_id);
    std::optional<std::int64_t> fence;
    if ((*stmt)->step()) {
        fence = (*stmt)->integer(0);
    }
    if (auto status = (*stmt)->status(); !status) {
        return core::make_error(std::string(what) + ": " + status.error());
    }
    return fence;
}

// Ok when a batch holding `mine` may write into the game whose stored fence is `stored`.
core::Status sqlite_fence_allows(const std::optional<std::int64_t>& stored,
                                 std::string_view game_id, std::int64_t mine,
                                 std::string_view what) {
    if (!stored) {
        return core::make_error(std::string(what) + ": no such game " + std::string(game_id));
    }
    if (*stored > mine) {
        return core::make_error(fenced_error(game_id, *stored, mine));
    }
    return core::ok_status();
}

}  // namespace

core::Status claim_game(sqlite::Connection& db, const ClaimGame& claim) {
    auto stored = sqlite_stored_fence(db, claim.game_id, "claim_game");
    if (!stored) {
        return core::make_error(stored.error());
    }
    if (auto allowed = sqlite_fence_allows(*stored, claim.game_id, claim.fence, "claim_game");
        !allowed) {
        return allowed;
    }
    return sqlite::annotate(
        sqlite::run(db, sql::writes::claim_game(sql::Dialect::sqlite),
                    [&](Statement& s) { s.bind(1, claim.game_id).bind(2, claim.fence); }),
        "claim_game");
}

core::Status check_fence(sqlite::Connection& db, const CheckFence& check) {
    auto stored = sqlite_stored_fence(db, check.game_id, "check_fence");
    if (!stored) {
        return core::make_error(stored.error());
    }
    return sqlite_fence_allows(*stored, check.game_id, check.fence, "check_fence");
}

}  // namespace server::sqlite_fences
