#!/bin/sh
# ctest entry point: install the locked npm packages when missing or stale, then run every browser test.
set -eu
cd "$(dirname "$0")"
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.lock-copy; then
    npm ci --no-audit --no-fund --prefer-offline
    cp package-lock.json node_modules/.lock-copy
fi
exec node --test --test-concurrency=1 --test-reporter=spec client.test.mjs game.test.mjs
