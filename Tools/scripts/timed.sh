#!/usr/bin/env bash
# Runs `make PHASE` for each phase given, in order, stopping at the first that fails, and prints
# at the end (also when one failed) how long each took against its budget:
#
#   Tools/scripts/timed.sh lint=30 test=120 docs
#   Tools/scripts/timed.sh build-tests build-fuzz@bg test wait:build-fuzz=60 fuzz-smoke
#   TIMED_TOTAL_BUDGET=1200 Tools/scripts/timed.sh ...
#
# A phase's budget (seconds, after `=`) is what it takes on a fresh clone on two idle cores, with
# room to spare; one over its budget is marked OVER in the table, which says where CI's time
# went, but does not fail the run: a busy machine is slower, and a test run must not fail on
# time. `make test-all` runs its phases through this; CONTRIBUTING.md ("What each target costs")
# has the figures behind the budgets.
#
# `PHASE@bg` starts `make PHASE` in the background at the lowest priority (nice 19), its output
# kept in .build/ci-logs/PHASE.log, and goes on at once: it runs on the cycles the phases after
# it leave idle. `wait:PHASE` waits for it, prints its output and fails if it failed; the table
# gives the background phase's own time and the time spent waiting for it (which is what it
# added to the total). A background phase never waited for is waited for at the end.
set -uo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 PHASE[=SECONDS]|PHASE@bg|wait:PHASE[=SECONDS]..." >&2
    exit 64
fi

logs=.build/ci-logs
names=()
seconds=()
budgets=()
declare -A background_pid=()
declare -A background_start=()
status=0
total_start=$(date +%s)

# Waits for the background phase $1; adds its rows to the table; returns its status.
join() {
    local phase="$1" budget="$2" start code=0
    start=$(date +%s)
    echo "== waiting for $phase (in the background since $(($(date +%s) - background_start[$phase])) s)"
    wait "${background_pid[$phase]}" || code=$?
    echo "== make $phase (ran in the background; its output:)"
    cat "$logs/$phase.log"
    names+=("$phase (in the background)")
    seconds+=($(($(date +%s) - background_start[$phase])))
    budgets+=("")
    names+=("wait for $phase")
    seconds+=($(($(date +%s) - start)))
    budgets+=("$budget")
    unset "background_pid[$phase]"
    if [ "$code" -ne 0 ]; then
        names[-2]="$phase (FAILED, exit $code)"
    fi
    return "$code"
}

for argument in "$@"; do
    phase="${argument%%=*}"
    budget=""
    [[ "$argument" == *=* ]] && budget="${argument#*=}"
    if [[ "$phase" == *@bg ]]; then
        phase="${phase%@bg}"
        mkdir -p "$logs"
        echo "== make $phase: started in the background (nice 19; output in $logs/$phase.log)"
        nice -n 19 make --no-print-directory "$phase" >"$logs/$phase.log" 2>&1 &
        background_pid[$phase]=$!
        background_start[$phase]=$(date +%s)
        continue
    fi
    if [[ "$phase" == wait:* ]]; then
        join "${phase#wait:}" "$budget" || {
            status=1
            break
        }
        continue
    fi
    echo "== make $phase"
    start=$(date +%s)
    make --no-print-directory "$phase"
    status=$?
    names+=("$phase")
    seconds+=($(($(date +%s) - start)))
    budgets+=("$budget")
    if [ "$status" -ne 0 ]; then
        names[-1]="$phase (FAILED, exit $status)"
        break
    fi
done
for phase in "${!background_pid[@]}"; do
    join "$phase" "" || status=1
done

total=$(($(date +%s) - total_start))
total_budget="${TIMED_TOTAL_BUDGET:-}"
if [[ -z "$total_budget" ]]; then
    for budget in "${budgets[@]}"; do total_budget=$((${total_budget:-0} + ${budget:-0})); done
fi
row() {
    local mark=""
    [[ -n "$3" && "$2" -gt "$3" ]] && mark="OVER"
    printf '  %-44s %5d s %9s %s\n' "$1" "$2" "${3:+/ $3 s}" "$mark"
}
echo
echo "== Time per phase (seconds / budget)"
for index in "${!names[@]}"; do
    row "${names[$index]}" "${seconds[$index]}" "${budgets[$index]}"
done
row "total" "$total" "$total_budget"
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")"
exit "$status"
