#include "server/admin_command.h"

#include <algorithm>
#include <future>

#include <CLI/CLI.hpp>

#include "server/store/open_store.h"

namespace server {

bool is_admin_command(const std::vector<std::string>& args) {
    return !args.empty() && args.front() == "admin";
}

int run_admin_command(const std::vector<std::string>& args, const std::string& default_db,
                      std::ostream& out, std::ostream& err) {
    CLI::App app("Grants or revokes admin rights on an account, in the database file.",
                 "chessence-server admin");
    std::string db = default_db;
    std::string grant;
    std::string revoke;
    app.add_option("--db", db, "SQLite file of the server [env CHESSENCE_DB]")->default_str(db);
    auto* grant_option = app.add_option("--grant", grant, "make the account NAME an admin");
    auto* revoke_option = app.add_option("--revoke", revoke, "make NAME an ordinary account");
    grant_option->excludes(revoke_option);
    app.require_option(1, 2);
    std::vector<std::string> rest(args.begin() + 1, args.end());
    std::reverse(rest.begin(), rest.end());
    try {
        app.parse(rest);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        err << "chessence-server admin: " << e.what() << " (see admin --help)\n";
        return 2;
    }
    if (grant.empty() == revoke.empty()) {
        err << "chessence-server admin: give --grant NAME or --revoke NAME\n";
        return 2;
    }
    if (db == ":memory:") {
        err << "chessence-server admin: an in-memory database keeps no accounts\n";
        return 2;
    }
    auto store = open_store(db);
    if (!store) {
        err << "chessence-server admin: cannot open the database " << db << ": " << store.error()
            << "\n";
        return 1;
    }
    const auto& name = grant.empty() ? revoke : grant;
    const auto found = (*store)->account_by_username(name);
    if (!found) {
        err << "chessence-server admin: cannot read the account " << name << ": " << found.error()
            << "\n";
        return 1;
    }
    const auto& account = *found;
    if (!account) {
        err << "chessence-server admin: there is no account named " << name << "\n";
        return 1;
    }
    std::promise<core::Status> done;
    (*store)->commit({SetAdmin{account->player_id, !grant.empty()}},
                     [&done](core::Status status) { done.set_value(std::move(status)); });
    const auto status = done.get_future().get();
    if (!status) {
        err << "chessence-server admin: " << status.error() << "\n";
        return 1;
    }
    out << account->username << " (" << account->player_id << ") is "
        << (grant.empty() ? "no longer an admin" : "an admin") << "\n";
    return 0;
}

}  // namespace server
