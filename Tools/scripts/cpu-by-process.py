#!/usr/bin/env python3
"""Where a run's CPU time goes, by process: samples /proc every 0.3 s until STOPFILE exists.

    Tools/scripts/cpu-by-process.py /tmp/stop > /tmp/cpu.txt &
    CI=true bash .ci/run; touch /tmp/stop

Each process is labelled when first seen: the Swift frontend by the module it compiles, clang
by the folder of its source, anything else by its program's name; and by the build it belongs
to, from the first argument naming a build folder (root, tsan, fuzz, browser, or a consumer in
a temporary folder). At the end it prints the CPU seconds (user + system) of each label, the
largest first, then of each build. A process that lives less than 0.3 s may be missed, and the
sampler itself costs a few percent of a core: good for where the time goes, not for totals
(timed.sh's table has those).
"""
import collections
import os
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")
SCOPES = (
    (".build-tsan", "tsan"),
    (".build-fuzz", "fuzz"),
    (".build-browser", "browser"),
    ("/tmp/tmp.", "consumer"),
    ("/.build/", "root"),
)


def arguments(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return [part.decode(errors="replace") for part in file.read().split(b"\0") if part]
    except OSError:
        return None


def label(args):
    scope = ""
    for argument in args:
        for marker, name in SCOPES:
            if marker in argument:
                scope = name + ": "
                break
        if scope:
            break
    program = os.path.basename(args[0])
    if program in ("swift-frontend", "swiftc", "swift") and ("-frontend" in args or program == "swift-frontend"):
        module = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-module-name"), "")
        kind = "emit-module" if "-emit-module" in args and "-c" not in args else "compile"
        return f"{scope}swift {kind} {module}"
    if program.startswith("clang"):
        source = next((a for a in args if a.endswith((".c", ".cc", ".cpp", ".S"))), None)
        return f"{scope}clang " + ("/".join(source.split("/")[-4:-1]) if source else "(link or other)")
    return scope + program


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    stop = sys.argv[1]
    seen = {}  # (pid, start time) -> [label, cpu seconds]
    baseline = {}
    first = True
    while not os.path.exists(stop):
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as file:
                    stat = file.read()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2 :].split()
            key = (pid, fields[19])
            cpu = (int(fields[11]) + int(fields[12])) / HZ
            if first:
                baseline[key] = cpu
            cpu -= baseline.get(key, 0)
            if key not in seen or seen[key][0] is None:
                args = arguments(pid)
                seen[key] = [label(args) if args else None, cpu]
            else:
                seen[key][1] = cpu
        first = False
        time.sleep(0.3)
    labels = collections.Counter()
    for name, cpu in seen.values():
        labels[name or "?"] += cpu
    for name, cpu in labels.most_common(100):
        print(f"{cpu:8.1f}  {name}")
    scopes = collections.Counter()
    for name, cpu in labels.items():
        scopes[name.split(": ")[0] if ": " in name else "(no build folder)"] += cpu
    print("--- by build")
    for name, cpu in scopes.most_common():
        print(f"{cpu:8.1f}  {name}")


if __name__ == "__main__":
    main()
