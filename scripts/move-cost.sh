#!/usr/bin/env bash
# The cost of a move in instructions (docs/performance.md, issue 24): chessence-server with
# :memory: and one I/O thread runs under callgrind while chessence-load plays one room in a closed
# loop; the server's instructions from the start of the window to its end, divided by the moves
# the load tool counted in it. Callgrind counts instructions, not time, so the number is stable on
# a busy machine. Prints the number, the moves and where the callgrind profile was kept.
#   scripts/move-cost.sh [--variant chessence|chesica] [--seconds S] [--db FILE] [--keep DIR]
# --db counts the road through a SQLite file instead of :memory:; scripts/move-files.py DIR reads
# a kept profile and lists the source files that run on every move.
# (needs a Release build, scripts/build.sh release, and valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin
variant=chessence
seconds=10
keep=""
db=":memory:"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --variant) variant=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --db) db=$2; shift 2 ;;
        *) echo "usage: scripts/move-cost.sh [--variant chessence|chesica] [--seconds S] [--db FILE] [--keep DIR]" >&2; exit 2 ;;
    esac
done
command -v valgrind >/dev/null || { echo "move-cost: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Instrumentation starts off and is switched on for the window only (callgrind_control).
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.out" \
    "$bin/chessence-server" --port 0 --bind 127.0.0.1 --db "$db" --web-root web-client \
    --trusted-proxy 127.0.0.1 --rate 10000 --log-level warn --threads 1 --bot-threads 0 \
    >"$work/server.out" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 300); do
    port=$(grep -oE 'listening on [0-9.]+:[0-9]+' "$work/server.out" | grep -oE '[0-9]+$' || true)
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { echo "move-cost: the server did not start" >&2; cat "$work/server.out" >&2; exit 1; }

callgrind_control -i on "$server_pid" >/dev/null
"$bin/chessence-load" --url "ws://127.0.0.1:$port/ws" --rooms 1 --variant "$variant" \
    --seconds "$seconds" --json >"$work/load.json"
callgrind_control -i off "$server_pid" >/dev/null
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true

instructions=$(grep -m1 -E '^totals:' "$work/callgrind.out" | grep -oE '[0-9]+$')
moves=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["moves"])' "$work/load.json")
[[ "$moves" -gt 0 ]] || { echo "move-cost: no moves were played" >&2; cat "$work/load.json" >&2; exit 1; }
echo "variant $variant: $instructions instructions for $moves moves: $((instructions / moves)) per move"
if [[ -n "$keep" ]]; then
    mkdir -p "$keep"
    cp "$work/callgrind.out" "$work/load.json" "$keep/"
    echo "profile: $keep/callgrind.out (callgrind_annotate --inclusive=yes $keep/callgrind.out)"
fi
