#!/bin/sh
# ctest entry point: install the locked npm packages when missing or stale, then run every browser test.
set -eu
cd "$(dirname "$0")"
for tool in node npm; do
    command -v "$tool" >/dev/null 2>&1 || { echo "e2e: $tool is missing (scripts/install-deps.sh)" >&2; exit 1; }
done
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || { echo "e2e: ${CHROMIUM_PATH:-/usr/bin/chromium} is missing" >&2; exit 1; }
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.lock-copy; then
    npm ci --no-audit --no-fund --prefer-offline
    cp package-lock.json node_modules/.lock-copy
fi
exec node --test --test-concurrency=1 --test-reporter=spec client.test.mjs game.test.mjs learn.test.mjs play_ux.test.mjs lobby.test.mjs layout.test.mjs clock.test.mjs accounts.test.mjs restart.test.mjs first_visit.test.mjs play_computer.test.mjs puzzles.test.mjs analysis.test.mjs new_user_defects.test.mjs tournament_client.test.mjs tournament.test.mjs
