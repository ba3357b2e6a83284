#pragma once
// `chessence-server admin …` (issue 16): the operator's account commands. They work on the database
// file directly and never start the server (SQLite lets them run next to a running server: the
// server sees the change at the admin's next request or login).
#include <ostream>
#include <string>
#include <vector>

namespace server {

// True when the command line (without the program name) is an admin command.
bool is_admin_command(const std::vector<std::string>& args);

// Runs `admin [--db PATH] (--grant NAME | --revoke NAME)`: makes the account NAME (any case) an
// admin, or an ordinary account again. `default_db` is the database the server would use. Prints
// what it did to `out`, problems to `err`; returns the exit code (0 done, 1 the database or the
// account failed, 2 a bad command line).
int run_admin_command(const std::vector<std::string>& args, const std::string& default_db,
                      std::ostream& out, std::ostream& err);

}  // namespace server
