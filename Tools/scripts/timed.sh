#!/usr/bin/env bash
# Runs `make PHASE` for each phase given, in order, stopping at the first that fails, and prints
# how long each took at the end (also when one failed):
#
#   Tools/scripts/timed.sh lint test docs
#
# `make test-all` runs its phases through this, so that CI's log ends with where the time went.
set -uo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 PHASE..." >&2
    exit 64
fi

names=()
seconds=()
status=0
total_start=$(date +%s)
for phase in "$@"; do
    echo "== make $phase"
    start=$(date +%s)
    make --no-print-directory "$phase"
    status=$?
    names+=("$phase")
    seconds+=($(($(date +%s) - start)))
    if [ "$status" -ne 0 ]; then
        names[-1]="$phase (FAILED, exit $status)"
        break
    fi
done

echo
echo "== Time per phase"
for index in "${!names[@]}"; do
    printf '  %-40s %4d s\n' "${names[$index]}" "${seconds[$index]}"
done
printf '  %-40s %4d s\n' "total" $(($(date +%s) - total_start))
exit "$status"
