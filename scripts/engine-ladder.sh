#!/usr/bin/env bash
# Measures the engine's level ladder: level L against level L-1 for L = 2..8, one
# `chessence match` each, and prints one line per pair (the W / D / L of the higher level).
#   scripts/engine-ladder.sh <chessence|chesica> [games] [seed] [match options ...]
# The match options default to `--nodes 40000` (a level's share of the node limit follows its
# share of the time, so node-limited ladders do not depend on the machine's load); pass e.g.
# `--movetime 200` instead. A benchmark, not a test: docs/engine.md lists results.
set -euo pipefail
cd "$(dirname "$0")/.."
variant="${1:?usage: scripts/engine-ladder.sh <chessence|chesica> [games] [seed] [match options]}"
games="${2:-20}"
seed="${3:-1}"
shift $(($# < 3 ? $# : 3))
limit=("$@")
if [ ${#limit[@]} -eq 0 ]; then
    limit=(--nodes 40000)
fi
bin="${CHESSENCE:-build/release/bin/chessence}"
for level in 2 3 4 5 6 7 8; do
    result=$("$bin" match --variant "$variant" --levels "$level" $((level - 1)) --games "$games" \
        --seed "$seed" "${limit[@]}" | grep -E '^(W / D / L|score|elo_diff)' | tr '\n' ' ')
    echo "$variant level $level vs $((level - 1)) (${limit[*]}): $result"
done
