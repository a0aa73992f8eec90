#!/usr/bin/env bash
# Runs the root package's tests (already built: `swift build --build-tests`) in a few groups, one
# process each, instead of all ~1,200 at once. In one process every suite shares Swift's
# cooperative thread pool (two threads on two cores): when the persistence suites' child
# processes, fsyncs and D-Bus calls run beside the test-store suites, an effect can wait more
# than the test store's 10-second receive timeout for a thread. Each group alone passes with room
# to spare.
# The integration tests start the sample app as a child process (Foundation's `Process`), and
# they run alone too: the networking suites beside them start hundreds of test servers at once
# (1,400 open descriptors in that process, measured from /proc), and corelibs Foundation's
# `Process.run()` with that many descriptors open in a busy process has crashed the test process
# (SIGSEGV in its spawn set-up) and made a concurrent read fail with EBADF. Alone they stay under
# 200 descriptors.
# The code generator's large-schema tests run alone as well: the test server validates and
# executes each of their operations against a 1 MB schema (a debug build of GraphQLSwift), CPU
# that starved the sample app's soak test of its seconds when they shared a process.
# The last group is "everything else", so a new test target is never left out; the few XCTest
# cases (PrismTesting's seed examples) run after it.
#
# Each group runs the test bundle itself, as `swift test --skip-build` would, without loading the
# package graph again for every group (SwiftPM takes seconds to do that, more on a busy machine).
# Each group's output is kept in $PRISM_TEST_LOGS (default .build/test-logs), and the slowest
# tests are listed at the end (Tools/scripts/slowest-tests.py). In a group, Swift Testing runs
# every test at once on the cooperative pool's two threads, so a test's time there includes its
# wait for them. PRISM_TEST_SERIAL=1 runs the tests one at a time instead, so that each time is
# the test's own, and fails the run if one outside the soak and stress tests took more than
# PRISM_SLOW_TEST_LIMIT seconds (20): `make slowest-tests`.
#
# Usage: Tools/scripts/test-in-groups.sh [SWIFT]   (run inside Tools/scripts/with-keyring.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift="${1:-swift}"
logs="${PRISM_TEST_LOGS:-.build/test-logs}"
limit="${PRISM_SLOW_TEST_LIMIT:-20}"
serial=()
[[ "${PRISM_TEST_SERIAL:-0}" == "1" ]] && serial=(--no-parallel)
binary="$("$swift" build --show-bin-path)/PrismPackageTests.xctest"
if [[ ! -x "$binary" ]]; then
    echo "test-in-groups: $binary is not built; run swift build --build-tests first" >&2
    exit 2
fi
rm -rf "$logs"
mkdir -p "$logs"

groups=(
    "PrismEffectsTests|PrismStoreTests|PrismTestingTests|PrismRoutingTests"
    "PrismPersistenceTests"
    "PrismIntegrationTests"
    "PrismGraphQLLargeSchemaTests"
)
status=0
# Runs the bundle with the given arguments, its output to the terminal and to $logs/NAME.log.
run() {
    local name="$1"
    shift
    local code=0
    # Test processes get Swift's random hashing seed back (the Makefile fixes it for SwiftPM only).
    env -u SWIFT_DETERMINISTIC_HASHING "$binary" "$@" 2>&1 | tee "$logs/$name.log" || code=$?
    # A crash ends the output without a summary: say which group it was.
    if [[ $code -ne 0 ]]; then
        echo "test-in-groups: the group '$name' failed (exit $code)" >&2
        status=1
    fi
}
seen=""
index=0
for group in "${groups[@]}"; do
    index=$((index + 1))
    echo "== tests: $group"
    run "group-$index" --testing-library swift-testing "${serial[@]}" --filter "^($group)\."
    seen="${seen:+$seen|}$group"
done
echo "== tests: every other target"
run "group-rest" --testing-library swift-testing "${serial[@]}" --skip "^($seen)\."
echo "== tests: XCTest cases"
run "xctest" --testing-library xctest

echo
if [[ ${#serial[@]} -gt 0 ]]; then
    Tools/scripts/slowest-tests.py --limit "$limit" "$logs"/group-*.log || status=1
else
    echo "(Run together, a test's time includes its wait for a thread: make slowest-tests times each alone.)"
    Tools/scripts/slowest-tests.py "$logs"/group-*.log
fi
if [[ $status -ne 0 ]]; then
    # The failures again, last, where the end of a long log shows them.
    echo
    echo "== failed (from $logs):"
    sed 's/\x1b\[[0-9;]*m//g' "$logs"/*.log | grep -E "^✘ |^[^ ]+:[0-9]+(:[0-9]+)?: (fatal )?error:|^error:|Fatal error|test-in-groups:" | head -40 || true
fi
exit "$status"
