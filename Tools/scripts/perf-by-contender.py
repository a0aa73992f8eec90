#!/usr/bin/env python3
"""Splits a perf profile of the client benchmarks by contender, and compares two of them.

The benchmarks run their contenders in turn in one process, so a whole-run profile mixes them.
With PRISM_LOAD_MARKS=1 the benchmark writes each round's span ("mark <contender> c=<n> <begin>
<end>", CLOCK_MONOTONIC nanoseconds) to standard error; perf stamps its samples on the same clock
with -k CLOCK_MONOTONIC:

    PRISM_LOAD_MARKS=1 perf record -k CLOCK_MONOTONIC -F 2000 -e cpu-clock -g -o client.data \\
        .build/release/PrismBenchmarks --filter client 2>marks.txt
    Tools/scripts/perf-by-contender.py client.data marks.txt c=16 1 0 [pattern ...]

prints the samples of the benchmark's own process (not the test server's) in contender 1's
rounds and contender 0's (the baseline) at that concurrency, the self symbols that differ most,
and, for each pattern, how many samples of each have a frame whose symbol contains it.
"""
import bisect
import collections
import subprocess
import sys


def main(data, marks_path, concurrency, candidate, baseline, *patterns):
    marks = []
    for line in open(marks_path):
        if line.startswith("mark "):
            _, index, level, begin, end = line.split()
            marks.append((int(begin) / 1e9, int(end) / 1e9, int(index), level))
    marks.sort()
    starts = [mark[0] for mark in marks]
    script = subprocess.run(
        ["perf", "script", "-i", data, "-F", "pid,time,ip,sym"], capture_output=True, text=True, check=True
    ).stdout
    samples, current = [], None
    for line in script.split("\n"):
        if not line.strip():
            if current:
                samples.append(current)
            current = None
        elif not line.startswith("\t"):
            fields = line.split()
            current = (int(fields[0]), float(fields[1].rstrip(":")), [])
        elif current:
            parts = line.strip().split(None, 1)
            current[2].append(parts[1] if len(parts) > 1 else "?")
    if current:
        samples.append(current)
    # The benchmark started the server: its pid is the smaller one.
    client = min(pid for pid, _, _ in samples)
    rounds = collections.defaultdict(list)
    for pid, time, stack in samples:
        at = bisect.bisect_right(starts, time) - 1
        if pid == client and at >= 0 and time <= marks[at][1]:
            rounds[(marks[at][3], marks[at][2])].append(stack)
    ours, theirs = rounds[(concurrency, int(candidate))], rounds[(concurrency, int(baseline))]
    print(f"{concurrency}: contender {candidate} {len(ours)} samples, contender {baseline} {len(theirs)}")
    own = collections.Counter(stack[0] for stack in ours if stack)
    other = collections.Counter(stack[0] for stack in theirs if stack)
    for symbol in sorted(set(own) | set(other), key=lambda name: other[name] - own[name])[:30]:
        print(f"{own[symbol] - other[symbol]:+6d} {own[symbol]:6d} {other[symbol]:6d}  {symbol[:150]}")
    for pattern in patterns:
        count = [sum(1 for stack in group if any(pattern in frame for frame in stack)) for group in (ours, theirs)]
        print(f"frames containing {pattern!r}: {count[0]} vs {count[1]}")


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
