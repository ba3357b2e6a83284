#!/bin/bash
# Docker's health check: succeeds when GET /healthz answers 200. Uses bash's /dev/tcp, so the image
# needs no HTTP client.
set -u
port="${CHESSENCE_PORT:-8080}"
host="${CHESSENCE_BIND:-0.0.0.0}"
case "$host" in
    0.0.0.0 | "") host=127.0.0.1 ;;
    :: | "[::]") host=::1 ;;
esac
exec 3<>"/dev/tcp/${host}/${port}" || exit 1
printf 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
IFS= read -r -t 4 status_line <&3 || exit 1
case "$status_line" in
    "HTTP/1."?" 200 "*) exit 0 ;;
    *) echo "unhealthy: ${status_line}" >&2; exit 1 ;;
esac
