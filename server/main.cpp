// chessence-server: the game server (server/launch.h has its life and its exit codes).
// `chessence-server admin --grant NAME` changes an account in the database and exits
// (server/admin_command.h).
#include "server/launch.h"

int main(int argc, char** argv) {
    return server::run_server_program(argc, argv);
}
