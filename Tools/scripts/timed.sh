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
#
# Each row also gives the CPU time the phase's processes used (user + system, all their
# children included) and, for a phase run in the foreground, how busy the machine's cores were
# meanwhile (from /proc/stat): a phase at 100 % waits on the CPU, one far below it on something
# else (a server, a timeout, one core of a serial build), which says what would make it faster.
set -uo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 PHASE[=SECONDS]|PHASE@bg|wait:PHASE[=SECONDS]..." >&2
    exit 64
fi

logs=.build/ci-logs
mkdir -p "$logs"
names=()
seconds=()
budgets=()
cpus=()
busies=()
declare -A background_pid=()
declare -A background_start=()
status=0
failed_phase=""
total_start=$(date +%s)

# The CPU seconds this shell's waited-for children used so far (user + system), as bash's
# `times` reports them on its second line, in the variable `children_cpu`. (Not a function
# called as $(...): that runs in a subshell, whose children are not the phases.)
children_cpu=0
read_children_cpu() {
    local file="$logs/.times.$BASHPID"
    times >"$file"
    children_cpu=$(sed -n 2p "$file" | awk '{
        total = 0
        for (field = 1; field <= 2; field++) {
            split($field, part, "m"); sub("s", "", part[2]); total += part[1] * 60 + part[2]
        }
        printf "%d", total + 0.5
    }')
    rm -f "$file"
}

# The cores' busy and total jiffies since boot (/proc/stat), "busy total"; "0 0" without it.
cpu_jiffies() {
    awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; found = 1 }
        END { if (!found) print "0 0" }' /proc/stat 2>/dev/null || echo "0 0"
}

# How busy the cores were between two cpu_jiffies readings, as "NN %" ("" without /proc/stat).
busy_share() {
    local before_busy before_total after_busy after_total
    read -r before_busy before_total <<<"$1"
    read -r after_busy after_total <<<"$2"
    if ((after_total > before_total)); then
        echo "$((100 * (after_busy - before_busy) / (after_total - before_total))) %"
    fi
}

total_jiffies=$(cpu_jiffies)

# A background phase that ends while a phase runs in the foreground is reaped by this shell
# then, and its CPU time joins the foreground phase's (the kernel counts a reaped child's time
# as its parent's): each background phase writes its own to PHASE.cpu as it ends, and the
# foreground phase's figure leaves out those that ended meanwhile.
finished_background() {
    local phase
    for phase in "${!background_pid[@]}"; do
        [[ -f "$logs/$phase.cpu" ]] && echo "$phase"
    done
}
reaped_since() {
    local phase reaped=0
    for phase in $(finished_background); do
        if ! grep -qx "$phase" <<<"$1"; then
            reaped=$((reaped + $(cat "$logs/$phase.cpu")))
        fi
    done
    echo "$reaped"
}

