#!/usr/bin/env bash
# Type-checks Prism's SwiftUI code, which Linux never compiles (it is behind
# `#if canImport(SwiftUI)`), against the stand-ins of Tools/AppleInterfaces: once as iOS sees it
# and once as macOS does (each `os(...)` of that platform read as true). Run after
# `make build-tests`: the code is checked as a client of the built modules' public API.
#
# It catches what the stand-ins know (a wrong label, type, isolation or Sendable capture), not
# what only Apple's SDK does; the availability check (check-availability.py) still reads these
# files by name for declarations newer than the deployment targets.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=.build/debug
out=.build/swiftui-typecheck
rm -rf "$out"
mkdir -p "$out"
for module in AppKit SwiftUI; do
    swiftc -swift-version 6 -parse-as-library -warnings-as-errors -emit-module -module-name "$module" \
        -emit-module-path "$out/$module.swiftmodule" -I "$out" "Tools/AppleInterfaces/$module.swift"
done

maps=()
while IFS= read -r map; do
    maps+=(-Xcc "-fmodule-map-file=$map")
done < <(find -L "$build/" -maxdepth 2 -name module.modulemap)

# The files, each with the import its own module gives it for free.
glue=Packages/PrismStore/Sources/PrismStore/Presentation/PrismStore+SwiftUI.swift
app=Apps/PrismNotes/Sources/PrismNotes/PrismNotesApp.swift
for platform in iOS macOS; do
    mkdir -p "$out/$platform"
    { echo "import PrismStore"; sed "s/os($platform)/os(Linux)/g" "$glue"; } > "$out/$platform/Glue.swift"
    sed "s/os($platform)/os(Linux)/g" "$app" > "$out/$platform/App.swift"
    swiftc -swift-version 6 -parse-as-library -warnings-as-errors -typecheck -module-name PrismSwiftUICheck \
        -I "$out" -I "$build/Modules" "${maps[@]}" "$out/$platform/Glue.swift" "$out/$platform/App.swift"
    echo "typecheck-swiftui: $glue and $app type-check as $platform sees them"
done
