#!/usr/bin/env bash
# A test PrismInspector writes from the sample app's session compiles and passes.
#
# WrittenTestTests (PrismSampleTests) runs a session of the sample app with an inspector
# attached and writes the test of its actions to the PrismSampleRecordedTests target; the root
# package is built again with it and the written test run. The file is removed at the end: it is
# not committed (.gitignore).
set -euo pipefail
swift=${1:-swift}
out=Apps/PrismSample/Tests/PrismSampleRecordedTests/RecordedSampleSession.swift
trap 'rm -f "$out"' EXIT
rm -f "$out"

"$swift" build --build-tests
PRISM_WRITE_RECORDED_TEST="$PWD/$out" "$swift" test --skip-build --filter WrittenTestTests
if [ ! -s "$out" ]; then
    echo "test-written: WrittenTestTests wrote no test" >&2
    exit 1
fi
echo "== the written test ($(wc -l < "$out") lines):"
cat "$out"
"$swift" build --build-tests
log=$(mktemp)
"$swift" test --skip-build --filter PrismSampleRecordedTests 2>&1 | tee "$log"
# A filter that matches nothing passes: the written test must have run.
if ! grep -q "Test run with 1 test" "$log"; then
    echo "test-written: the written test did not run" >&2
    exit 1
fi