# Waits for the background phase $1 (budget $2; $3 "stopped" when it was stopped); adds its rows
# to the table; returns its status.
join() {
    local phase="$1" budget="$2" start code=0
    start=$(date +%s)
    echo "== waiting for $phase (in the background since $(($(date +%s) - background_start[$phase])) s)"
    # The phase's status is the one it wrote to PHASE.status as it ended. `wait` alone can lose
    # it: bash forgets a reaped background job's status when a later child of this shell gets
    # the same PID (pid_max is 32,768 on the CI machine, and a 20-minute build wraps it), and
    # `wait` then answers 127, "not a child of this shell", for a phase that passed (a CI run
    # failed so). Should `wait` return before the phase ends, the loop waits for its status.
    wait "${background_pid[$phase]}" 2>/dev/null || code=$?
    while [[ "${3:-}" != "stopped" && ! -f "$logs/$phase.status" ]] && kill -0 "${background_pid[$phase]}" 2>/dev/null; do
        sleep 1
    done
    if [[ -f "$logs/$phase.status" ]]; then
        code=$(cat "$logs/$phase.status")
    elif [[ "${3:-}" != "stopped" ]]; then
        echo "== $phase ended without its status (wait: $code)"
        [[ "$code" -ne 0 ]] || code=1
    fi
    if [[ "${3:-}" == "stopped" ]]; then
        # Stopped because another phase failed: its last lines only, the rest is in its log.
        echo "== make $phase (stopped in the background; the end of its output, all in $logs/$phase.log:)"
        tail -n 5 "$logs/$phase.log"
    else
        echo "== make $phase (ran in the background; its output:)"
        cat "$logs/$phase.log"
    fi
    names+=("$phase (in the background)")
    seconds+=($(($(date +%s) - background_start[$phase])))
    budgets+=("")
    cpus+=("$(cat "$logs/$phase.cpu" 2>/dev/null || echo "?")")
    busies+=("")
    names+=("wait for $phase")
    seconds+=($(($(date +%s) - start)))
    budgets+=("$budget")
    cpus+=("")
    busies+=("")
    unset "background_pid[$phase]"
    if [[ "${3:-}" == "stopped" ]]; then
        names[-2]="$phase (stopped)"
    elif [ "$code" -ne 0 ]; then
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
        rm -f "$logs/$phase.cpu" "$logs/$phase.status"
        echo "== make $phase: started in the background (nice 19; output in $logs/$phase.log)"
        # At the lowest priority; the phase's own CPU time goes to PHASE.cpu.
        (
            renice -n 19 -p "$BASHPID" >/dev/null
            make --no-print-directory "$phase"
            code=$?
            read_children_cpu
            echo "$children_cpu" >"$logs/$phase.cpu"
            echo "$code" >"$logs/$phase.status.new" && mv "$logs/$phase.status.new" "$logs/$phase.status"
            exit "$code"
        ) >"$logs/$phase.log" 2>&1 &
        background_pid[$phase]=$!
        background_start[$phase]=$(date +%s)
        continue
    fi
    if [[ "$phase" == wait:* ]]; then
        join "${phase#wait:}" "$budget" || {
            status=1
            failed_phase="${phase#wait:}"
            break
        }
        continue
    fi
    echo "== make $phase"
    start=$(date +%s)
    read_children_cpu
    cpu_before=$children_cpu
    finished_before=$(finished_background)
    jiffies_before=$(cpu_jiffies)
    # Its output goes to the terminal and to PHASE.log, from which a failure's lines are
    # repeated at the end (CI keeps the tail of a long log).
    make --no-print-directory "$phase" 2>&1 | tee "$logs/$phase.log"
    status=${PIPESTATUS[0]}
    names+=("$phase")
    seconds+=($(($(date +%s) - start)))
    budgets+=("$budget")
    read_children_cpu
    cpus+=($((children_cpu - cpu_before - $(reaped_since "$finished_before"))))
    busies+=("$(busy_share "$jiffies_before" "$(cpu_jiffies)")")
    if [ "$status" -ne 0 ]; then
        names[-1]="$phase (FAILED, exit $status)"
        failed_phase="$phase"
        break
    fi
done
# After a failure, the background phases are stopped rather than waited for (minutes of a
# build whose result nobody will use); after success, each is waited for.
stop_tree() {
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do stop_tree "$child"; done
    kill "$1" 2>/dev/null || true
}
for phase in "${!background_pid[@]}"; do
    if [ "$status" -ne 0 ]; then
        echo "== stopping $phase (in the background): a phase failed"
        stop_tree "${background_pid[$phase]}"
        join "$phase" "" stopped || true
        continue
    fi
    join "$phase" "" || {
        status=1
        failed_phase="${failed_phase:-$phase}"
    }
done

total=$(($(date +%s) - total_start))
total_budget="${TIMED_TOTAL_BUDGET:-}"
if [[ -z "$total_budget" ]]; then
    for budget in "${budgets[@]}"; do total_budget=$((${total_budget:-0} + ${budget:-0})); done
fi
row() {
    local mark=""
    [[ -n "$3" && "$2" -gt "$3" ]] && mark="OVER"
    printf '  %-44s %5d s %9s %4s  %8s  %6s\n' "$1" "$2" "${3:+/ $3 s}" "$mark" "${4:+$4 s}" "$5"
}
echo
echo "== Time per phase (seconds / budget; CPU seconds the phase used; how busy the cores were)"
for index in "${!names[@]}"; do
    row "${names[$index]}" "${seconds[$index]}" "${budgets[$index]}" "${cpus[$index]}" "${busies[$index]}"
done
read_children_cpu
row "total" "$total" "$total_budget" "$children_cpu" "$(busy_share "$total_jiffies" "$(cpu_jiffies)")"
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")"
# Why the run failed, last, where a log cut to its tail still shows it: the failing phase's lines
# that name a failure (a test's ✘ and its issue, a compiler's error, a crash, a script's own
# message), at most 60.
if [[ -n "$failed_phase" && -f "$logs/$failed_phase.log" ]]; then
    echo
    echo "== why $failed_phase failed (its lines naming a failure; the whole output: $logs/$failed_phase.log)"
    sed 's/\x1b\[[0-9;]*m//g' "$logs/$failed_phase.log" |
        grep -E '^✘ |^\[?✘|^[^ ]+:[0-9]+(:[0-9]+)?: (fatal )?error:|^error:|Fatal error|FAILED|failed \(exit|Segmentation fault|Illegal instruction|^make(\[[0-9]+\])?: \*\*\*' |
        head -60
fi
exit "$status"
