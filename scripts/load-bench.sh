#!/usr/bin/env bash
# The load benchmark of docs/performance.md: the same chessence-load runs against chessence-server
# with a SQLite file, with :memory:, and against the bare Node relay (tools/relay/), the server
# pinned to core 0 and the load generator to core 1 (taskset). Prints one JSON report per run.
#   scripts/load-bench.sh [--quick]     (needs a Release build: scripts/build.sh release)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
seconds=10
[[ "${1:-}" == "--quick" ]] && seconds=2
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
if [[ ! -d tools/relay/node_modules ]]; then
    (cd tools/relay && npm ci --no-audit --no-fund --prefer-offline >/dev/null)
fi

# start <kind>: starts the target on core 0 and sets server_pid and port.
start() {
    local out="$work/out.$1"
    case "$1" in
        sqlite) taskset -c 0 "$bin/chessence-server" --port 0 --bind 127.0.0.1 --db "$work/bench.db" \
                    --web-root web-client --trusted-proxy 127.0.0.1 --rate 10000 --max-queue 4096 \
                    --connections-total 100000 --log-level warn --threads 1 >"$out" 2>&1 & ;;
        memory) taskset -c 0 "$bin/chessence-server" --port 0 --bind 127.0.0.1 --db :memory: \
                    --web-root web-client --trusted-proxy 127.0.0.1 --rate 10000 --max-queue 4096 \
                    --connections-total 100000 --log-level warn --threads 1 >"$out" 2>&1 & ;;
        relay) taskset -c 0 node tools/relay/relay.mjs 0 >"$out" 2>&1 & ;;
    esac
    server_pid=$!
    for _ in $(seq 100); do
        port=$(grep -oE 'listening on [0-9.]+:[0-9]+' "$out" | grep -oE '[0-9]+$' || true)
        [[ -n "$port" ]] && return 0
        sleep 0.1
    done
    echo "load-bench: $1 did not start" >&2
    cat "$out" >&2
    exit 1
}
stop() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    rm -f "$work"/bench.db*
}
# run <kind> <label> <chessence-load options…>
run() {
    local kind=$1 label=$2
    shift 2
    start "$kind"
    echo "== $label ($kind)"
    taskset -c 1 "$bin/chessence-load" --url "ws://127.0.0.1:$port/ws" --pid "$server_pid" \
        --seconds "$seconds" --json "$@" || true
    stop
}

for kind in sqlite memory relay; do
    run "$kind" "1 room, closed loop" --rooms 1
    run "$kind" "10 rooms, closed loop" --rooms 10
    run "$kind" "100 rooms, closed loop" --rooms 100
    run "$kind" "1 room, 1000 spectators joining 50 at a time, 10 moves/s" --rooms 1 \
        --spectators 1000 --join-batch 50 --think-ms 100
    run "$kind" "10000 idle connections, 20 lobby subscribers, 10 rooms at 1 move/s" --rooms 10 \
        --think-ms 1000 --idle 10000 --lobby 20
done
