#!/usr/bin/env bash
# Checks that the public API did not break since a baseline: runs SwiftPM's
# `diagnose-api-breaking-changes` (swift-api-digester) on every library product users depend on,
# against BASELINE (a tag, branch or commit) or, without one, the latest tag.
#
#   Tools/scripts/api-check.sh            # against the latest tag; says so and passes if none
#   Tools/scripts/api-check.sh v0.2.0     # against a given ref
#   PRODUCTS="PrismStore PrismHTTP" Tools/scripts/api-check.sh   # only some products
#
# Exits 1 and lists the breaking changes when there are any. It builds the current tree in the
# root's .build (after `make test`, as in `make test-all`, that build is already done) and the
# baseline in a checkout under .build (a full build, about 13 minutes on two cores the first time;
# SwiftPM keeps it for the next check against the same baseline).
set -euo pipefail
cd "$(dirname "$0")/../.."

baseline="${1:-${BASELINE:-}}"
if [[ -z "$baseline" ]]; then
    if ! baseline=$(git describe --tags --abbrev=0 2>/dev/null); then
        echo "api-check: no tag yet, nothing to compare with (pass a ref: make api-check BASELINE=<ref>)."
        exit 0
    fi
fi
if ! git rev-parse --verify --quiet "$baseline^{commit}" >/dev/null; then
    echo "api-check: '$baseline' is not a tag, branch or commit of this repository." >&2
    exit 2
fi

# The library products of the public API (see "Versioning" in README.md): not the test server.
default_products="PrismEffects PrismStore PrismRouting PrismPersistence PrismTesting PrismInspector PrismCache PrismHTTP PrismGraphQL PrismHTTPTesting"
read -r -a products <<<"${PRODUCTS:-$default_products}"

echo "api-check: comparing the public API of ${products[*]} with $baseline"
arguments=()
for product in "${products[@]}"; do arguments+=(--products "$product"); done
swift package diagnose-api-breaking-changes "$baseline" "${arguments[@]}"
