#!/usr/bin/env bash
# PrismInspector in a real browser (make test-browser): builds the fixture app in the root
# package, then drives the inspector's page with selenium and headless Chromium
# (test-inspector-browser.py). Takes a screenshot of the page:
#
#   PRISM_INSPECTOR_SCREENSHOT=path   where to save it (default .build-browser/inspector.png);
#                                     make inspector-screenshot saves the one the package README shows
set -euo pipefail
cd "$(dirname "$0")/../.."

Tools/scripts/install-browser-deps.sh
# The same build as make build-tests, which builds the fixture too, in the same environment
# (swift-root.sh says why): after make test, nothing to do.
Tools/scripts/swift-root.sh swift build --build-tests
bin="$(swift build --show-bin-path)"
screenshot="${PRISM_INSPECTOR_SCREENSHOT:-.build-browser/inspector.png}"
# Selenium never downloads a browser or a driver: the script names Debian's.
export SE_OFFLINE=true
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
timeout 300 .build-browser/venv/bin/python Tools/scripts/test-inspector-browser.py \
    "$bin/PrismInspectorFixture" "$screenshot"
