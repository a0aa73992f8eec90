#!/usr/bin/env bash
# Runs a SwiftPM command on the root package in the one environment every root build of make
# uses (make build-tests, make test, make check, make run, the browser and written tests, the
# docs), so that one build does not undo the next:
#
#   Tools/scripts/swift-root.sh swift build --build-tests
#
# SwiftPM links the GraphQL code generator's plugin tool again, regenerates the GraphQL types and
# recompiles the targets that use them (15-60 s) whenever a build's environment differs from the
# last one's in any variable: SHLVL, which make's recipes and bash set differently from one
# phase to the next, the D-Bus address of the keyring session, a script's own variables. Seen:
# `FOO=1 swift build` after `swift build` relinks, and so does the next `swift build`; in
# test-all on a fresh clone every build after build-tests did (test, the browser test, the
# written test twice, the docs: about 230 s). Here the command gets only the variables below,
# each the same for every build of a session.
set -euo pipefail

keep=(PATH HOME USER LOGNAME LANG LANGUAGE TERM TMPDIR TZ SSL_CERT_FILE SSL_CERT_DIR SDKROOT
    TOOLCHAINS DEVELOPER_DIR PRISM_WARNINGS_AS_ERRORS)
# A fixed hashing seed, whoever calls: see the Makefile's note on SWIFT_DETERMINISTIC_HASHING.
environment=(SWIFT_DETERMINISTIC_HASHING=1)
for name in "${keep[@]}"; do
    [[ -n "${!name+set}" ]] && environment+=("$name=${!name}")
done
# Locales, XDG folders (SwiftPM's caches and configuration), proxies and SwiftPM's own settings.
while read -r name; do
    case "$name" in
    LC_* | XDG_* | SWIFTPM_* | *_proxy | *_PROXY) environment+=("$name=${!name}") ;;
    esac
done < <(compgen -e)

# Debug information: line tables (PRISM_DEBUG_INFO=lines, the default), or full (=full). Line
# tables give every backtrace, crash report and sanitizer report its files and lines, and LLDB
# its breakpoints and stepping; full debug information adds the variables (`frame variable`,
# `po`), for more CPU in every compile (the PrismStore package from scratch: 112 CPU-seconds
# with it, 97 with line tables; CONTRIBUTING.md). To debug with LLDB's variables, build with
# `make build-tests PRISM_DEBUG_INFO=full` (every module compiles again, once; so does the next
# build without it). `-debug-info-format none` keeps SwiftPM's own `-g`, which it puts after the
# flags given here, off the C targets' command lines (with it, SwiftNIO SSL's BoringSSL, the
# largest C target, got full debug information whatever -Xcc said), and spares the step that
# wraps each module's AST for LLDB; the flags after it give back the line tables. (BoringSSL
# alone: 198 CPU-seconds with its -g, 143 without.) The index store stays: on Linux, SwiftPM
# finds the XCTest cases to run in it (a build without it fails at the test discovery step).
# Given to build, run, test and package, after the subcommand.
build_flags=()
case "${PRISM_DEBUG_INFO:-lines}" in
lines) build_flags=(-debug-info-format none -Xswiftc -gline-tables-only -Xcc -gline-tables-only) ;;
full) ;;
*)
    echo "swift-root.sh: PRISM_DEBUG_INFO is lines or full, not '$PRISM_DEBUG_INFO'" >&2
    exit 64
    ;;
esac
# Prism's own builds turn on every trait of the root, those off by default (Telemetry, OpenAPI) too, so
# that every target and test is built: the same list for every command, or one would undo the
# next (Makefile, SWIFT_DETERMINISTIC_HASHING). Not for a command that chooses its traits itself
# (the fuzz build's --disable-default-traits: turning them back on cost it 310 CPU-seconds of
# AsyncHTTPClient and BoringSSL under AddressSanitizer).
if [[ " $* " != *" --disable-default-traits "* && " $* " != *" --traits "* && " $* " != *" --enable-all-traits "* ]]; then
    build_flags+=(--traits 'default,Telemetry,OpenAPI')
fi
if [[ $# -ge 2 && ("$2" == build || "$2" == run || "$2" == test || "$2" == package) ]]; then
    exec env -i "${environment[@]}" "$1" "$2" "${build_flags[@]}" "${@:3}"
fi
exec env -i "${environment[@]}" "$@"
