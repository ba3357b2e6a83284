#include "server/store/sqlite_account_writes.h"

#include <string>

#include "server/store/sql_reads.h"
#include "server/store/sql_rows.h"
#include "server/store/sql_writes.h"
#include "server/store/username_key.h"

namespace server::sqlite_account_writes {

namespace {

using sqlite::Connection;
using sqlite::Statement;

using sqlite::annotate;
using sqlite::run;
namespace writes = sql::writes;

constexpr auto dialect = sql::Dialect::sqlite;

// An UPDATE that must change exactly one row.
template <class Bind>
core::Status update_one(Connection& db, const std::string& what, const std::string& sql,
                        const std::string& missing, Bind&& bind) {
    auto updated = run(db, sql, bind);
    if (updated && db.changes() == 0) {
        return core::make_error(what + ": " + missing);
    }
    return annotate(std::move(updated), what);
}

std::optional<RatingRecord> current_rating(Connection& db, const std::string& player_id,
                                           const std::string& variant, core::Status& status) {
    auto stmt = db.prepare(sql::reads::rating_in(dialect));
    if (!stmt) {
        status = core::make_error(stmt.error());
        return std::nullopt;
    }
    (*stmt)->bind(1, player_id).bind(2, variant);
    if (!(*stmt)->step()) {
        status = (*stmt)->status();
        return std::nullopt;
    }
    return sql::rating_from_row(player_id, static_cast<const Statement&>(**stmt));
}

}  // namespace

core::Status apply(Connection& db, const CreateAccount& w) {
    const auto& a = w.account;
    auto inserted = run(db, writes::create_account(dialect), [&](Statement& s) {
        s.bind(1, a.player_id).bind(2, a.username).bind(3, username_key(a.username));
        s.bind(4, a.password_hash).bind(5, std::int64_t{a.admin ? 1 : 0});
        s.bind(6, a.created_at);
    });
    if (inserted) {
        return inserted;
    }
    switch (db.last_error_code()) {
        case SQLITE_CONSTRAINT_UNIQUE:
            return core::make_error("create_account: name taken: " + a.username);
        case SQLITE_CONSTRAINT_PRIMARYKEY:
            return core::make_error("create_account: player " + a.player_id +
                                    " is an account already");
        case SQLITE_CONSTRAINT_FOREIGNKEY:
            return core::make_error("create_account: no such player " + a.player_id);
        default:
            return annotate(std::move(inserted), "create_account");
    }
}

core::Status apply(Connection& db, const SetPassword& w) {
    return update_one(db, "set_password", writes::set_password(dialect),
                      "no account " + w.player_id,
                      [&](Statement& s) { s.bind(1, w.password_hash).bind(2, w.player_id); });
}

core::Status apply(Connection& db, const SetAdmin& w) {
    return update_one(
        db, "set_admin", writes::set_admin(dialect), "no account " + w.player_id,
        [&](Statement& s) { s.bind(1, std::int64_t{w.admin ? 1 : 0}).bind(2, w.player_id); });
}

core::Status apply(Connection& db, const SetModeration& w) {
    return update_one(db, "set_moderation", writes::set_moderation(dialect),
                      "no player " + w.player_id, [&](Statement& s) {
                          if (w.muted) {
                              s.bind(1, std::int64_t{*w.muted ? 1 : 0});
                          } else {
                              s.bind_null(1);
                          }
                          if (w.closed) {
                              s.bind(2, std::int64_t{*w.closed ? 1 : 0});
                          } else {
                              s.bind_null(2);
                          }
                          s.bind(3, w.player_id);
                      });
}

core::Status apply(Connection& db, const AddSession& w) {
    auto inserted = run(db, writes::add_session(dialect), [&](Statement& s) {
        s.bind(1, w.token_hash).bind(2, w.player_id).bind(3, w.created_at);
    });
    if (!inserted && db.last_error_code() == SQLITE_CONSTRAINT_FOREIGNKEY) {
        return core::make_error("add_session: no such player " + w.player_id);
    }
    return annotate(std::move(inserted), "add_session");
}

core::Status apply(Connection& db, const RevokeSession& w) {
    return annotate(
        run(db, writes::revoke_session(dialect), [&](Statement& s) { s.bind(1, w.token_hash); }),
        "revoke_session");
}

core::Status apply(Connection& db, const RevokeSessions& w) {
    return annotate(run(db, writes::revoke_sessions(dialect),
                        [&](Statement& s) { s.bind(1, w.player_id).bind(2, w.keep_token_hash); }),
                    "revoke_sessions");
}

core::Status apply(Connection& db, const RateGame& w) {
    std::vector<std::optional<RatingRecord>> current;
    for (const auto& player : w.players) {
        core::Status read = core::ok_status();
        current.push_back(current_rating(db, player, w.variant, read));
        if (!read) {
            return annotate(std::move(read), "rate_game");
        }
    }
    const auto rated = w.rate(current, w.at);
    if (rated.size() != w.players.size()) {
        return core::make_error("rate_game: a rating for each of the " +
                                std::to_string(w.players.size()) + " seats is needed");
    }
    for (std::size_t seat = 0; seat < rated.size(); ++seat) {
        const auto& player = w.players[seat];
        // Named, not a structured binding: the lambdas below capture them (clang 14 cannot).
        const auto& before = rated[seat].before;
        const auto& after = rated[seat].after;
        auto saved = run(db, writes::save_rating(dialect), [&](Statement& s) {
            s.bind(1, player).bind(2, w.variant).bind_real(3, after.rating);
            s.bind_real(4, after.rd).bind_real(5, after.volatility).bind(6, w.at);
        });
        if (!saved) {
            return annotate(std::move(saved), "rate_game");
        }
        auto change = run(db, writes::add_game_rating(dialect), [&](Statement& s) {
            s.bind(1, w.game_id).bind(2, static_cast<std::int64_t>(seat)).bind(3, player);
            s.bind(4, w.variant).bind_real(5, before.rating).bind_real(6, before.rd);
            s.bind_real(7, before.volatility).bind_real(8, after.rating);
            s.bind_real(9, after.rd).bind_real(10, after.volatility).bind(11, w.at);
        });
        if (!change) {
            return db.last_error_code() == SQLITE_CONSTRAINT_UNIQUE
                       ? core::make_error("rate_game: game " + w.game_id + " is rated already")
                       : annotate(std::move(change), "rate_game");
        }
    }
    return core::ok_status();
}

}  // namespace server::sqlite_account_writes
