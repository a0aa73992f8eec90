#!/usr/bin/env bash
# Runs the documentation's own tests (the Getting started article's, the testing article's,
# PrismHTTPTesting's and README.md's: test targets whose sources are links to Snippets/) many
# times over while busy loops
# keep every core busy. A test that ends on `receive` must never find the effect "still running",
# and a test clock's advance must never outrun a timer, however loaded the machine is. (The test
# store's own race tests, EffectEndRaceTests and PrismTestClockTests, load the cores themselves in
# `make test`.)
#
#   Tools/scripts/test-stress.sh            300 repetitions (make test-stress)
#   PRISM_STRESS_REPETITIONS=40 Tools/...   the short run `make test-all` does (after `make test`,
#                                           with PRISM_STRESS_SKIP_BUILD=1)
#
# Prints the repetitions, the tests run and the failures (0, or it exits 1).
set -euo pipefail
cd "$(dirname "$0")/../.."

repetitions="${PRISM_STRESS_REPETITIONS:-300}"
busy_loops="${PRISM_STRESS_BUSY_LOOPS:-$(nproc)}"
swift="${SWIFT:-swift}"
binary="$($swift build --show-bin-path)/PrismPackageTests.xctest"
# `make test-all` runs this right after `make test` built the tests: a no-op build of the whole
# package still takes a minute on two cores, so it skips it (PRISM_STRESS_SKIP_BUILD=1).
if [[ "${PRISM_STRESS_SKIP_BUILD:-0}" != "1" || ! -x "$binary" ]]; then
    Tools/scripts/swift-root.sh "$swift" build --build-tests >/dev/null
fi
filter="PrismGettingStartedSnippetTests|PrismTestingSnippetTests|PrismTestingOverviewSnippetTests|PrismStubTransportSnippetTests|PrismReadmeSnippetTests"

pids=()
stop_loops() { [[ ${#pids[@]} -eq 0 ]] || kill "${pids[@]}" 2>/dev/null || true; }
trap stop_loops EXIT
for _ in $(seq "$busy_loops"); do
    (while :; do :; done) &
    pids+=("$!")
done

log="$(mktemp)"
echo "test-stress: the documented tests, $repetitions repetitions, beside $busy_loops busy loops"
status=0
env -u SWIFT_DETERMINISTIC_HASHING "$binary" --testing-library swift-testing --filter "$filter" --repetitions "$repetitions" >"$log" 2>&1 || status=$?
stop_loops
plain="$(sed 's/\x1b\[[0-9;]*m//g' "$log")"
passed="$(grep -cE "^✔ Test .* passed after" <<<"$plain" || true)"
failed="$(grep -cE "^✘ Test .* failed after" <<<"$plain" || true)"
rm -f "$log"
# Swift Testing's last line speaks for the last repetition only: count every test's own result.
echo "test-stress: $repetitions repetitions beside $busy_loops busy loops: $passed test runs passed, $failed failed"
if [[ $status -ne 0 || $failed -ne 0 || $passed -eq 0 ]]; then
    grep -E "^✘" <<<"$plain" | head -40 >&2 || true
    echo "test-stress: FAILED" >&2
    exit 1
fi
