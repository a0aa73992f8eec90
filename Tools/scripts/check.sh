#!/usr/bin/env bash
# The inner loop for people working on Prism (`make check`): an incremental build of the root,
# the lint of what changed, and the tests of the packages that changed since main. CI runs all
# of it (`make test-all`); this is what to run after each change.
#
#   Tools/scripts/check.sh [SWIFT]
#   PRISM_CHECK_BASE=origin/main Tools/scripts/check.sh   compare with another ref (default main)
#
# What changed: the files that differ from where this branch left PRISM_CHECK_BASE (committed,
# staged, unstaged and new files alike). Each changed file names the test targets it is tested by:
#
#   Packages/<Name>/...              every test target of Packages/<Name>/Tests
#   Tools/PrismTestServer/...        PrismTestServerTests, and PrismHTTP's and PrismGraphQL's tests
#   Tools/PrismTestSupport/...       every test (the tests' own helpers)
#   Apps/PrismSample/...             PrismSampleTests, PrismIntegrationTests
#   Tests/<Group>/<Target>/...       that target (the documentation's tests, the integration tests)
#   Snippets/...                     the documentation's tests
#   Package.swift, Tools/Modules.toml  every test
#
# Lint: `swift format lint --strict`, the Apple availability check (against the build's index) and
# the portability check on the changed Swift files, the manifest and import checks, and shellcheck
# on the changed scripts. Prints what it ran and how long each step took.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift="${1:-swift}"
base_ref="${PRISM_CHECK_BASE:-main}"

if base=$(git merge-base HEAD "$base_ref" 2>/dev/null); then
    :
else
    echo "check: no ref '$base_ref' to compare with; comparing with HEAD" >&2
    base=HEAD
fi
mapfile -t changed < <({
    git diff --name-only "$base"
    git ls-files --others --exclude-standard
} | sort -u)
# Files that were deleted are changes too, but have nothing to lint.
existing=()
for file in "${changed[@]}"; do [[ -e "$file" ]] && existing+=("$file"); done
echo "check: ${#changed[@]} files changed since $(git rev-parse --short "$base") ($base_ref)"

step_start=0
step() {
    step_start=$(date +%s)
    echo "== check: $1"
}
took() { echo "   ($(($(date +%s) - step_start)) s)"; }

# The test targets of the root, by folder (every Tests/ folder of a package or a group).
targets_under() {
    local folder
    for folder in "$@"; do
        [[ -d "$folder" ]] || continue
        find "$folder" -mindepth 1 -maxdepth 1 -type d -printf '%f\n'
    done
}
all_tests=no
tests=()
for file in "${changed[@]}"; do
    case "$file" in
    Package.swift | Tools/Modules.toml | Tools/PrismTestSupport/*) all_tests=yes ;;
    Packages/*/*)
        package="${file#Packages/}"
        package="${package%%/*}"
        mapfile -t -O "${#tests[@]}" tests < <(targets_under "Packages/$package/Tests")
        ;;
    Tools/PrismTestServer/*)
        tests+=(PrismTestServerTests)
        mapfile -t -O "${#tests[@]}" tests < <(targets_under Packages/PrismHTTP/Tests Packages/PrismGraphQL/Tests)
        ;;
    Apps/PrismSample/*) tests+=(PrismSampleTests PrismIntegrationTests) ;;
    Tests/PrismIntegrationTests/*) tests+=(PrismIntegrationTests) ;;
    Tests/PrismDocumentedTests/* | Snippets/*)
        tests+=(PrismGettingStartedSnippetTests PrismTestingSnippetTests PrismTestingOverviewSnippetTests
            PrismStubTransportSnippetTests PrismReadmeSnippetTests)
        ;;
    esac
done
mapfile -t tests < <(printf '%s\n' "${tests[@]}" | sort -u | grep -v '^$' || true)

total_start=$(date +%s)
step "build (incremental)"
Tools/scripts/swift-root.sh "$swift" build --build-tests 2>&1 | grep -vE "CMakeLists.txt|found 1 file\(s\) which are unhandled" || {
    echo "check: the build failed" >&2
    exit 1
}
took

step "lint what changed"
swift_files=()
scripts=()
for file in "${existing[@]}"; do
    case "$file" in
    */GraphQLGenerated/* | */OpenAPIGenerated/*) ;; # generated: checked against its generator
    *.swift) swift_files+=("$file") ;;
    Tools/scripts/*.sh | .ci/run) scripts+=("$file") ;;
    esac
done
if [[ ${#swift_files[@]} -gt 0 ]]; then
    "$swift" format lint --strict --parallel "${swift_files[@]}"
fi
Tools/scripts/generate-manifests.py --check >/dev/null
Tools/scripts/check-generated.py
Tools/scripts/check-imports.py >/dev/null
# The slips of Tools/AvailabilityChecks are meant to fail: make lint checks them (--test).
checked=()
for file in "${swift_files[@]}"; do [[ "$file" == Tools/AvailabilityChecks/* ]] || checked+=("$file"); done
if [[ ${#checked[@]} -gt 0 ]]; then
    # Against the index the build above wrote: what each changed file's names refer to.
    Tools/scripts/check-availability.py --build-dir .build/debug --files "${checked[@]}" >/dev/null
    Tools/scripts/check-portability.py --files "${checked[@]}" >/dev/null
fi
if [[ ${#scripts[@]} -gt 0 ]]; then
    shellcheck "${scripts[@]}"
fi
echo "   ${#swift_files[@]} Swift files, ${#scripts[@]} scripts; manifests, imports, Apple availability and portability"
took

step "tests of what changed"
binary="$("$swift" build --show-bin-path)/PrismPackageTests.xctest"
run_tests() { Tools/scripts/with-keyring.sh env -u SWIFT_DETERMINISTIC_HASHING "$binary" "$@"; }
if [[ $all_tests == yes ]]; then
    echo "   the manifests or the tests' helpers changed: every test (make test)"
    Tools/scripts/with-keyring.sh Tools/scripts/test-in-groups.sh "$swift"
elif [[ ${#tests[@]} -eq 0 ]]; then
    echo "   no package's code changed: no test to run"
else
    echo "   ${tests[*]}"
    filter="^($(
        IFS='|'
        echo "${tests[*]}"
    ))\."
    run_tests --testing-library swift-testing --filter "$filter"
    if [[ " ${tests[*]} " == *" PrismTestingTests "* ]]; then
        run_tests --testing-library xctest
    fi
fi
took
echo "check: passed in $(($(date +%s) - total_start)) s"
