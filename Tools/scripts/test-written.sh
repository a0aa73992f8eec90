#!/usr/bin/env bash
# A test PrismInspector writes from the sample app's session compiles and passes.
#
# WrittenTestTests (PrismSampleTests) runs a session of the sample app with an inspector
# attached and writes the test of its actions to the PrismSampleRecordedTests target; the build
# then compiles that one target and links the test bundle again (everything else is what
# `make test` built), and the written test runs. The test is written over the target's one file,
# Placeholder.swift, whose text is put back at the end: a file added to a target and removed
# changes the package's graph, and each of the two builds after such a change linked the code
# generator's plugin tool again and regenerated the GraphQL types (about 30 s each in test-all).
# Should this script be killed before it puts the placeholder back, `git checkout` it.
# `make test-all` runs this last of the phases that use the root's test bundle.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift=${1:-swift}
out=Apps/PrismSample/Tests/PrismSampleRecordedTests/Placeholder.swift
placeholder=$(mktemp)
cp "$out" "$placeholder"
trap 'cp "$placeholder" "$out"; rm -f "$placeholder"' EXIT

binary="$("$swift" build --show-bin-path)/PrismPackageTests.xctest"
# The bundle `make test` built, unless there is none yet.
[[ -x "$binary" ]] || Tools/scripts/swift-root.sh "$swift" build --build-tests
# Test processes get Swift's random hashing seed back (the Makefile fixes it for SwiftPM only).
run_tests() { env -u SWIFT_DETERMINISTIC_HASHING "$binary" --testing-library swift-testing "$@"; }

PRISM_WRITE_RECORDED_TEST="$PWD/$out" run_tests --filter WrittenTestTests
if cmp -s "$out" "$placeholder"; then
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
