// Fencing numbers (fences.h) on PostgreSQL, where several nodes write into one database. A claim
// is one conditional UPDATE; a check reads the game's row FOR SHARE, and that row lock, held until
// the writer's group commits, makes a concurrent claim (an UPDATE of the row) wait for the batch
// that passed its check: a claim never slips between a batch's check and its writes. A check that
// meets an uncommitted claim waits for it in turn and then reads the new fence. The row lock
// holds across connections, so a node claims on a connection of its own (PostgresStore::
// claim_game, below), not in its writer's group: a claim waiting for a stopped owner's check
// holds up none of the claimer's other writes (issue 42, finding 15).
#include <string>
#include <thread>

#include "server/store/postgres_store.h"
#include "server/store/postgres_writes.h"
#include "server/store/sql_writes.h"

namespace server::pg_writes {

namespace {

using pg::Connection;
using pg::Params;

// The SQLSTATE of a statement that waited for a lock longer than lock_timeout.
constexpr std::string_view lock_not_available = "55P03";

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

// The claim's statements, in the transaction `db` is in; `contended` (unless null) tells whether
// the UPDATE failed for waiting longer than lock_timeout for the row's lock.
core::Status claim(Connection& db, const ClaimGame& w, bool* contended) {
    auto claimed = db.query(sql::writes::claim_game(dialect), Params(w.game_id, w.fence));
    if (!claimed) {
        if (contended) {
            *contended = db.last_failure().sqlstate == lock_not_available;
        }
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

// One attempt of PostgresStore::claim_game: the claim as a transaction of its own, durable when
// it returns ok (synchronous_commit on, whatever the read connection's session says).
core::Status claim_alone(Connection& db, const ClaimGame& w, bool& contended) {
    if (auto begun = db.exec("BEGIN; SET LOCAL synchronous_commit = on"); !begun) {
        (void)db.exec("ROLLBACK");
        return core::make_error("claim_game: cannot start a transaction: " + begun.error());
    }
    auto status = claim(db, w, &contended);
    if (!status) {
        (void)db.exec("ROLLBACK");
        return status;
    }
    if (auto committed = db.exec("COMMIT"); !committed) {
        (void)db.exec("ROLLBACK");
        return core::make_error("claim_game: commit failed: " + committed.error());
    }
    return status;
}

}  // namespace

core::Status apply(Connection& db, const ClaimGame& w) {
    return claim(db, w, nullptr);
}

core::Status apply(Connection& db, const CheckFence& w) {
    auto stored = db.query_text(sql::writes::checked_fence(dialect), Params(w.game_id));
    if (!stored) {
        return core::make_error("check_fence: " + stored.error());
    }
    return pg_fence_allows(*stored, w.game_id, w.fence, "check_fence");
}

}  // namespace server::pg_writes

namespace server {

// A claim that met a former owner's lock is tried again (the server ends a stopped owner's
// transaction after idle_in_transaction_session_timeout, about a lease); any other outcome is
// final at once.
core::Status PostgresStore::claim_game(const ClaimGame& claim) {
    for (int attempt = 1;; ++attempt) {
        bool contended = false;
        auto status =
            read([&](pg::Connection& db) { return pg_writes::claim_alone(db, claim, contended); });
        if (status || !contended) {
            return status;
        }
        if (attempt == claim_attempts) {
            return core::make_error(std::string(claim_contended_prefix) + "game " + claim.game_id +
                                    " is still locked by a former owner's batch after " +
                                    std::to_string(claim_attempts) + " tries: " + status.error());
        }
        std::this_thread::sleep_for(claim_backoff * attempt);
    }
}

}  // namespace server
