#!/usr/bin/env bash
# Installs the Python packages Prism's tests run as outside peers, from PyPI, into a virtual
# environment at .build-python/venv (never into the system's Python), and only when missing:
#
#   websockets    the WebSocket server PrismWebSocket's tests talk to (Packages/PrismWebSocket/
#                 Tests/PrismWebSocketTests/peers.py): a server that is not Prism's
#
#   Tools/scripts/install-python-deps.sh           install what is missing
#   Tools/scripts/install-python-deps.sh --check   only say what is missing; exit 1 if anything is
#
# python3 -m venv comes with python3-venv on Debian (Tools/scripts/install-browser-deps.sh
# installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build-python/venv
requirements=('websockets>=13,<16')

if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import websockets.asyncio.server' >/dev/null 2>&1; then
    echo "install-python-deps.sh: all installed (websockets)."
    exit 0
fi
case "${1:-}" in
    "") ;;
    --check)
        echo "install-python-deps.sh: missing: websockets in $venv" >&2
        exit 1
        ;;
    *)
        echo "usage: $0 [--check]" >&2
        exit 64
        ;;
esac

log="$(mktemp "${TMPDIR:-/tmp}/prism-python-deps.XXXXXX")"
trap 'rm -f "$log"' EXIT
run_quietly() {
    if ! "$@" >"$log" 2>&1; then
        echo "install-python-deps.sh: failed: $*" >&2
        cat "$log" >&2
        exit 1
    fi
}
echo "install-python-deps.sh: installing ${requirements[*]} into $venv"
rm -rf "$venv"
run_quietly python3 -m venv "$venv"
run_quietly "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
echo "install-python-deps.sh: installed."
