#!/usr/bin/env bash
# The server and protocol tests under a sanitizer, built with Debian's clang in
# build/sanitize-<kind> (only core, protocol, server and those tests; ../../CMakeLists.txt).
# CI runs both kinds after the README's test command (.ci/run):
#   address  AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer on), any report fatal:
#            protocol_tests and server_tests whole; the same build holds the libFuzzer targets,
#            of which FUZZ_TARGETS (default: all) then run for FUZZ_SECONDS each
#            (tests/fuzz/run.sh)
#   thread   ThreadSanitizer: server_tests whole (the protocol's tests use one thread)
# Non-zero on any failure or sanitizer report.
#   tests/sanitize/run.sh address|thread [FUZZ_SECONDS] [FUZZ_TARGET ...]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
kind=${1:?address or thread}
fuzz_seconds=${2:-15}
shift $(($# > 2 ? 2 : $#))
fuzz_targets=("$@")
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
start=$SECONDS
cmake --build "$build" -j "$(nproc)"
echo "sanitize: $kind build took $((SECONDS - start)) s"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
start=$SECONDS
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure
echo "sanitize: $kind tests took $((SECONDS - start)) s"
if [[ $kind == address ]]; then
    FUZZ_BUILD=$build "$source_dir/tests/fuzz/run.sh" "$fuzz_seconds" "${fuzz_targets[@]}"
fi
