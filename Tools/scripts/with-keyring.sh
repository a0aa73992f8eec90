#!/usr/bin/env bash
# Runs a command inside a private D-Bus session bus with a real, unlocked gnome-keyring (the
# freedesktop Secret Service), headless, and exits with the command's status:
#
#   Tools/scripts/with-keyring.sh swift test
#
# PrismKeychainPersistence on Linux talks to the Secret Service through libsecret; this gives
# its tests (and CI) a real one without a desktop session. The keyring lives in a temporary
# folder that is removed afterwards: nothing of the user's own keyring is read or changed.
# The command sees PRISM_KEYRING=1, which the keychain tests check before they run.
#
# Needs dbus-run-session, dbus-send and gnome-keyring-daemon: Tools/scripts/install-system-deps.sh.
# The bus daemon's own messages (and those of the services it starts) are dropped unless
# PRISM_KEYRING_VERBOSE=1.
set -euo pipefail

# Started by dbus-run-session as its bus daemon (see below): keep its chatter out of the output.
if [ -n "${PRISM_KEYRING_BUS_DAEMON:-}" ]; then
    unset PRISM_KEYRING_BUS_DAEMON
    if [ "${PRISM_KEYRING_VERBOSE:-}" = 1 ]; then
        exec dbus-daemon "$@"
    fi
    exec dbus-daemon "$@" 2>/dev/null
fi

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGUMENT...]" >&2
    exit 64
fi

# A caller may start this script with signals blocked: a child inherits the signal mask of the
# thread that spawned it, and the worker threads of a test runner block nearly all of them.
# The daemons started below would inherit it too and ignore the SIGTERM that stops them. Start
# again with no signal blocked (perl is part of every Debian system).
if [ -z "${PRISM_KEYRING_UNBLOCKED:-}" ] && grep -q '^SigBlk:.*[1-9a-f]' /proc/self/status 2>/dev/null &&
    command -v perl >/dev/null 2>&1; then
    PRISM_KEYRING_UNBLOCKED=1 exec perl -MPOSIX -e \
        'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!"; exec { $ARGV[0] } @ARGV or die "exec: $!"' \
        bash "${BASH_SOURCE[0]}" "$@"
fi

# Outside the private bus: start one and run this script again inside it.
if [ -z "${PRISM_KEYRING_INSIDE:-}" ]; then
    for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "with-keyring.sh: $tool not found; install the test dependencies with" \
                "Tools/scripts/install-system-deps.sh" >&2
            exit 69
        fi
    done
    script="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
    # dbus-run-session starts a session bus, runs its command with DBUS_SESSION_BUS_ADDRESS set,
    # stops the bus when the command exits and exits with the command's status.
    # The bus daemon it starts is this script too, which quiets it (PRISM_KEYRING_BUS_DAEMON).
    PRISM_KEYRING_BUS_DAEMON=1 exec dbus-run-session --dbus-daemon="$script" -- \
        env -u PRISM_KEYRING_BUS_DAEMON PRISM_KEYRING_INSIDE=1 bash "$script" "$@"
fi
unset PRISM_KEYRING_INSIDE PRISM_KEYRING_UNBLOCKED

state="$(mktemp -d "${TMPDIR:-/tmp}/prism-keyring.XXXXXX")"
mkdir -m 700 "$state/runtime" "$state/data"
daemon=""

# Stops the keyring daemon: SIGTERM, then SIGKILL if it is still running after 5 s.
# shellcheck disable=SC2317  # reached through the EXIT trap (cleanup)
stop_daemon() {
    kill "$daemon" 2>/dev/null || return 0
    for _ in $(seq 1 100); do
        process_state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$daemon/status" 2>/dev/null || true)"
        if [ -z "$process_state" ] || [ "$process_state" = Z ]; then
            break
        fi
        sleep 0.05
    done
    kill -KILL "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
}

# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
    if [ -n "$daemon" ]; then
        stop_daemon
    fi
    rm -rf "$state"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# --unlock reads the password of the login keyring on standard input, creates the keyring if
# there is none, and unlocks it; the keyring becomes the default collection. Its files and its
# control socket go to the temporary folder, not to the user's.
password="prism-keyring-$$-$RANDOM"
printf '%s' "$password" |
    XDG_DATA_HOME="$state/data" XDG_RUNTIME_DIR="$state/runtime" \
        gnome-keyring-daemon --foreground --unlock --components=secrets >"$state/daemon.log" 2>&1 &
daemon=$!

bus_call() {
    dbus-send --session --print-reply --reply-timeout=2000 "$@" 2>/dev/null
}

# Ready when the daemon owns org.freedesktop.secrets (asking the name's owner does not start a
# second daemon by D-Bus activation, as a call to the service itself would) and its default
# collection exists and is unlocked.
ready=""
for _ in $(seq 1 200); do
    if ! kill -0 "$daemon" 2>/dev/null; then
        echo "with-keyring.sh: gnome-keyring-daemon exited early:" >&2
        cat "$state/daemon.log" >&2
        exit 70
    fi
    if bus_call --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q 'boolean true'; then
        collection="$(bus_call --dest=org.freedesktop.secrets /org/freedesktop/secrets \
            org.freedesktop.Secret.Service.ReadAlias string:default |
            sed -n 's/.*object path "\(.*\)".*/\1/p')"
        if [ -n "$collection" ] && [ "$collection" != "/" ] &&
            bus_call --dest=org.freedesktop.secrets "$collection" org.freedesktop.DBus.Properties.Get \
                string:org.freedesktop.Secret.Collection string:Locked | grep -q 'boolean false'; then
            ready=yes
            break
        fi
    fi
    sleep 0.05
done
if [ -z "$ready" ]; then
    echo "with-keyring.sh: the Secret Service did not become ready with an unlocked default keyring in 10 s:" >&2
    cat "$state/daemon.log" >&2
    exit 70
fi

status=0
PRISM_KEYRING=1 "$@" || status=$?
exit "$status"
