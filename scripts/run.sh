#!/usr/bin/env bash
# Installs what is missing, builds Release and starts the server on port 8080 with an SQLite file.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release chessence-server chessence
mkdir -p data
exec build/release/bin/chessence-server --port "${CHESSENCE_PORT:-8080}" \
    --db "${CHESSENCE_DB:-data/chessence.db}" --web-root web-client \
    --puzzles "${CHESSENCE_PUZZLES:-puzzles/bank.json}" "$@"
