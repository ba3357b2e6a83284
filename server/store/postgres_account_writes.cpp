// The account, session, moderation and rating writes on PostgreSQL (postgres_writes.h), the same
// promises as sqlite_account_writes.cpp.
#include <string>

#include "server/store/postgres_writes.h"
#include "server/store/sql_reads.h"
#include "server/store/sql_rows.h"
#include "server/store/sql_writes.h"
#include "server/store/username_key.h"

namespace server::pg_writes {

namespace {

using pg::Connection;
using pg::Params;
namespace writes = sql::writes;

// An UPDATE that must change exactly one row.
core::Status update_one(Connection& db, const std::string& what, const std::string& sql,
                        const Params& params, const std::string& missing) {
    auto updated = db.query(sql, params);
    if (!updated) {
        return core::make_error(what + ": " + updated.error());
    }
    if (updated->affected() == 0) {
        return core::make_error(what + ": " + missing);
    }
    return core::ok_status();
}

// A player's rating in `variant` (nullopt when there is none yet) or the read's error.
core::Expected<std::optional<RatingRecord>> current_rating(Connection& db,
                                                           const std::string& player_id,
                                                           const std::string& variant) {
    auto rows = db.query(sql::reads::rating_in(dialect), Params(player_id, variant));
    if (!rows) {
        return core::make_error(rows.error());
    }
    if (rows->rows() == 0) {
        return std::optional<RatingRecord>();
    }
    return std::optional<RatingRecord>(sql::rating_from_row(player_id, pg::Row(*rows, 0)));
}

}  // namespace

core::Status apply(Connection& db, const CreateAccount& w) {
    const auto& a = w.account;
    auto inserted = db.query(writes::create_account(dialect),
                             Params(a.player_id, a.username, username_key(a.username),
                                    a.password_hash, a.admin, a.created_at));
    if (inserted) {
        return core::ok_status();
    }
    const auto& failure = db.last_failure();
    if (failure.sqlstate == pg::unique_violation) {
        // Which constraint: the primary key (an account already) or the username's.
        return failure.message.find("accounts_pkey") != std::string::npos
                   ? core::make_error("create_account: player " + a.player_id +
                                      " is an account already")
                   : core::make_error("create_account: name taken: " + a.username);
    }
    if (failure.sqlstate == pg::foreign_key_violation) {
        return core::make_error("create_account: no such player " + a.player_id);
    }
    return core::make_error("create_account: " + inserted.error());
}

core::Status apply(Connection& db, const SetPassword& w) {
    return update_one(db, "set_password", writes::set_password(dialect),
                      Params(w.password_hash, w.player_id), "no account " + w.player_id);
}

core::Status apply(Connection& db, const SetAdmin& w) {
    return update_one(db, "set_admin", writes::set_admin(dialect), Params(w.admin, w.player_id),
                      "no account " + w.player_id);
}

core::Status apply(Connection& db, const SetModeration& w) {
    Params params;
    if (w.muted) {
        params.add(*w.muted);
    } else {
        params.add_null();
    }
    if (w.closed) {
        params.add(*w.closed);
    } else {
        params.add_null();
    }
    params.add(w.player_id);
    return update_one(db, "set_moderation", writes::set_moderation(dialect), params,
                      "no player " + w.player_id);
}

core::Status apply(Connection& db, const AddSession& w) {
    auto inserted =
        db.query(writes::add_session(dialect), Params(w.token_hash, w.player_id, w.created_at));
    if (!inserted) {
        return db.last_failure().sqlstate == pg::foreign_key_violation
                   ? core::make_error("add_session: no such player " + w.player_id)
                   : core::make_error("add_session: " + inserted.error());
    }
    return core::ok_status();
}

core::Status apply(Connection& db, const RevokeSession& w) {
    return pg::run(db, writes::revoke_session(dialect), Params(w.token_hash), "revoke_session");
}

core::Status apply(Connection& db, const RevokeSessions& w) {
    return pg::run(db, writes::revoke_sessions(dialect), Params(w.player_id, w.keep_token_hash),
                   "revoke_sessions");
}

core::Status apply(Connection& db, const RateGame& w) {
    std::vector<std::optional<RatingRecord>> current;
    for (const auto& player : w.players) {
        auto rating = current_rating(db, player, w.variant);
        if (!rating) {
            return core::make_error("rate_game: " + rating.error());
        }
        current.push_back(std::move(*rating));
    }
    const auto rated = w.rate(current, w.at);
    if (rated.size() != w.players.size()) {
        return core::make_error("rate_game: a rating for each of the " +
                                std::to_string(w.players.size()) + " seats is needed");
    }
    for (std::size_t seat = 0; seat < rated.size(); ++seat) {
        const auto& player = w.players[seat];
        const auto& before = rated[seat].before;
        const auto& after = rated[seat].after;
        if (auto saved =
                pg::run(db, writes::save_rating(dialect),
                        Params(player, w.variant, after.rating, after.rd, after.volatility, w.at),
                        "rate_game");
            !saved) {
            return saved;
        }
        auto change =
            db.query(writes::add_game_rating(dialect),
                     Params(w.game_id, seat, player, w.variant, before.rating, before.rd,
                            before.volatility, after.rating, after.rd, after.volatility, w.at));
        if (!change) {
            return db.last_failure().sqlstate == pg::unique_violation
                       ? core::make_error("rate_game: game " + w.game_id + " is rated already")
                       : core::make_error("rate_game: " + change.error());
        }
    }
    return core::ok_status();
}

}  // namespace server::pg_writes
