#!/usr/bin/env bash
# Checks that the public API did not break since the last release without CHANGELOG.md saying so
# (`make api-check`): each library product's module is compared with the API the last release
# had, committed in Tools/API/ (Tools/scripts/api-check.py says how), and every breaking change
# must be named in the Unreleased section of CHANGELOG.md. Then a self-test shows that the check
# does fail on a breaking change that CHANGELOG.md does not name.
#
#   Tools/scripts/api-check.sh            # check (after a debug build of the root: make test)
#   Tools/scripts/api-check.sh --update   # write the current API as the baseline: a release step
#                                         # (CONTRIBUTING.md, "Releasing"; make api-baseline)
#   PRODUCTS="PrismStore PrismHTTP" Tools/scripts/api-check.sh   # only some products
#
# Takes seconds: it reads the modules `make test` built; nothing of an older commit is built.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The library products of the public API (see "Versioning" in README.md): not the test server,
# nor the umbrellas, which only re-export these.
default_products="PrismEffects PrismStore PrismRouting PrismPersistence PrismTesting PrismInspector PrismCache PrismHTTP PrismWebSocket PrismGraphQL PrismHTTPTesting PrismTelemetry PrismOpenAPI"
read -r -a products <<<"${PRODUCTS:-$default_products}"

if [[ "${1:-}" == "--update" ]]; then
    Tools/scripts/api-check.py update "${products[@]}"
    exit 0
fi
echo "api-check: comparing the public API of ${products[*]} with $(sed -n 's/^Release: //p' Tools/API/README.md)"
Tools/scripts/api-check.py check "${products[@]}"
Tools/scripts/api-check.py self-test PrismStore
