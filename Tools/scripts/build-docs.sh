#!/usr/bin/env bash
# Builds the DocC documentation of the given modules into .build/docs/<Module> with the
# toolchain's docc and the symbol graphs SwiftPM extracts. Fails on any documentation warning
# (a broken link, a parameter that does not exist), so the catalogs stay true to the code.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -type d -name symbolgraph -path "*$(uname -m)*" | head -n 1)
mkdir -p .build/docs

for module in "$@"; do
    catalog="Packages/$module/Sources/$module/$module.docc"
    [[ -d "$catalog" ]] || catalog="Tools/$module/Sources/$module/$module.docc"
    module_graphs=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module"@*.symbols.json "$module_graphs/" 2>/dev/null || true
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.prism.$module" \
        --output-path ".build/docs/$module" \
        --warnings-as-errors
    rm -rf "$module_graphs"
    echo "Built .build/docs/$module"
done
