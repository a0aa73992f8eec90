#!/usr/bin/env bash
# Runs the root package's tests (already built) in a few groups, one `swift test` process each,
# instead of all ~660 at once. In one process every suite shares Swift's cooperative thread
# pool (two threads on two cores): when the persistence suites' child processes, fsyncs and
# D-Bus calls run beside the test-store suites, an effect can wait more than the test store's
# 10-second receive timeout for a thread. Each group alone passes with room to spare.
# The integration tests start the sample app as a child process (Foundation's `Process`), and
# they run alone too: the networking suites beside them start hundreds of test servers at once
# (1,400 open descriptors in that process, measured from /proc), and corelibs Foundation's
# `Process.run()` with that many descriptors open in a busy process has crashed the test process
# (SIGSEGV in its spawn set-up) and made a concurrent read fail with EBADF. Alone they stay under
# 200 descriptors.
# The code generator's large-schema tests run alone as well: the test server validates and
# executes each of their operations against a 1 MB schema (a debug build of GraphQLSwift), CPU
# that starved the sample app's soak test of its seconds when they shared a process.
# The last group is "everything else", so a new test target is never left out.
#
# Usage: Tools/scripts/test-in-groups.sh [SWIFT]   (run inside Tools/scripts/with-keyring.sh)
set -euo pipefail
swift="${1:-swift}"

groups=(
    "PrismEffectsTests|PrismStoreTests|PrismTestingTests|PrismRoutingTests"
    "PrismPersistenceTests"
    "PrismIntegrationTests"
    "PrismGraphQLLargeSchemaTests"
)
seen=""
for group in "${groups[@]}"; do
    echo "== swift test: $group"
    "$swift" test --skip-build --filter "^($group)\."
    seen="${seen:+$seen|}$group"
done
echo "== swift test: every other target"
"$swift" test --skip-build --skip "^($seen)\."
