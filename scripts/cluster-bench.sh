#!/usr/bin/env bash
# The cluster measurements of docs/performance.md (issue 27), all on this machine: chessence-load's
# closed-loop rooms against one node and against three nodes of a cluster (one PostgreSQL, one
# Redis, the nodes in cluster mode; with three, each room's White plays on one node and its Black
# on the next, so half the moves are relayed), then the failover time after kill -9 of a game's
# owner, over N kills (the ClusterRelay test that kills an owner with a move in flight, leases of
# 1 s). Prints one JSON report per load run, then the failover times.
#   scripts/cluster-bench.sh [--quick]     (needs a Release build with its tests)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
seconds=10
kills=10
if [[ "${1:-}" == "--quick" ]]; then
    seconds=2
    kills=2
fi
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d /tmp/chessence-cluster-bench.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    tests/support/redis.sh stop "$work/redis" >/dev/null 2>&1 || true
    tests/support/postgres.sh stop "$work/pg" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
tests/support/postgres.sh start "$work/pg"
tests/support/redis.sh start "$work/redis"
redis="unix://$work/redis/redis.sock"

# nodes <count> <database>: starts that many nodes in cluster mode; sets ports.
nodes() {
    local count=$1 db=$2
    ports=()
    pids=()
    for i in $(seq "$count"); do
        local out="$work/node$i.out"
        "$bin/chessence-server" --port 0 --bind 127.0.0.1 --db "$db" --web-root web-client \
            --redis "$redis" --node-id "bench$i" --trusted-proxy 127.0.0.1 --rate 10000 \
            --max-queue 4096 --connections-total 100000 --log-level warn --threads 1 \
            >"$out" 2>&1 &
        pids+=($!)
        local port=""
        for _ in $(seq 150); do
            port=$(grep -oE 'listening on [0-9.]+:[0-9]+' "$out" | grep -oE '[0-9]+$' || true)
            [[ -n "$port" ]] && break
            sleep 0.1
        done
        [[ -n "$port" ]] || { echo "cluster-bench: node $i did not start" >&2; cat "$out" >&2; exit 1; }
        ports+=("$port")
    done
}
stop_nodes() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}
# run <count> <label> <chessence-load options…>: a fresh database each time.
run=0
run() {
    local count=$1 label=$2
    shift 2
    run=$((run + 1))
    psql -q -h "$work/pg" -U postgres -d chessence_tests -c "CREATE DATABASE bench$run" >/dev/null
    nodes "$count" "postgresql://postgres@/bench$run?host=$work/pg"
    local urls=()
    for port in "${ports[@]}"; do urls+=(--url "ws://127.0.0.1:$port/ws"); done
    echo "== $label ($count node(s))"
    "$bin/chessence-load" "${urls[@]}" --seconds "$seconds" --json "$@" || true
    stop_nodes
}

for count in 1 3; do
    run "$count" "1 room, closed loop" --rooms 1
    run "$count" "10 rooms, closed loop" --rooms 10
    run "$count" "100 rooms, closed loop" --rooms 100
done

echo "== failover after kill -9 ($kills kills, leases of 1 s)"
CHESSENCE_TEST_POSTGRES="$work/pg" CHESSENCE_TEST_REDIS="$work/redis" \
    "$bin/server_tests" --gtest_filter='ClusterRelay.AnOwnerKilled*' --gtest_repeat="$kills" |
    grep -oE 'failover after kill -9: [0-9]+ ms' | sed -E 's/.*: ([0-9]+) ms/\1/' | sort -n |
    awk '{ v[NR] = $1 } END { if (NR == 0) { print "no samples"; exit 1 }
         printf "failover: %d kills, p50 %d ms, max %d ms\n", NR, v[int((NR + 1) / 2)], v[NR] }'
