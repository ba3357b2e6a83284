#!/usr/bin/env bash
# Self-hosting end to end: builds docker/Dockerfile on a local debian:bookworm-slim (made with
# debootstrap when the engine has none), runs the server container on a loopback port with its
# database on a named volume, plays two moves over the WebSocket, restarts the container and checks
# that the game is still there, and that `docker stop` (SIGTERM) ends it in under 10 s. Then the
# cluster (docker/compose.cluster.yml): PostgreSQL, Redis, three nodes and HAProxy from Debian
# packages; two players play through HAProxy, and the game survives a node killed.
# Starts its own dockerd when none answers, and removes everything it started when it ends.
#
# Environment: CHESSENCE_DEBIAN_MIRROR (default: the mirror apt uses here),
#   CHESSENCE_DOCKER_ROOT (data root of the dockerd it starts; keeps the base-image cache),
#   CHESSENCE_DOCKER_KEEP=1 (leave container, volume and image in place for a look afterwards).
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
test_dir="$source_dir/tests/docker"
base_image=debian:bookworm-slim
deps_image=chessence-build-deps:cache
image=chessence-server:docker-test
parts_image=chessence-cluster-parts:latest
cluster_project=chessence-cluster-test
cluster_started=0
container=chessence-docker-test
volume=chessence-docker-test-data
docker_root=${CHESSENCE_DOCKER_ROOT:-/var/lib/chessence-docker}
run_dir=/run/chessence-docker
own_socket=$run_dir/docker.sock
work=$(mktemp -d /tmp/chessence-docker-test.XXXXXX)
dockerd_pid=""
docker_ok=0

log() { echo "[docker_test $(date -u +%H:%M:%S)] $*"; }
fail() {
    echo "docker_test: FAIL: $*" >&2
    exit 1
}
seconds_since() { echo "$(($(date +%s) - $1))"; }

