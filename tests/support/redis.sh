#!/bin/sh
# A Redis server of the tests' own, from the Debian package redis-server:
#   tests/support/redis.sh start DIR   a redis-server listening only on the Unix socket DIR/redis.sock
#                                      (--port 0), keeping nothing on disk, in the background;
#                                      returns once it answers PING; prints nothing
#   tests/support/redis.sh stop DIR    shut it down at once and remove DIR
# Clients connect with unix://DIR/redis.sock.
set -eu
command=${1:?start or stop}
dir=${2:?the server folder}
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    echo "redis.sh: no redis-server or redis-cli (Debian package redis-server; scripts/install-deps.sh --test)" >&2
    exit 1
fi
socket="$dir/redis.sock"
# SHUTDOWN NOSAVE (or SIGTERM), then wait until the socket no longer answers: the process may take
# another second to exit, but it serves nothing more.
stop_server() {
    if [ -f "$dir/redis.pid" ]; then
        pid=$(cat "$dir/redis.pid")
        redis-cli -s "$socket" shutdown nosave >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
        tries=0
        while [ "$(redis-cli -s "$socket" ping 2>/dev/null)" = PONG ] && [ "$tries" -lt 100 ]; do
            sleep 0.05
            tries=$((tries + 1))
        done
    fi
}
case "$command" in
start)
    stop_server
    rm -rf "$dir"
    mkdir -p "$dir"
    chmod 700 "$dir"
    redis-server --port 0 --unixsocket "$socket" --unixsocketperm 700 --dir "$dir" \
        --pidfile "$dir/redis.pid" --logfile "$dir/server.log" --daemonize yes \
        --save '' --appendonly no >/dev/null || { cat "$dir/server.log" >&2 2>/dev/null; exit 1; }
    tries=0
    until [ "$(redis-cli -s "$socket" ping 2>/dev/null)" = PONG ]; do
        tries=$((tries + 1))
        if [ "$tries" -ge 200 ]; then
            echo "redis.sh: the server in $dir did not answer PING within 10 s" >&2
            cat "$dir/server.log" >&2 2>/dev/null || true
            exit 1
        fi
        sleep 0.05
    done
    ;;
stop)
    stop_server
    rm -rf "$dir"
    ;;
*)
    echo "redis.sh: start or stop, not $command" >&2
    exit 2
    ;;
esac
