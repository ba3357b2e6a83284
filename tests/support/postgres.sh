#!/bin/sh
# A PostgreSQL server of the tests' own, from the Debian package's binaries:
#   tests/support/postgres.sh start DIR   initdb into DIR/data, listen on a Unix socket in DIR only,
#                                         create the database chessence_tests; prints nothing
#   tests/support/postgres.sh stop DIR    stop it at once and remove DIR
# Clients connect with postgresql://postgres@/chessence_tests?host=DIR. As root it runs as the
# `postgres` user (initdb refuses root), so DIR must be where that user can reach (under /tmp).
set -eu
command=${1:?start or stop}
dir=${2:?the server folder}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "postgres.sh: no PostgreSQL server binaries (Debian package postgresql; scripts/install-deps.sh --test)" >&2
    exit 1
fi
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$command" in
start)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_postgres "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    as_postgres "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C \
        --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses= -c max_connections=300 -c shared_buffers=32MB" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_postgres "$bindir/createdb" -h "$dir" -U postgres chessence_tests
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_postgres "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "postgres.sh: start or stop, not $command" >&2
    exit 2
    ;;
esac
