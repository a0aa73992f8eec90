#!/usr/bin/env bash
# Builds the DocC documentation of the given modules into .build/docs/<Module> with the
# toolchain's docc and the symbol graphs SwiftPM extracts. Fails on any documentation warning
# (a broken link, a parameter that does not exist, a snippet or slice that is not there), so the
# catalogs stay true to the code.
#
# The articles show code from Snippets/ (`@Snippet(path: "Prism/Snippets/<Name>", slice: ...)`):
# SwiftPM compiles those files as executables with every build of the root package (this
# script's `dump-symbol-graph` included), and snippet-symbols.py writes their symbol graph,
# which each catalog is converted with.
set -euo pipefail
cd "$(dirname "$0")/../.."

Tools/scripts/swift-root.sh swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -type d -name symbolgraph -path "*$(uname -m)*" | head -n 1)
mkdir -p .build/docs
snippets=$(mktemp -d)
trap 'rm -rf "$snippets"' EXIT
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
