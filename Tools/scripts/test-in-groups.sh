#!/usr/bin/env bash
# Runs the root package's tests (already built) in a few groups, one `swift test` process each,
# instead of all ~660 at once. In one process every suite shares Swift's cooperative thread
# pool (two threads on two cores): when the persistence suites' child processes, fsyncs and
# D-Bus calls run beside the test-store suites, an effect can wait more than the test store's
# 10-second receive timeout for a thread. Each group alone passes with room to spare.
# The last group is "everything else", so a new test target is never left out.
#
# Usage: Tools/scripts/test-in-groups.sh [SWIFT]   (run inside Tools/scripts/with-keyring.sh)
set -euo pipefail
swift="${1:-swift}"

groups=(
    "PrismEffectsTests|PrismStoreTests|PrismTestingTests|PrismRoutingTests"
    "PrismPersistenceTests"
)
seen=""
for group in "${groups[@]}"; do
    echo "== swift test: $group"
    "$swift" test --skip-build --filter "^($group)\."
    seen="${seen:+$seen|}$group"
done
echo "== swift test: every other target"
"$swift" test --skip-build --skip "^($seen)\."
