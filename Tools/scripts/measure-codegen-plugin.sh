#!/usr/bin/env bash
# What PrismGraphQLCodegenPlugin adds to a clean debug build, as an app sees it: a throwaway
# package that depends on a clone of this repository by URL (traits off) and builds one
# executable on PrismGraphQL, clean, without the plugin and then with it (the Generating Types
# article's schema and operation). Checkouts are resolved first and not timed.
#
# Usage: Tools/scripts/measure-codegen-plugin.sh   (prints both times and the difference)
#
# Then the same app with a schema of GitHub's size and as many operations: the 1 MB schema and
# the 21 operations of PrismGraphQLLargeSchemaTests (Tools/scripts/generate-large-schema.py made
# the schema): its clean build, its build after one operation changed, and the generator alone
# on them (the prism-graphql-codegen the plugin built, run as the plugin runs it).
#
# With PRISM_MEASURE_SCHEMA=FILE and PRISM_MEASURE_OPERATIONS=DIR, the same three figures are also
# taken for that schema (SDL) and the .graphql files in DIR (GitHub's published schema and your own
# operations, say); the change is a query added to the first file.
set -euo pipefail
unset PRISM_WARNINGS_AS_ERRORS
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$root" "$work/prism"
git -C "$work/prism" tag 99.0.0
article="$root/Packages/PrismGraphQL/Sources/PrismGraphQL/PrismGraphQL.docc/GeneratingTypes.md"
app="$work/app"
mkdir -p "$app/Sources/App"

manifest() {
    cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "file://$work/prism", from: "99.0.0", traits: [])],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "PrismGraphQL", package: "prism")]$1)
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
}

# Seconds a clean `swift build` of the app takes.
clean_build() {
    (cd "$app" && swift package resolve >/dev/null)
    rm -rf "$app/.build/debug" "$app/.build/$(uname -m)-unknown-linux-gnu" "$app/.build/arm64-apple-macosx" \
        "$app/.build/x86_64-apple-macosx" "$app/.build/plugins"
    local start end
    start=$(date +%s.%N)
    (cd "$app" && swift build >/dev/null)
    end=$(date +%s.%N)
    awk -v start="$start" -v end="$end" 'BEGIN { printf "%.1f", end - start }'
}

printf 'import PrismGraphQL\n\nprint(PrismGraphQLClient.self)\n' >"$app/Sources/App/main.swift"
manifest ""
without=$(clean_build)

"$root/Tools/scripts/doc-code-block.py" "$article" codegen-schema >"$app/Sources/App/schema.graphqls"
"$root/Tools/scripts/doc-code-block.py" "$article" codegen-operation >"$app/Sources/App/GetUser.graphql"
printf 'import PrismGraphQL\n\nprint(GetUserQuery.operationName)\n' >"$app/Sources/App/main.swift"
manifest ', plugins: [.plugin(name: "PrismGraphQLCodegenPlugin", package: "prism")]'
with=$(clean_build)
[[ "$(cd "$app" && swift run --skip-build App)" == "GetUser" ]] || { echo "the app with generated types did not run" >&2; exit 1; }

echo "clean debug build without the plugin: $without s"
echo "clean debug build with the plugin:    $with s"
echo "added by the plugin:                  $(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.1f", a - b }') s"

# A schema of GitHub's size (1 MB of SDL) and 21 operations.
large="$root/Packages/PrismGraphQLCodegen/Tests/PrismGraphQLLargeSchemaTests"
rm -f "$app/Sources/App/"*.graphql "$app/Sources/App/"*.graphqls
cp "$large/schema.graphqls" "$large/"*.graphql "$app/Sources/App/"
printf 'import PrismGraphQL\n\nprint(CatalogItemDetailQuery.operationName)\n' >"$app/Sources/App/main.swift"
large_clean=$(clean_build)
[[ "$(cd "$app" && swift run --skip-build App)" == "CatalogItemDetail" ]] || {
    echo "the app with the large schema's types did not run" >&2
    exit 1
}
# One operation changes: a field more.
# shellcheck disable=SC2016  # GraphQL's $id, not the shell's
sed -i 's/^query CatalogItemDetail(\$id: ID!) {$/query CatalogItemDetail($id: ID!) { __typename/' "$app/Sources/App/Catalog.graphql"
grep -q '__typename' "$app/Sources/App/Catalog.graphql" || { echo "the operation did not change" >&2; exit 1; }
start=$(date +%s.%N)
(cd "$app" && swift build >/dev/null)
end=$(date +%s.%N)
large_incremental=$(awk -v start="$start" -v end="$end" 'BEGIN { printf "%.1f", end - start }')
# The plugin's tool, as SwiftPM built it for the build machine.
tool=$(find "$app/.build" -type f -perm -u+x \( -name prism-graphql-codegen-tool -o -name prism-graphql-codegen \) | head -1)
[[ -n "$tool" ]] || { echo "the plugin's tool was not found under $app/.build" >&2; exit 1; }
start=$(date +%s.%N)
(cd "$app/Sources/App" && "$tool" --schema schema.graphqls --output "$work/generated" ./*.graphql >/dev/null)
end=$(date +%s.%N)
large_tool=$(awk -v start="$start" -v end="$end" 'BEGIN { printf "%.1f", end - start }')
echo "clean debug build, 1 MB schema and 21 operations:    $large_clean s"
echo "the same after one operation changed:                $large_incremental s"
echo "the generator alone on them:                         $large_tool s"

# Optionally, a schema and operations of the caller's: the same three figures.
if [[ -n "${PRISM_MEASURE_SCHEMA:-}" && -n "${PRISM_MEASURE_OPERATIONS:-}" ]]; then
    rm -f "$app/Sources/App/"*.graphql "$app/Sources/App/"*.graphqls
    cp "$PRISM_MEASURE_SCHEMA" "$app/Sources/App/schema.graphqls"
    cp "$PRISM_MEASURE_OPERATIONS"/*.graphql "$app/Sources/App/"
    printf 'import PrismGraphQL\n\nprint(PrismGraphQLClient.self)\n' >"$app/Sources/App/main.swift"
    own_clean=$(clean_build)
    first=$(find "$app/Sources/App" -name '*.graphql' | sort | head -1)
    printf '\nquery PrismMeasureAdded { __typename }\n' >>"$first"
    start=$(date +%s.%N)
    (cd "$app" && swift build >/dev/null)
    end=$(date +%s.%N)
    own_incremental=$(awk -v start="$start" -v end="$end" 'BEGIN { printf "%.1f", end - start }')
    start=$(date +%s.%N)
    (cd "$app/Sources/App" && "$tool" --schema schema.graphqls --output "$work/generated-own" ./*.graphql >/dev/null 2>&1)
    end=$(date +%s.%N)
    own_tool=$(awk -v start="$start" -v end="$end" 'BEGIN { printf "%.1f", end - start }')
    count=$(cat "$PRISM_MEASURE_OPERATIONS"/*.graphql | grep -cE '^\s*(query|mutation|subscription)\b' || true)
    echo "clean debug build, $(basename "$PRISM_MEASURE_SCHEMA") and $count operations: $own_clean s"
    echo "the same after a query was added to one file:        $own_incremental s"
    echo "the generator alone on them:                         $own_tool s"
fi
