#!/usr/bin/env bash
# A test PrismInspector writes from the sample app's session compiles and passes.
#
# WrittenTestTests (PrismSampleTests) runs a session of the sample app with an inspector
# attached and writes the test of its actions to the PrismSampleRecordedTests target; the build
# then compiles that one target and links the test bundle again (everything else is what
# `make test` built: about 30 s on two cores), and the written test runs. The file is removed at
# the end: it is not committed (.gitignore). `make test-all` runs this last of the phases that
# use the root's build, so that the next build there (which compiles the target without it) is
# the developer's, not CI's.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift=${1:-swift}
out=Apps/PrismSample/Tests/PrismSampleRecordedTests/RecordedSampleSession.swift
trap 'rm -f "$out"' EXIT
rm -f "$out"

binary="$("$swift" build --show-bin-path)/PrismPackageTests.xctest"
# The bundle `make test` built, unless there is none yet.
[[ -x "$binary" ]] || Tools/scripts/swift-root.sh "$swift" build --build-tests
# Test processes get Swift's random hashing seed back (the Makefile fixes it for SwiftPM only).
run_tests() { env -u SWIFT_DETERMINISTIC_HASHING "$binary" --testing-library swift-testing "$@"; }

PRISM_WRITE_RECORDED_TEST="$PWD/$out" run_tests --filter WrittenTestTests
if [ ! -s "$out" ]; then
    echo "test-written: WrittenTestTests wrote no test" >&2
    exit 1
fi
echo "== the written test ($(wc -l <"$out") lines):"
cat "$out"
Tools/scripts/swift-root.sh "$swift" build --build-tests
log=$(mktemp)
run_tests --filter PrismSampleRecordedTests 2>&1 | tee "$log"
# A filter that matches nothing passes: the written test must have run.
if ! grep -q "Test run with 1 test" "$log"; then
    echo "test-written: the written test did not run" >&2
    exit 1
fi
