#!/usr/bin/env bash
# The computer players under load (issue 25, docs/performance.md): 20 games against the computer at
# once beside 10 rooms of people who move every half second, against chessence-server with a
# SQLite file and its default bot threads (the cores less one). Per level: how long a person waits
# for the computer's reply (p50/p99) and how long people's moves take to reach their opponents
# meanwhile. Prints one line per level.
#   scripts/bot-bench.sh [--quick] [--server <chessence-server binary>] [--levels "1 4 8"]
# (needs a Release build: scripts/build.sh release; --server compares another build of the server)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
server=$bin/chessence-server
seconds=30
levels="1 4 8"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --quick) seconds=3 ;;
        --server) server=$2; shift ;;
        --levels) levels=$2; shift ;;
        *) echo "usage: scripts/bot-bench.sh [--quick] [--server <binary>] [--levels \"1 4 8\"]" >&2; exit 2 ;;
    esac
    shift
done
work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

for level in $levels; do
    "$server" --port 0 --bind 127.0.0.1 --db "$work/bench.db" --web-root web-client \
        --trusted-proxy 127.0.0.1 --rate 10000 --log-level warn >"$work/out" 2>&1 &
    server_pid=$!
    port=
    for _ in $(seq 100); do
        port=$(grep -oE 'listening on [0-9.]+:[0-9]+' "$work/out" | grep -oE '[0-9]+$' || true)
        [[ -n "$port" ]] && break
        sleep 0.1
    done
    [[ -n "$port" ]] || { echo "bot-bench: the server did not start" >&2; cat "$work/out" >&2; exit 1; }
    "$bin/chessence-load" --url "ws://127.0.0.1:$port/ws" --rooms 10 --think-ms 500 \
        --computer 20 --level "$level" --max-plies 60 --seconds "$seconds" --json >"$work/report" || true
    python3 - "$level" "$work/report" <<'EOF'
import json, sys
level, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
if not r['setup_complete']:
    print(f"level {level}: setup failed: {r['failure']}")
    sys.exit(0)
c, o = r['move_to_computer_reply'], r['move_to_opponent']
print(f"level {level}: computer reply p50 {c['p50_ms']:.0f} ms p99 {c['p99_ms']:.0f} ms "
      f"({c['samples']} replies); people's move -> opponent p50 {o['p50_ms']:.2f} ms "
      f"p99 {o['p99_ms']:.2f} ms ({o['samples']} moves); errors {r['errors']}")
EOF
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    rm -f "$work"/bench.db*
done
