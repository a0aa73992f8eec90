#!/usr/bin/env bash
# What PrismGraphQLCodegenPlugin adds to a clean debug build, as an app sees it: a throwaway
# package that depends on a clone of this repository by URL (traits off) and builds one
# executable on PrismGraphQL, clean, without the plugin and then with it (the Generating Types
# article's schema and operation). Checkouts are resolved first and not timed.
#
# Usage: Tools/scripts/measure-codegen-plugin.sh   (prints both times and the difference)
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
