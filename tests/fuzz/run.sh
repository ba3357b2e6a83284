#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS (default 15) from its seed corpus in
# tests/fuzz/corpus/<name> (copied: the run's finds stay out of the repository). The targets are
# built with Debian's clang, AddressSanitizer and UBSan in FUZZ_BUILD (default
# build/sanitize-address, configured as tests/sanitize/run.sh address does; built here when
# missing). A crash, a leak, a timeout or undefined behaviour fails the run and leaves the input in
# <build>/findings/<name>/ — turn it into a regression seed (and a test) when you fix it.
#   tests/fuzz/run.sh [SECONDS] [TARGET ...]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-15}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(parse_request position records notation websocket)
build=${FUZZ_BUILD:-$source_dir/build/sanitize-address}
for tool in clang clang++; do
    command -v "$tool" >/dev/null 2>&1 || { echo "fuzz: $tool is missing (scripts/install-deps.sh --test)" >&2; exit 1; }
done
if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake -S "$source_dir" -B "$build" -DCHESSENCE_SANITIZE=address -DCHESSENCE_FUZZ=ON \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only" \
          -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/%/_fuzz}"
status=0
for target in "${targets[@]}"; do
    work=$(mktemp -d)
    cp -r "$source_dir/tests/fuzz/corpus/$target/." "$work/"
    findings=$build/findings/$target
    mkdir -p "$findings"
    echo "fuzz: $target for ${seconds} s"
    if ! UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$build/bin/${target}_fuzz" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
        -max_len=4096 -print_final_stats=1 -artifact_prefix="$findings/" "$work" 2>"$build/$target.log"; then
        echo "fuzz: $target FAILED; the input is in $findings/, the log in $build/$target.log" >&2
        tail -40 "$build/$target.log" >&2
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/$target.log" | sed "s/^/fuzz: $target: /"
    fi
    rm -rf "$work"
done
exit $status
