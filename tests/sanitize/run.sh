#!/usr/bin/env bash
# The server and protocol tests under a sanitizer, built with Debian's clang in
# build/sanitize-<kind> (only core, protocol, server and those tests; ../../CMakeLists.txt):
#   address  AddressSanitizer + UndefinedBehaviorSanitizer, any report fatal: protocol_tests and
#            server_tests whole; the same build holds the libFuzzer targets, whose short run
#            (tests/fuzz/run.sh) follows
#   thread   ThreadSanitizer: the server tests whose threads meet (sessions, rooms, the lobby,
#            the registry, the store's writer and readers); see THREAD_FILTER
# Non-zero on any failure or sanitizer report.
#   tests/sanitize/run.sh address|thread [FUZZ_SECONDS]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
kind=${1:?address or thread}
fuzz_seconds=${2:-15}
build=$source_dir/build/sanitize-$kind
for tool in clang clang++; do
    command -v "$tool" >/dev/null 2>&1 || { echo "sanitize: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done
fuzz=OFF
[[ $kind == address ]] && fuzz=ON
# Unoptimised with line tables: it compiles in a third of the time -O1 takes (Beast's templates
# dominate), every report names file and line, and asserts stay on.
cmake -S "$source_dir" -B "$build" -DCHESSENCE_SANITIZE="$kind" -DCHESSENCE_FUZZ=$fuzz \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only" \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
filter=()
if [[ $kind == thread ]]; then
    # Threads meet in the sessions, rooms, lobby, registry and store; the rules-only tests
    # (game machine, clocks as values, records) run single-threaded and stay with ASan.
    filter=(-R '^(Websocket|WebSocket|Session|Room|Rooms|Lobby|Registry|RoomRegistry|ServerState|Durability|Sqlite|FileAndMemory|AddressLimits|Http|Private|Heartbeat|Server)')
fi
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure "${filter[@]}"
if [[ $kind == address ]]; then
    FUZZ_BUILD=$build "$source_dir/tests/fuzz/run.sh" "$fuzz_seconds"
fi
