#!/usr/bin/env bash
# Runs the root package's tests (the same groups as `make test`, from the build `make test` made)
# several times over while other work keeps every core busy: busy loops (`yes > /dev/null`, four
# by default) and a compiler that builds a Swift file again and again (a build beside the tests).
# A test that fails here races the wall clock against the machine's speed: give it a clock it
# controls, or assert an ordering (DESIGN.md, "Time").
#
#   Tools/scripts/test-under-load.sh [SWIFT]          10 runs beside 4 busy loops and a compiler
#   PRISM_LOAD_RUNS=3 PRISM_LOAD_BUSY_LOOPS=8 ...     other counts
#   PRISM_LOAD_COMPILER=0 ...                         busy loops only
#
# Prints one line per run (passed or failed, its time, the load average at its end) and, at the
# end, the failed tests of every run. Exits 1 if any run failed. Run it inside with-keyring.sh
# (`make test-under-load` does).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift="${1:-swift}"
runs="${PRISM_LOAD_RUNS:-10}"
busy_loops="${PRISM_LOAD_BUSY_LOOPS:-4}"
compiler="${PRISM_LOAD_COMPILER:-1}"

logs=".build/test-logs/under-load"
rm -rf "$logs"
mkdir -p "$logs"

pids=()
# shellcheck disable=SC2317  # reached through the EXIT trap
stop_load() {
    [[ ${#pids[@]} -eq 0 ]] || kill "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap stop_load EXIT

for _ in $(seq "$busy_loops"); do
    yes >/dev/null &
    pids+=("$!")
done
if [[ "$compiler" == "1" ]]; then
    # A build beside the tests: swiftc type-checks and optimizes a generated file in a loop (CPU
    # and memory, as a build of another project would take them).
    work="$(mktemp -d)"
    python3 - "$work/Load.swift" <<'PYTHON'
import sys
with open(sys.argv[1], "w") as out:
    for i in range(400):
        out.write(f"public struct Value{i}: Hashable, Codable, Sendable {{ public var a = {i}; public var b = \"{i}\"; public var c: [Int] = [{i}] }}\n")
        out.write(f"public func use{i}(_ v: Value{i}) -> Int {{ v.c.reduce(v.a, +) &+ v.b.count }}\n")
PYTHON
    (while :; do "$swift"c -O -parse-as-library -module-name Load -c "$work/Load.swift" -o "$work/Load.o" 2>/dev/null || true; done) &
    pids+=("$!")
fi
echo "test-under-load: $runs runs of the test groups beside $busy_loops busy loops$([[ $compiler == 1 ]] && echo " and a compiler in a loop")"

failed_runs=0
for run in $(seq "$runs"); do
    start=$(date +%s)
    status=0
    PRISM_TEST_LOGS="$logs/run-$run" Tools/scripts/test-in-groups.sh "$swift" >"$logs/run-$run.log" 2>&1 || status=$?
    seconds=$(($(date +%s) - start))
    load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")"
    if [[ $status -eq 0 ]]; then
        printf 'run %2d: passed in %4d s (load average %s)\n' "$run" "$seconds" "$load"
    else
        failed_runs=$((failed_runs + 1))
        printf 'run %2d: FAILED in %4d s (load average %s)\n' "$run" "$seconds" "$load"
        sed 's/\x1b\[[0-9;]*m//g' "$logs/run-$run.log" | grep -E "^✘ Test .*(failed|recorded)|error:|Fatal error" | head -20 | sed 's/^/    /'
    fi
done
stop_load
echo "test-under-load: $((runs - failed_runs)) of $runs runs passed (logs: $logs)"
[[ $failed_runs -eq 0 ]]
