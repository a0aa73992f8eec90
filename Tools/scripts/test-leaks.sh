#!/usr/bin/env bash
# Runs packages' test suites under AddressSanitizer with LeakSanitizer (make test-leaks;
# CONTRIBUTING.md "Leaks"): every allocation still unreachable when the test process exits is a
# leak, reported with its stack, and fails the run. Tools/Leaks/suppressions.txt names the leaks
# that are not Prism's (the test runners' own), each with its reason.
#
#   Tools/scripts/test-leaks.sh SWIFT PACKAGE...
#
# Each package is built and tested alone (Packages/NAME) in .build-leaks, so that its suites run
# in a process of their own and a leak is that package's.
set -euo pipefail
cd "$(dirname "$0")/../.."

SWIFT=$1
shift
SCRATCH=.build-leaks
SUPPRESSIONS="$PWD/Tools/Leaks/suppressions.txt"
mkdir -p "$SCRATCH/logs"

failed=0
summary=$(mktemp)
for package in "$@"; do
    log="$SCRATCH/logs/$package.log"
    echo "== Leaks: $package"
    $SWIFT build --package-path "Packages/$package" --scratch-path "$SCRATCH" --build-tests --sanitize=address
    # glib and libsecret have no frame pointers: the fast unwinder stops at g_malloc0, and a
    # leak there could not be told from another. PrismPersistence (the keychain through
    # libsecret) runs with full stacks; it takes about twice as long.
    options=detect_leaks=1
    if [ "$package" = PrismPersistence ]; then options=$options:fast_unwind_on_malloc=0; fi
    status=0
    # One test at a time: AddressSanitizer slows everything about threefold, and a suite's tests
    # run side by side then starve each other (two cooperative threads on two cores) past the
    # real timeouts some tests hold. PrismHTTP takes about 200 s this way.
    ASAN_OPTIONS=$options LSAN_OPTIONS="suppressions=$SUPPRESSIONS:print_suppressions=0" \
        $SWIFT test --package-path "Packages/$package" --scratch-path "$SCRATCH" --skip-build \
        --sanitize=address --no-parallel > "$log" 2>&1 || status=$?
    tests=$(grep -o 'Test run with [0-9]* tests' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    if grep -q 'ERROR: LeakSanitizer' "$log"; then
        failed=1
        leaked=$(grep 'SUMMARY: AddressSanitizer' "$log" | tail -1 | sed 's/SUMMARY: AddressSanitizer: //')
        echo "$package: $tests tests; LEAKED $leaked (see $log)" >> "$summary"
        grep -E '(Direct|Indirect) leak' -A12 "$log" | head -40 || true
    elif grep -q 'ERROR: AddressSanitizer' "$log"; then
        failed=1
        echo "$package: $tests tests; a memory error (see $log)" >> "$summary"
        grep -E 'ERROR: AddressSanitizer' -A20 "$log" | head -30 || true
    elif [ "$status" -ne 0 ]; then
        failed=1
        echo "$package: $tests tests; the tests failed (exit $status, see $log)" >> "$summary"
        grep -E '✘' "$log" | head -20 || true
    else
        echo "$package: $tests tests passed; no leak" >> "$summary"
    fi
done
echo "== Leak check summary"
cat "$summary"
rm -f "$summary"
exit "$failed"
