#!/usr/bin/env bash
# Runs `make PHASE` for each phase given, in order, stopping at the first that fails, and prints
# at the end (also when one failed) how long each took against its budget:
#
#   Tools/scripts/timed.sh lint=30 test=120 docs
#   TIMED_TOTAL_BUDGET=1200 Tools/scripts/timed.sh ...
#
# A phase's budget (seconds, after `=`) is what it takes on a fresh clone on two idle cores, with
# room to spare; one over its budget is marked OVER in the table, which says where CI's time
# went, but does not fail the run: a busy machine is slower, and a test run must not fail on
# time. `make test-all` runs its phases through this; CONTRIBUTING.md ("What each target costs")
# has the figures behind the budgets.
set -uo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 PHASE[=SECONDS]..." >&2
    exit 64
fi

names=()
seconds=()
budgets=()
status=0
total_start=$(date +%s)
for argument in "$@"; do
    phase="${argument%%=*}"
    budget=""
    [[ "$argument" == *=* ]] && budget="${argument#*=}"
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

total=$(($(date +%s) - total_start))
total_budget="${TIMED_TOTAL_BUDGET:-}"
if [[ -z "$total_budget" ]]; then
    for budget in "${budgets[@]}"; do total_budget=$((${total_budget:-0} + ${budget:-0})); done
fi
row() {
    local mark=""
    [[ -n "$3" && "$2" -gt "$3" ]] && mark="OVER"
    printf '  %-40s %5d s %7s %s\n' "$1" "$2" "${3:+/ $3 s}" "$mark"
}
echo
echo "== Time per phase (seconds / budget)"
for index in "${!names[@]}"; do
    row "${names[$index]}" "${seconds[$index]}" "${budgets[$index]}"
done
row "total" "$total" "$total_budget"
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")"
exit "$status"
