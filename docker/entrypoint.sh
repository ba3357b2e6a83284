#!/bin/sh
# Starts the server with the settings of the CHESSENCE_* environment variables; extra arguments given
# to `docker run <image> ...` are passed on after them.
set -eu
exec /usr/local/bin/chessence-server \
    --port "${CHESSENCE_PORT:-8080}" \
    --bind "${CHESSENCE_BIND:-0.0.0.0}" \
    --db "${CHESSENCE_DB:-/data/chessence.db}" \
    --web-root "${CHESSENCE_WEB_ROOT:-/usr/share/chessence/web-client}" \
    --log-level "${CHESSENCE_LOG_LEVEL:-info}" \
    "$@"
