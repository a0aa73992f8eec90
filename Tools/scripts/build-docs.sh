#!/usr/bin/env bash
# Builds the DocC documentation of the given modules into .build/docs/<Module> with the
# toolchain's docc and the symbol graphs of the debug build. Fails on any documentation warning
# (a broken link, a parameter that does not exist, a snippet or slice that is not there), so the
# catalogs stay true to the code.
#
# The articles show code from Snippets/ (`@Snippet(path: "Prism/Snippets/<Name>", slice: ...)`):
# SwiftPM compiles those files as executables with every build of the root package, and
# snippet-symbols.py writes their symbol graph, which each catalog is converted with.
#
# The symbol graphs come from the modules of the root's debug build (the one make build-tests
# makes; the build here finds nothing to do after it), through swift-symbolgraph-extract with
# the C modules' maps the build used, as api-check.py reads them. Not `swift package
# dump-symbol-graph`, which writes the same graphs but plans the build anew: it linked the code
# generator's plugin tool and regenerated the GraphQL types each time (39 s of test-all's docs
# phase on a fresh clone), and the next `swift build` linked them back.
set -euo pipefail
cd "$(dirname "$0")/../.."

Tools/scripts/swift-root.sh swift build >/dev/null
graphs=$(mktemp -d)
snippets=$(mktemp -d)
trap 'rm -rf "$graphs" "$snippets"' EXIT
modules=".build/debug/Modules"
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
maps=()
while read -r module_map; do
    [[ "$module_map" == *-tool.build* || ! -f "$module_map" ]] || maps+=(-Xcc "-fmodule-map-file=$module_map")
done < <(grep -o -- '-fmodule-map-file=[^" ]*' .build/debug.yaml | sed 's/^-fmodule-map-file=//' | sort -u)
for module in "$@"; do
    swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$modules" \
        "${maps[@]}" -minimum-access-level public -output-dir "$graphs"
done
mkdir -p .build/docs
find "$PWD/Snippets" -name '*.swift' -print0 | sort -z |
    xargs -0 Tools/scripts/snippet-symbols.py --module-name Prism --output "$snippets/Prism-snippets.symbols.json"

# One module's catalog, converted with its symbol graphs and the snippets'.
convert() {
    local module="$1" catalog module_graphs
    catalog="Packages/$module/Sources/$module/$module.docc"
    [[ -d "$catalog" ]] || catalog="Tools/$module/Sources/$module/$module.docc"
    [[ -d "$catalog" ]] || catalog="Sources/$module/$module.docc"
    module_graphs=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module"@*.symbols.json "$module_graphs/" 2>/dev/null || true
    cp "$snippets/Prism-snippets.symbols.json" "$module_graphs/"
    local status=0
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.prism.$module" \
        --output-path ".build/docs/$module" \
        --warnings-as-errors >".build/docs/$module.log" 2>&1 || status=$?
    rm -rf "$module_graphs"
    cat ".build/docs/$module.log"
    if [[ $status -ne 0 ]]; then
        echo "build-docs: $module's catalog has problems (above)" >&2
        return 1
    fi
    echo "Built .build/docs/$module"
}

# docc converts one catalog on about one core: DOCS_JOBS catalogs at a time (one per core).
jobs="${DOCS_JOBS:-$(nproc)}"
failed=0
running=0
for module in "$@"; do
    convert "$module" &
    running=$((running + 1))
    if [[ $running -ge $jobs ]]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
done
while [[ $running -gt 0 ]]; do
    wait -n || failed=1
    running=$((running - 1))
done
exit "$failed"
