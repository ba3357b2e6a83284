#!/usr/bin/env bash
# Runs the fault suite outside ctest: every tests/faults/*_test.py (or those named), one after the
# other, against build/release/bin.
#   tests/faults/run.sh [--long] [name ...]   --long: the benchmark forms (minutes; numbers printed,
#                                             docs/operations.md "Under faults")
set -uo pipefail
cd "$(dirname "$0")/../.."
long=()
if [[ "${1:-}" == "--long" ]]; then
    long=(--long)
    shift
fi
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
    for file in tests/faults/*_test.py; do
        names+=("$(basename "$file" _test.py)")
    done
fi
failed=0
for name in "${names[@]}"; do
    echo "== $name"
    python3 "tests/faults/${name}_test.py" --bin build/release/bin "${long[@]+"${long[@]}"}" ||
        failed=$((failed + 1))
done
echo "fault suite: $(( ${#names[@]} - failed )) passed, $failed failed"
[[ $failed -eq 0 ]]
