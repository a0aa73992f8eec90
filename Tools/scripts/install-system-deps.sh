#!/usr/bin/env bash
# Installs the Debian packages that building and testing Prism needs beyond the Swift toolchain,
# quietly, and only those that are missing:
#
#   libsecret-1-0     libsecret, which PrismKeychainPersistence loads at run time on Linux
#                     (building Prism needs no system package at all)
#   gnome-keyring     a Secret Service for the keychain tests (see with-keyring.sh)
#   dbus              dbus-daemon, dbus-run-session and dbus-send: a private session bus
#   (and ShellCheck)  make lint checks the shell scripts with it (package shellcheck)
#   curl              a test runs the curl command PrismHTTPRequest.curlCommand renders
#
#   Tools/scripts/install-system-deps.sh           install what is missing (apt-get; root or sudo)
#   Tools/scripts/install-system-deps.sh --check   only say what is missing; exit 1 if anything is
#
# Runs apt-get update only when a missing package has no candidate in the package lists. Uses
# sudo only when not root. On a system without dpkg (macOS), there is nothing to install.
set -euo pipefail

packages=(libsecret-1-0 gnome-keyring dbus shellcheck curl)

check_only=""
case "${1:-}" in
    "") ;;
    --check) check_only=yes ;;
    *)
        echo "usage: $0 [--check]" >&2
        exit 64
        ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-system-deps.sh: not a Debian-based system; nothing to install ($(uname -s))."
    exit 0
fi

missing=()
for package in "${packages[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)"
    if [ "$status" != "installed" ]; then
        missing+=("$package")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-system-deps.sh: all installed (${packages[*]})."
    exit 0
fi
if [ -n "$check_only" ]; then
    echo "install-system-deps.sh: missing: ${missing[*]}" >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "install-system-deps.sh: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log="$(mktemp "${TMPDIR:-/tmp}/prism-install-deps.XXXXXX")"
trap 'rm -f "$log"' EXIT

run_quietly() {
    if ! ${as_root[@]+"${as_root[@]}"} "$@" >"$log" 2>&1; then
        echo "install-system-deps.sh: failed: $*" >&2
        cat "$log" >&2
        exit 1
    fi
}

# Update the package lists only if one of the missing packages cannot be found in them.
for package in "${missing[@]}"; do
    candidate="$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: *//p')"
    if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
        echo "install-system-deps.sh: updating the package lists"
        run_quietly apt-get update -qq
        break
    fi
done

echo "install-system-deps.sh: installing ${missing[*]}"
if ! ${as_root[@]+"${as_root[@]}"} apt-get install -y -qq "${missing[@]}" >"$log" 2>&1; then
    # Lists that are there but old name versions the mirror no longer has: refresh and retry.
    echo "install-system-deps.sh: install failed; updating the package lists and retrying"
    run_quietly apt-get update -qq
    run_quietly apt-get install -y -qq "${missing[@]}"
fi
echo "install-system-deps.sh: installed."
