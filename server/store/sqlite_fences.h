#pragma once
// Fencing numbers (fences.h) in SQLite: the writer thread's ClaimGame and CheckFence, run inside
// the batch's savepoint. The single writer holds the file's write lock from its check to its
// commit, so nothing can claim a game between a batch's CheckFence and the batch's writes.
#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_fences {

// Sets the game's fence; fails if there is no such game, or with fenced_error if the stored fence
// is greater than the claim's.
core::Status claim_game(sqlite::Connection& db, const ClaimGame& claim);
// Fails with fenced_error if the game's stored fence is greater than the check's, or with an error
// if there is no such game; writes nothing.
core::Status check_fence(sqlite::Connection& db, const CheckFence& check);

}  // namespace server::sqlite_fences
