#!/usr/bin/env bash
# Fuzzes every parser Prism reads strangers' bytes with (Tools/Fuzz, CONTRIBUTING.md "Fuzzing").
#
#   Tools/scripts/fuzz.sh              each target for FUZZ_SECONDS (default 600), FUZZ_JOBS
#                                      (default: one per core) at a time
#   FUZZ_TARGETS="http-date deep-links" FUZZ_SECONDS=60 Tools/scripts/fuzz.sh
#
# Builds prism-fuzz with libFuzzer and AddressSanitizer (-DPRISM_FUZZING, debug: the targets
# reach internal parsers through @testable imports) into .build-fuzz, without the default traits
# (no AsyncHTTPClient or TLS to instrument: no parser under test is behind them). Each target
# starts from its committed seeds (Tools/Fuzz/Corpus/TARGET) and the inputs earlier runs kept
# (.build-fuzz/corpus/TARGET). Prints, per target, the inputs executed and what was found; a
# finding (a crash, a broken property, a hang past 10 s, a leak) is saved under
# .build-fuzz/findings/TARGET and the script fails. Replay one with
# `swift run prism-fuzz replay TARGET FILE`, then make it a test and fix it.
set -euo pipefail
cd "$(dirname "$0")/../.."

SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-600}
JOBS=${FUZZ_JOBS:-$(nproc)}
SCRATCH=.build-fuzz

binary="$SCRATCH/debug/prism-fuzz"

# Not SwiftPM's --sanitize=fuzzer --sanitize=address: SwiftPM passes those to swiftc as two
# flags, in an order that changes from one build manifest to the next, and swiftc keeps only the
# last. With address last, the Swift modules had no coverage counters (libFuzzer mutated
# blindly); with fuzzer last, they had no AddressSanitizer checks. --sanitize=fuzzer alone makes
# SwiftPM link libFuzzer's main (and not rename the program's); -sanitize=fuzzer,address after
# it, one flag, is what swiftc compiles with. The C modules (none a parser under test) get
# SwiftPM's fuzzer coverage only.
#
# Line tables only (swift-root.sh's PRISM_DEBUG_INFO, as the Makefile's TSan build): a
# finding's stack still names each file and line, for about a fifth less CPU. No index store:
# prism-fuzz has no tests for SwiftPM to find in it, and nothing else reads it.
#
# In the one environment of every build (swift-root.sh): make build-fuzz's and make fuzz-smoke's
# variables differ, and the second build linked again what the first had built (25 s).
build() {
    Tools/scripts/swift-root.sh "$SWIFT" build --product prism-fuzz --scratch-path "$SCRATCH" --disable-default-traits --disable-index-store \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DPRISM_FUZZING
}

# How many edges the binary counts: without coverage, libFuzzer only mutates blindly.
counters() {
    local size
    size=$(objdump -h "$binary" | awk '$2 == "__sancov_cntrs" { print $3 }')
    echo $((16#${size:-0}))
}

# Whether the Swift code of the targets is checked by AddressSanitizer.
address_checked() {
    local sections
    sections=$(objdump -h "$SCRATCH/debug/prism_fuzz.build/FuzzTarget.swift.o")
    [[ $sections == *asan.module_ctor* ]]
}

# FUZZ_BUILT=1 (make test-all, whose build-fuzz phase has just built it): use the binary as it
# is. Every build of prism-fuzz, even one with nothing to compile, takes about 25 s: SwiftPM
# builds the root's plugin tools before it plans, and the code generator's tool (which the
# sample app and the tests run) cannot link under --sanitize=fuzzer beside libFuzzer's `main`;
# the failure does not stop prism-fuzz's build, but SwiftPM tries twice.
if [[ "${FUZZ_BUILT:-0}" == "1" && "${FUZZ_BUILD_ONLY:-0}" != "1" && -x "$binary" ]]; then
    echo "== prism-fuzz as make build-fuzz built it (FUZZ_BUILT=1)"
else
    echo "== Building prism-fuzz with libFuzzer and AddressSanitizer"
    build
fi
if [ "$(counters)" -lt 100000 ] || ! address_checked; then
    echo "prism-fuzz was built without coverage counters ($(counters) edges) or AddressSanitizer in its Swift code: rm -rf $SCRATCH and retry" >&2
    exit 2
fi
echo "== prism-fuzz counts $(counters) edges, AddressSanitizer on"
# `make build-fuzz`: the build alone (make test-all starts it early, in the background).
[[ "${FUZZ_BUILD_ONLY:-0}" == "1" ]] && exit 0

targets=${FUZZ_TARGETS:-$(PRISM_FUZZ_TARGET=list "$binary")}

# One target's run: its line of the summary goes to $SCRATCH/logs/TARGET.summary, and the run
# fails (exit 1) on a finding.
fuzz_one() {
    local target="$1"
    local seeds="Tools/Fuzz/Corpus/$target"
    local corpus="$SCRATCH/corpus/$target"
    local findings="$SCRATCH/findings/$target"
    local log="$SCRATCH/logs/$target.log"
    local marker="$SCRATCH/logs/$target.started"
    mkdir -p "$corpus" "$findings" "$SCRATCH/logs"
    touch "$marker"
    local status=0
    # The Swift runtime's backtracer would take seconds per finding: libFuzzer prints the stack.
    PRISM_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 \
        "$binary" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
    local inputs rate kept found
    inputs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    kept=$(find "$corpus" -type f | wc -l)
    found=$(find "$findings" -type f -newer "$marker" | wc -l)
    printf '%-22s %12s %10s %8s %s\n' "$target" "$inputs" "$rate" "$kept" "$found" >"$SCRATCH/logs/$target.summary"
    if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
        echo "== $target: FOUND something"
        grep -E 'property broken|ERROR: |SUMMARY: |Fatal error' "$log" | head -5 || true
        echo "   log: $log; findings: $findings"
        return 1
    fi
    echo "== $target: ${SECONDS_EACH} s, nothing found"
}

for target in $targets; do
    if [ ! -d "Tools/Fuzz/Corpus/$target" ]; then
        echo "no seed corpus for $target (Tools/Fuzz/Corpus/$target)" >&2
        exit 2
    fi
done
# FUZZ_JOBS targets at a time (libFuzzer runs one input at a time: one core each).
echo "== fuzzing each target for ${SECONDS_EACH} s, $JOBS at a time"
failed=0
running=0
for target in $targets; do
    fuzz_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
summary=$(mktemp)
printf '%-22s %12s %10s %8s %s\n' target inputs "inputs/s" corpus findings >"$summary"
for target in $targets; do cat "$SCRATCH/logs/$target.summary" >>"$summary"; done
echo "== Fuzzing summary (${SECONDS_EACH} s each)"
cat "$summary"
rm -f "$summary"
exit "$failed"
