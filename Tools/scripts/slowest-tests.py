#!/usr/bin/env python3
"""Lists the slowest tests of one or more Swift Testing logs, slowest first.

    Tools/scripts/slowest-tests.py LOG...              the 20 slowest
    Tools/scripts/slowest-tests.py --top 50 LOG...     another count
    Tools/scripts/slowest-tests.py --limit 20 LOG...   also fail (exit 1) when a test not marked
                                                       as a soak or stress test took longer

Reads the lines Swift Testing prints when a test ends (`✔ Test "name" passed after 1.234
seconds.`, `✘ Test name() failed after ...`, `... with 3 test cases passed after ...`), colours or
not, and prints each test's time, result and name. A parameterized test counts once, with the time
of all its cases; a test that ran several times (repetitions, or in several logs) is listed with
its longest run. Suites are left out: a suite's time is the time of its slowest test, which is
listed.

`make test` writes its log to `.build/test-logs/`, and prints this list at its end.

`--limit SECONDS` is the bar of CONTRIBUTING.md ("The slowest tests"): no test over 20 s, but the
soak and stress tests, which CI runs in a phase of their own and whose names say so. The names that
may exceed it are matched by `--allow REGEX` (default: soak or stress, in any case).
"""

import argparse
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# `✔ Test "a name" passed after 0.012 seconds.`, `✘ Test name() recorded 2 issues ... after`,
# `✔ Test "a name" with 2 test cases passed after 1.5 seconds.` Swift Testing prints the
# symbols as written here, or as `[✔]`-less ASCII fallbacks on some terminals.
# The name is quoted, or a function's (`name()`, `name(a:)`): a quoted name may itself hold
# " failed" or " passed" ("... a failed one does not"), which a lazy match stopped at.
ENDED = re.compile(
    r'^\S*\s*Test (?!run with )(?P<name>"(?:[^"\\]|\\.)*"|\S+)(?: with \d+ test cases?)? '
    r"(?P<result>passed|failed|recorded \d+ issues?|recorded an issue)"
    r".*? after (?P<seconds>[0-9.]+) seconds"
)


def read(paths):
    """Each test's longest time and whether any of its runs failed."""
    tests = {}
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                match = ENDED.match(ANSI.sub("", line).strip())
                if not match:
                    continue
                name = match["name"].strip()
                seconds = float(match["seconds"])
                failed = match["result"] != "passed"
                longest, anyFailed = tests.get(name, (0.0, False))
                tests[name] = (max(longest, seconds), anyFailed or failed)
    return tests


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", help="Swift Testing output (swift test, or the test bundle)")
    parser.add_argument("--top", type=int, default=20, help="how many to list (20)")
    parser.add_argument("--limit", type=float, help="fail when a test not allowed by --allow took longer")
    parser.add_argument(
        "--allow", default=r"(?i)soak|stress", help="names that may exceed --limit (default: soak or stress)"
    )
    arguments = parser.parse_args()

    tests = read(arguments.logs)
    if not tests:
        print("slowest-tests: no test results in " + ", ".join(arguments.logs), file=sys.stderr)
        return 2
    ranked = sorted(tests.items(), key=lambda item: item[1][0], reverse=True)
    print(f"The {min(arguments.top, len(ranked))} slowest of {len(ranked)} tests:")
    for name, (seconds, failed) in ranked[: arguments.top]:
        print(f"  {seconds:8.2f} s  {'FAILED ' if failed else ''}{name}")

    if arguments.limit is None:
        return 0
    allowed = re.compile(arguments.allow)
    over = [(name, s) for name, (s, _) in ranked if s > arguments.limit and not allowed.search(name)]
    if over:
        print(f"slowest-tests: {len(over)} tests took more than {arguments.limit:g} s:", file=sys.stderr)
        for name, seconds in over:
            print(f"  {seconds:8.2f} s  {name}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
