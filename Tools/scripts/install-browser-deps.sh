#!/usr/bin/env bash
# Installs what PrismInspector's browser test needs, quietly, and only what is missing:
#
#   chromium, chromium-driver   headless Chromium and its WebDriver, from Debian (apt)
#   selenium                    the WebDriver client, from PyPI, in a virtual environment at
#                               .build-browser/venv (never in the system's Python)
#
#   Tools/scripts/install-browser-deps.sh           install what is missing
#   Tools/scripts/install-browser-deps.sh --check   only say what is missing; exit 1 if anything is
#
# The test passes Chromium's and the driver's paths to selenium, so selenium downloads no
# browser and no driver. On a system without dpkg (macOS) it installs selenium only and expects
# CHROMIUM and CHROMEDRIVER in the environment.
set -euo pipefail
cd "$(dirname "$0")/../.."

packages=(chromium chromium-driver)
venv=.build-browser/venv
selenium_requirement='selenium>=4.11,<5'

check_only=""
case "${1:-}" in
    "") ;;
    --check) check_only=yes ;;
    *)
        echo "usage: $0 [--check]" >&2
        exit 64
        ;;
esac

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for package in "${packages[@]}"; do
        status="$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)"
        [ "$status" = "installed" ] || missing+=("$package")
    done
    if ! python3 -m venv --help >/dev/null 2>&1; then
        missing+=(python3-venv)
    fi
fi
has_selenium=""
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import selenium' >/dev/null 2>&1; then
    has_selenium=yes
fi

if [ "${#missing[@]}" -eq 0 ] && [ -n "$has_selenium" ]; then
    echo "install-browser-deps.sh: all installed (${packages[*]}, selenium)."
    exit 0
fi
if [ -n "$check_only" ]; then
    [ -n "$has_selenium" ] || missing+=(selenium)
    echo "install-browser-deps.sh: missing: ${missing[*]}" >&2
    exit 1
fi

log="$(mktemp "${TMPDIR:-/tmp}/prism-browser-deps.XXXXXX")"
trap 'rm -f "$log"' EXIT
run_quietly() {
    if ! "$@" >"$log" 2>&1; then
        echo "install-browser-deps.sh: failed: $*" >&2
        cat "$log" >&2
        exit 1
    fi
}

if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1; then
        as_root=(sudo)
    else
        echo "install-browser-deps.sh: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    echo "install-browser-deps.sh: installing ${missing[*]}"
    if ! ${as_root[@]+"${as_root[@]}"} apt-get install -y -qq "${missing[@]}" >"$log" 2>&1; then
        echo "install-browser-deps.sh: install failed; updating the package lists and retrying"
        run_quietly ${as_root[@]+"${as_root[@]}"} apt-get update -qq
        run_quietly ${as_root[@]+"${as_root[@]}"} apt-get install -y -qq "${missing[@]}"
    fi
fi

if [ -z "$has_selenium" ]; then
    echo "install-browser-deps.sh: installing selenium into $venv"
    rm -rf "$venv"
    run_quietly python3 -m venv "$venv"
    run_quietly "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$selenium_requirement"
fi
echo "install-browser-deps.sh: installed."