cleanup() {
    local status=$?
    set +e
    if [[ $docker_ok -eq 1 && "${CHESSENCE_DOCKER_KEEP:-0}" != 1 ]]; then
        if [[ $cluster_started -eq 1 ]]; then
            cluster_compose down -v --remove-orphans >/dev/null 2>&1
            docker rmi "$parts_image" chessence-server:latest >/dev/null 2>&1
        fi
        docker rm -f "$container" >/dev/null 2>&1
        docker volume rm "$volume" >/dev/null 2>&1
        docker rmi "$image" >/dev/null 2>&1
        # Untagged build stages; only in our own engine, whose images are all ours.
        [[ -n $dockerd_pid ]] && docker image prune -f >/dev/null 2>&1
    fi
    for m in proc sys dev/pts dev; do
        mountpoint -q "$work/rootfs/$m" 2>/dev/null && umount -l "$work/rootfs/$m"
    done
    if [[ -n $dockerd_pid ]]; then
        log "stopping the dockerd this test started (pid $dockerd_pid)"
        kill -TERM "$dockerd_pid" 2>/dev/null
        for _ in $(seq 60); do
            kill -0 "$dockerd_pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -KILL "$dockerd_pid" 2>/dev/null
        mountpoint -q "$run_dir/exec/netns/default" && umount "$run_dir/exec/netns/default"
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. The Docker client and engine --------------------------------------------------------------
install_packages() {
    log "installing Debian packages: $*"
    [[ $(id -u) -eq 0 ]] || fail "need root to install $* (or install them first)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
missing=()
command -v dockerd >/dev/null && command -v docker >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || missing+=(docker-compose)
[[ ${#missing[@]} -eq 0 ]] || install_packages "${missing[@]}"

# The compose file must be valid and keep the database on a named volume at /data.
compose=$(docker-compose -f "$source_dir/docker/docker-compose.yml" config) \
    || fail "docker/docker-compose.yml is not a valid compose file"
grep -q -- '- chessence-data:/data' <<<"$compose" || fail "compose: no named volume at /data"
grep -q 'target: 8080' <<<"$compose" || fail "compose: port 8080 is not published"
grep -q 'restart: unless-stopped' <<<"$compose" || fail "compose: no restart policy"
metrics_token="metrics-$$-$RANDOM-token"
cluster_env=(env POSTGRES_PASSWORD="test-$$-$RANDOM" CHESSENCE_METRICS_TOKEN="$metrics_token"
             CHESSENCE_POSTGRES_VOLUME="$cluster_project-pg")
cluster_compose() {
    "${cluster_env[@]}" docker-compose -p "$cluster_project" \
        -f "$source_dir/docker/compose.cluster.yml" "$@"
}
cluster=$(cluster_compose config) || fail "docker/compose.cluster.yml is not a valid compose file"
for service in postgres redis node1 node2 node3 haproxy; do
    grep -qE "^  $service:" <<<"$cluster" || fail "compose.cluster: no service $service"
done
grep -q 'CHESSENCE_REDIS: redis://redis:6379' <<<"$cluster" || fail "compose.cluster: nodes without Redis"
grep -q "CHESSENCE_METRICS_TOKEN: $metrics_token" <<<"$cluster" || fail "compose.cluster: /metrics without a token"

engine_answers() { timeout 20 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# Prints the error lines and last words of the dockerd log $1, and keeps its last error message in
# dockerd_error (e.g. "failed to start daemon: ... operation not permitted").
dockerd_error=""
explain_dockerd_failure() {
    local log_file=$1
    echo "---- dockerd log (errors and last lines): $log_file" >&2
    grep -E 'level=(error|fatal)|failed|Error' "$log_file" | tail -n 15 >&2
    tail -n 5 "$log_file" >&2
    echo "----" >&2
    dockerd_error=$(grep -E 'level=(error|fatal)|failed to start daemon' "$log_file" | tail -n 1 \
        | sed -E 's/.*msg="?([^"]*)"?.*/\1/')
    dockerd_error=${dockerd_error:-"it did not answer within 60 s"}
}

# Starts dockerd with storage driver $1 ("" = its own choice); succeeds once it answers.
start_dockerd() {
    local driver=$1 log_file="$work/dockerd${1:+-$1}.log"
    local args=(--data-root "$docker_root" --exec-root "$run_dir/exec" -H "unix://$own_socket"
                --pidfile "$run_dir/dockerd.pid" --bridge=none --iptables=false --ip-forward=false
                --ip-masq=false)
    [[ -n $driver ]] && args+=(--storage-driver="$driver")
    log "starting dockerd ${driver:+(storage driver $driver) }with data root $docker_root, log $log_file"
    dockerd "${args[@]}" >"$log_file" 2>&1 &
    dockerd_pid=$!
    for _ in $(seq 60); do
        if engine_answers; then
            return 0
        fi
        if ! kill -0 "$dockerd_pid" 2>/dev/null; then
            dockerd_pid=""
            explain_dockerd_failure "$log_file"
            return 1
        fi
        sleep 1
    done
    explain_dockerd_failure "$log_file"
    kill -TERM "$dockerd_pid" 2>/dev/null
    wait "$dockerd_pid" 2>/dev/null
    dockerd_pid=""
    return 1
}

if engine_answers; then
    log "using the Docker engine that answers at ${DOCKER_HOST:-the default socket}"
else
    export DOCKER_HOST="unix://$own_socket"
    if engine_answers; then
        # A dockerd of an earlier run of this test that was cut short: ours to stop.
        dockerd_pid=$(cat "$run_dir/dockerd.pid" 2>/dev/null || true)
        log "reusing the dockerd left by an earlier run (pid ${dockerd_pid:-unknown})"
    else
        [[ $(id -u) -eq 0 ]] || fail "no Docker engine answers, and only root can start dockerd"
        mkdir -p "$run_dir" "$docker_root"
        old_pid=$(cat "$run_dir/dockerd.pid" 2>/dev/null || true)
        if [[ -n $old_pid ]] && ! kill -0 "$old_pid" 2>/dev/null; then
            rm -f "$run_dir/dockerd.pid"
        fi
        if ! start_dockerd "" && ! start_dockerd vfs; then
            fail "dockerd cannot run on this machine: $dockerd_error (log above; a Docker engine" \
                "needs root with mount, namespace and cgroup rights)"
        fi
    fi
fi
docker_ok=1
log "engine: Docker $(docker version --format '{{.Server.Version}}'), storage driver" \
    "$(docker info --format '{{.Driver}}')"

# --- 2. The base image ----------------------------------------------------------------------------
# Prints the Debian mirror apt uses for bookworm here (deb822 .sources first, then one-line lists).
debian_mirror() {
    if [[ -n ${CHESSENCE_DEBIAN_MIRROR:-} ]]; then
        echo "$CHESSENCE_DEBIAN_MIRROR"
        return
    fi
    local found
    found=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
        BEGIN { RS = ""; FS = "\n" }
        {
            uris = ""; ok = 0; deb = 0
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris); split(uris, u, /[ \t]+/) }
                if ($i ~ /^Types:/ && $i ~ /[ \t]deb([ \t]|$)/) deb = 1
                if ($i ~ /^Suites:/) {
                    n = split($i, s, /[ \t]+/)
                    for (j = 2; j <= n; j++) if (s[j] == "bookworm") ok = 1
                }
            }
            if (ok && deb && uris != "") { print u[1]; exit }
        }')
    if [[ -z $found ]]; then
        found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
            | sed -E 's/\[[^]]*\]//' | awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }')
    fi
    echo "${found:-http://deb.debian.org/debian}"
}

# Makes debian:bookworm-slim from a minimal debootstrap, trimmed like Docker Hub's slim image.
make_base_image() {
    command -v debootstrap >/dev/null || install_packages debootstrap
    local mirror rootfs="$work/rootfs" start
    mirror=$(debian_mirror)
    start=$(date +%s)
    log "no $base_image here: debootstrap --variant=minbase bookworm from $mirror"
    if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
        tail -n 20 "$work/debootstrap.log" >&2
        fail "debootstrap of bookworm from $mirror failed"
    fi
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
    find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    rm -rf "$rootfs"/usr/share/{man,info}/* "$rootfs"/var/lib/apt/lists/* \
        "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/log/*.log
    find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias \
        -exec rm -rf {} +
    tar --numeric-owner -C "$rootfs" -c . \
        | docker import --change 'CMD ["bash"]' \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            - "$base_image" >/dev/null
    rm -rf "$rootfs"
    log "made $base_image in $(seconds_since "$start") s"
}

if docker image inspect "$base_image" >/dev/null 2>&1; then
    log "base image $base_image is already here"
else
    make_base_image
fi
if ! docker run --rm --network host "$base_image" true 2>"$work/run-smoke.err"; then
    cat "$work/run-smoke.err" >&2
    fail "the engine answers but cannot start a container (runc: namespaces, cgroups or mounts" \
        "refused); see the error above"
fi

# --- 3. The image ---------------------------------------------------------------------------------
build() {
    DOCKER_BUILDKIT=0 docker build --network host -f "$source_dir/docker/Dockerfile" "$@" \
        "$source_dir" >>"$work/build.log" 2>&1 || {
        tail -n 60 "$work/build.log" >&2
        fail "docker build $* failed (last lines above)"
    }
}
start=$(date +%s)
log "building the build-dependencies stage ($deps_image, cached between runs)"
build --target deps -t "$deps_image"
log "building $image"
build -t "$image"
build_seconds=$(seconds_since "$start")
grep -E '^runtime packages:' "$work/build.log" | tail -n 1 || true
log "image built in ${build_seconds} s, size $(docker image inspect -f '{{.Size}}' "$image" \
    | awk '{ printf "%.1f MB", $1 / 1e6 }')"
[[ $(docker image inspect -f '{{.Config.User}}' "$image") == chessence ]] \
    || fail "the image does not run as the user chessence"

# --- 4. Run, play, restart, stop ------------------------------------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
client=(python3 "$test_dir/ws_play.py" --port "$port")

# Waits until the server answers /healthz and Docker's own health check calls it healthy.
wait_healthy() {
    local health=""
    for _ in $(seq 90); do
        if [[ $(docker inspect -f '{{.State.Running}}' "$container") != true ]]; then
            docker logs --tail 40 "$container" >&2 || true
            fail "the container stopped: $(docker inspect -f '{{.State.Status}} exit {{.State.ExitCode}}' "$container")"
        fi
        health=$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$container")
        if [[ $health == healthy ]] && "${client[@]}" healthz >/dev/null 2>&1; then
            return 0
        fi
        sleep 1
    done
    docker logs --tail 40 "$container" >&2 || true
    fail "the container did not become healthy in 90 s (health: ${health:-none})"
}

docker volume create "$volume" >/dev/null
log "running $container on 127.0.0.1:$port (host network), database on volume $volume"
docker run -d --name "$container" --network host --health-interval 2s --health-start-period 30s \
    -e CHESSENCE_PORT="$port" -e CHESSENCE_BIND=127.0.0.1 -e CHESSENCE_LOG_LEVEL=debug \
    -v "$volume":/data "$image" >/dev/null
wait_healthy
"${client[@]}" healthz
"${client[@]}" puzzles
[[ $(docker exec "$container" id -u) == 10001 ]] || fail "the server does not run as uid 10001"
[[ $(docker exec "$container" cat /proc/1/comm) == tini ]] || fail "PID 1 is not tini"

log "two clients: seek, accept, two moves"
"${client[@]}" play --state "$work/game.json"
"${client[@]}" verify --state "$work/game.json"
docker exec "$container" test -s /data/chessence.db || fail "no database file in the /data volume"

# The backup of docs/self-hosting.md: sqlite3 .backup from another container while the server runs
# (the build-dependencies image has sqlite3); the copy must hold the game.
game_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["game_id"])' "$work/game.json")
copy_dump=$(docker run --rm --network none -v "$volume":/data "$deps_image" sh -c \
    'sqlite3 /data/chessence.db ".backup /tmp/copy.db" && sqlite3 /tmp/copy.db "PRAGMA integrity_check;" .dump') \
    || fail "sqlite3 .backup of the live database failed"
[[ $(head -n 1 <<<"$copy_dump") == ok ]] || fail "the backup copy is damaged: $(head -n 3 <<<"$copy_dump")"
grep -q "$game_id" <<<"$copy_dump" || fail "the backup copy does not hold game $game_id"
log "a live sqlite3 .backup holds game $game_id"

log "restarting the container"
docker restart -t 30 "$container" >/dev/null
wait_healthy
"${client[@]}" verify --state "$work/game.json"

# A connected client must not hold up the shutdown: the server closes it and exits.
"${client[@]}" linger --seconds 20 >"$work/linger.out" 2>&1 &
linger_pid=$!
for _ in $(seq 50); do
    grep -q lingering "$work/linger.out" && break
    sleep 0.2
done
grep -q lingering "$work/linger.out" || { cat "$work/linger.out" >&2; fail "the lingering client did not connect"; }
start_ns=$(date +%s%N)
docker stop -t 30 "$container" >/dev/null
stop_ms=$((($(date +%s%N) - start_ns) / 1000000))
exit_code=$(docker inspect -f '{{.State.ExitCode}}' "$container")
log "docker stop took ${stop_ms} ms with a client connected, exit code $exit_code"
wait "$linger_pid" || { cat "$work/linger.out" >&2; fail "the client's connection was not closed"; }
((stop_ms < 10000)) || fail "SIGTERM did not stop the server within 10 s (${stop_ms} ms)"
[[ $exit_code == 0 ]] || fail "the server exited with $exit_code after SIGTERM (0 expected)"

# --- 5. The cluster ------------------------------------------------------------------------------
# docker/compose.cluster.yml on the image just built (tagged as the compose file names it) and the
# parts image (PostgreSQL, Redis, HAProxy from Debian packages), on the compose file's own bridge
# network; HAProxy's port published on loopback.
start=$(date +%s)
log "building $parts_image (PostgreSQL, Redis, HAProxy from Debian packages)"
DOCKER_BUILDKIT=0 docker build --network host -f "$source_dir/docker/cluster/Dockerfile" \
    -t "$parts_image" "$source_dir" >>"$work/build.log" 2>&1 || {
    tail -n 40 "$work/build.log" >&2
    fail "docker build of docker/cluster/Dockerfile failed (last lines above)"
}
docker tag "$image" chessence-server:latest
cluster_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cluster_env+=(CHESSENCE_HOST_PORT="127.0.0.1:$cluster_port")
cluster_started=1
cluster_compose up -d --no-build >"$work/cluster-up.log" 2>&1 || {
    cat "$work/cluster-up.log" >&2
    fail "docker-compose up of the cluster failed"
}
cluster_client=(python3 "$test_dir/ws_play.py" --port "$cluster_port")
cluster_up=0
for _ in $(seq 120); do
    if "${cluster_client[@]}" healthz >/dev/null 2>&1; then
        cluster_up=1
        break
    fi
    sleep 1
done
if [[ $cluster_up -ne 1 ]]; then
    cluster_compose logs --tail 30 >&2 || true
    fail "the cluster did not answer through HAProxy within 120 s"
fi
# Every node has joined (each says so once it holds its Redis connections).
# (The logs are read whole before grep: grep -q stopping early would fail the pipe.)
joined() {
    local logs
    logs=$(cluster_compose logs "$1" 2>/dev/null || true)
    grep -q "cluster mode: node $1" <<<"$logs"
}
for node in node1 node2 node3; do
    for _ in $(seq 60); do
        joined "$node" && break
        sleep 1
    done
    joined "$node" || { cluster_compose logs --tail 30 "$node" >&2; fail "$node did not join the cluster"; }
done
# /metrics through HAProxy's public port: refused without the token, served with it (issue 42).
metrics_status() {
    python3 - "$cluster_port" "$1" <<'PY'
import sys, urllib.error, urllib.request
request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/metrics")
if sys.argv[2]:
    request.add_header("Authorization", f"Bearer {sys.argv[2]}")
try:
    print(urllib.request.urlopen(request, timeout=5).status)
except urllib.error.HTTPError as error:
    print(error.code)
PY
}
[[ $(metrics_status "") == 401 ]] || fail "the cluster's /metrics answered without the token"
[[ $(metrics_status "$metrics_token") == 200 ]] || fail "the cluster's /metrics refused its token"
log "cluster up in $(seconds_since "$start") s: two clients through HAProxy (no sticky sessions)"
"${cluster_client[@]}" play --state "$work/cluster-game.json"
"${cluster_client[@]}" verify --state "$work/cluster-game.json"
# The open connections per address count at HAProxy, across the nodes (each node alone would let
# 30 in, 90 in all).
"${cluster_client[@]}" crowd --most 30
# A node killed: HAProxy's /readyz checks take it out, and the game is still there through the
# others (its owner, if it was that node, is replaced once its lease expires).
node1=$(cluster_compose ps -q node1)
[[ -n $node1 ]] || fail "no container for node1"
docker update --restart=no "$node1" >/dev/null
docker kill "$node1" >/dev/null
log "node1 killed; the game through the other nodes"
verified=0
for _ in $(seq 30); do
    if "${cluster_client[@]}" verify --state "$work/cluster-game.json" >"$work/cluster-verify.out" 2>&1; then
        verified=1
        break
    fi
    sleep 1
done
[[ $verified -eq 1 ]] || { cat "$work/cluster-verify.out" >&2; fail "the game was lost with node1"; }
cat "$work/cluster-verify.out"
cluster_seconds=$(seconds_since "$start")
cluster_compose down -v --remove-orphans >/dev/null 2>&1
cluster_started=0
docker rmi "$parts_image" chessence-server:latest >/dev/null 2>&1 || true

log "PASS: build ${build_seconds} s, stop ${stop_ms} ms, cluster ${cluster_seconds} s"
