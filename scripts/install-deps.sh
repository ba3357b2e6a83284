#!/usr/bin/env bash
# Installs, with apt-get, whatever of the project's Debian 12 packages is missing. Idempotent.
#   scripts/install-deps.sh          build and run the server
#   scripts/install-deps.sh --test   also what the tests need (browser, Node.js, Docker, debootstrap,
#                                    PostgreSQL and Redis servers)
set -euo pipefail

# What each is for: README.md, "Debian packages".
packages=(g++ cmake make pkg-config libboost1.81-dev nlohmann-json3-dev libspdlog-dev libgtest-dev
          libsqlite3-dev sqlite3 libpq-dev libhiredis-dev libsodium-dev libcli11-dev libvalijson-dev
          curl ca-certificates)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(chromium nodejs npm docker.io docker-compose debootstrap iproute2 procps python3
               python3-jsonschema python3-prometheus-client clang libclang-rt-14-dev
               postgresql redis-server haproxy)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
# A machine may carry Node.js and npm from elsewhere; those are fine.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    filtered=()
    for p in "${missing[@]}"; do
        [[ "$p" == nodejs || "$p" == npm ]] || filtered+=("$p")
    done
    missing=("${filtered[@]+"${filtered[@]}"}")
fi
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    sudo=(sudo)
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
