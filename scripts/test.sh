#!/usr/bin/env bash
# Installs what is missing, builds Release and runs every test with ctest; non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
scripts/build.sh release
ctest --preset release -j "$(nproc)" "$@"
