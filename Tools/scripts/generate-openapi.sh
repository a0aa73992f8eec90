#!/usr/bin/env bash
# Writes PrismOpenAPITests' client anew: swift-openapi-generator's types and client for
# Packages/PrismOpenAPI/Tests/PrismOpenAPITests/openapi.yaml, with its openapi-generator-config.yaml,
# into that folder's OpenAPIGenerated/, and the stamp Tools/scripts/check-generated.py (make lint)
# compares with the two files.
#
# The code is committed rather than made by the generator's build plugin in every build: the
# plugin's tool (OpenAPIKit, Yams, the generator: about 110 CPU-seconds in debug) was built before
# anything else of the root, in a phase of its own, on every fresh clone. Apps keep using the
# plugin, as PrismOpenAPI's documentation says; what the tests exercise is the code it makes.
#
# The generator is built once, in a throwaway package of its own under .build-openapi (ignored
# by git), from the Swift package mirror or registry like every other dependency.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="$root/Packages/PrismOpenAPI/Tests/PrismOpenAPITests"
output="$target/OpenAPIGenerated"
scratch="$root/.build-openapi"
generator_version="1.14.3"

tool_package="$scratch/package"
mkdir -p "$tool_package/Sources/Unused"
cat >"$tool_package/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
// Written by Tools/scripts/generate-openapi.sh: only builds swift-openapi-generator's tool.
import PackageDescription

let package = Package(
    name: "OpenAPIGenerate",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "$generator_version")
    ],
    targets: [.target(name: "Unused")]
)
MANIFEST
echo "// Nothing: the package only builds swift-openapi-generator." >"$tool_package/Sources/Unused/Unused.swift"
swift build --package-path "$tool_package" --scratch-path "$scratch/build" --product swift-openapi-generator \
    -debug-info-format none
tool="$scratch/build/debug/swift-openapi-generator"

written="$(mktemp -d)"
trap 'rm -rf "$written"' EXIT
# swift-format-ignore-file: the generator's style is not the repository's (make lint and make
# format skip the folder too).
"$tool" generate "$target/openapi.yaml" --config "$target/openapi-generator-config.yaml" \
    --output-directory "$written" --additional-file-comment "swift-format-ignore-file"
rm -rf "$output"
mkdir -p "$output"
cp "$written"/*.swift "$output/"
"$root/Tools/scripts/check-generated.py" --write-openapi-stamp "$generator_version"
echo "== wrote $(find "$output" -name '*.swift' | wc -l) files into ${output#"$root"/}"
