#!/usr/bin/env python3
"""Checks that every Linux-only spelling sits in code no Apple platform compiles.

What: these machines are Linux, so code that names `Glibc`, calls `inotify_init1`, reads
`st_mtim` or writes `SOCK_STREAM.rawValue` builds here and fails on every Mac ("cannot find
'inotify_init1' in scope"; on Darwin SOCK_STREAM is an Int32 and the field is `st_mtimespec`).
Every such use in the repository's Swift files (sources, tests, tools, the sample app,
snippets) must be in an `#if` branch that no Apple platform takes: `#if os(Linux)`, `#if
canImport(Glibc)`, the `#else` of `#if canImport(Darwin)`. A condition is evaluated for every
Apple platform (apple_platforms.py): `#if os(Linux) || os(macOS)` is taken on macOS, so it does
not guard; an unknown condition (a custom flag) may be taken, so it does not guard either.

Also, REFUSED_ON: what an Apple platform has but refuses to an ordinary app, which must sit in
code that platform does not compile (a socket on watchOS: `#if !os(watchOS)`), in the code apps
run (not the tests and tools of the repository).

Why: the Linux build cannot see these mistakes, and no Apple build runs in CI.

How: by the text, comments and `#if` lines aside, against LINUX_ONLY below: the C library
modules, Linux-only functions, constants and types of Glibc, Glibc's spellings of what Darwin
spells otherwise, and string literals that name a path of Linux's /proc or /sys (a literal
`"/proc"` counts, so that `"/proc" + "/self/statm"` does too). Add to the table what Prism comes
to use.

Usage: Tools/scripts/check-portability.py [ROOT]
       Tools/scripts/check-portability.py --files PATH...
       Tools/scripts/check-portability.py --test FOLDER   (Tools/AvailabilityChecks/portability:
           every line marked `// slip` must be reported, and no other)
"""
import argparse
import pathlib
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from apple_platforms import APPLE, SwiftFile, minimums, sources  # noqa: E402

SCRIPT_ROOT = pathlib.Path(__file__).resolve().parents[2]
SLIPS = "Tools/AvailabilityChecks"

# (pattern over the code, what it is). Each pattern matches a spelling that does not compile for
# an Apple platform.
LINUX_ONLY = [
    (r"\b(?:Glibc|Musl|Bionic|Android|FoundationNetworking|FoundationXML|SwiftGlibc)\b",
     "a module Apple platforms do not have"),
    (r"\bSOCK_(?:STREAM|DGRAM|RAW|SEQPACKET|RDM)\s*\.\s*rawValue\b",
     "Glibc's spelling (Glibc imports SOCK_* as a struct; on Darwin it is an Int32)"),
    (r"\.st_[amc]tim\b", "Glibc's field (Darwin spells it st_atimespec, st_mtimespec, st_ctimespec)"),
    (r"\b(?:__fds_bits|__in6_u|__u6_addr8|__u6_addr16|__u6_addr32|__sigaction_handler)\b",
     "a Glibc struct field (Darwin names it otherwise)"),
    (r"\b(?:inotify_\w+|epoll_\w+|eventfd\w*|timerfd_\w+|signalfd\w*|memfd_create|accept4|pipe2|dup3|getauxval"
     r"|prctl|gettid|sched_[gs]etaffinity|malloc_usable_size|mallinfo2?|statx|splice|vmsplice|syncfs"
     r"|sync_file_range|fallocate|posix_fadvise|getrandom|secure_getenv|clock_nanosleep|sem_timedwait"
     r"|timer_create|timer_settime|mremap|__errno_location|program_invocation_(?:short_)?name|get_nprocs\w*"
     r"|sysinfo|ucred)\b",
     "Linux-only"),
    (r"\b(?:MSG_NOSIGNAL|SOCK_CLOEXEC|SOCK_NONBLOCK|SO_PEERCRED|SOL_TCP|CLOCK_BOOTTIME|CLOCK_MONOTONIC_COARSE"
     r"|CLOCK_REALTIME_COARSE|O_DIRECT|O_TMPFILE|O_PATH|O_NOATIME|O_LARGEFILE|EPOLL\w+|EFD_\w+|TFD_\w+"
     r"|IN_(?:ACCESS|MODIFY|ATTRIB|CLOSE_WRITE|CLOSE_NOWRITE|CLOSE|OPEN|MOVED_FROM|MOVED_TO|MOVE|CREATE|DELETE"
     r"|DELETE_SELF|MOVE_SELF|NONBLOCK|CLOEXEC|ONLYDIR|DONT_FOLLOW|EXCL_UNLINK|MASK_ADD|ISDIR|ONESHOT|IGNORED"
     r"|Q_OVERFLOW|UNMOUNT|ALL_EVENTS))\b",
     "a Linux-only constant"),
]
PATTERNS = [(re.compile(pattern), what) for pattern, what in LINUX_ONLY]
# (pattern, the Apple platforms it must not compile for, why): what an Apple platform has but
# refuses to an ordinary app.
REFUSED_ON = [
    (r"\b(?:NIOTransportServices|NIOTS\w+|NWConnection|NWListener|NWBrowser|URLSessionWebSocketTask|webSocketTask"
     r"|ClientBootstrap|ServerBootstrap|DatagramBootstrap)\b",
     {"watchOS"},
     "a socket, which an ordinary watchOS app may not open (Apple's TN3135: audio-streaming and CallKit apps only)"),
]
REFUSED_PATTERNS = [(re.compile(pattern), platforms, why) for pattern, platforms, why in REFUSED_ON]


def ships_in_apps(path: pathlib.Path) -> bool:
    """Whether `path` is code an app runs (REFUSED_ON applies): not a test or a tool of the
    repository's, which run on a developer's machine (the slips of Tools/AvailabilityChecks do count)."""
    try:
        parts = path.resolve().relative_to(SCRIPT_ROOT).parts
    except ValueError:
        return True
    if parts[:2] == ("Tools", "AvailabilityChecks"):
        return True
    return "Tests" not in parts and parts[:1] != ("Tools",)
# A string literal (its text before any interpolation) naming Linux's process or system file system.
LINUX_PATH = re.compile(r"^/(?:proc|sys)(?:/|$)|/proc/|/sys/(?:fs|class|devices|kernel|block)\b")


def check(path: pathlib.Path, minimum: dict):
    """[(line, use, what, platforms)] of the Linux-only uses in a file that an Apple platform compiles."""
    swift = SwiftFile(path, path.read_text(), minimum)
    found = []
    directive_lines = {number for number, line in enumerate(swift.code.split("\n"), 1)
                       if re.match(r"\s*#(if|elseif|else|endif)\b", line)}

    def report(offset, use, what, on=APPLE):
        line = swift.line(offset)
        if line in directive_lines:
            return
        compiled = swift.compiled(offset)
        platforms = [platform for platform in APPLE if platform in on and compiled[platform] is not False]
        if platforms:
            found.append((line, use, what, platforms))

    for pattern, what in PATTERNS:
        for match in pattern.finditer(swift.code):
            report(match.start(), match.group(0).replace(" ", ""), what)
    for pattern, platforms, why in REFUSED_PATTERNS if ships_in_apps(path) else []:
        for match in pattern.finditer(swift.code):
            report(match.start(), match.group(0), why, on=platforms)
    for start, _, segments in swift.strings:
        if segments and LINUX_PATH.search(segments[0]):
            report(start, f'"{segments[0]}"', "a path of Linux's /proc or /sys")
    return found


def run(root: pathlib.Path, files):
    minimum = minimums(SCRIPT_ROOT)
    problems = []
    for path in files:
        for line, use, what, platforms in check(path, minimum):
            try:
                shown = path.relative_to(root)
            except ValueError:
                shown = path
            problems.append((path, line, f"{shown}:{line}: `{use}` ({what}) compiles on {', '.join(platforms)}"))
    return problems


def self_test(folder: pathlib.Path) -> int:
    files = sorted(folder.rglob("*.swift"))
    if not files:
        print(f"check-portability --test: {folder} has no Swift files", file=sys.stderr)
        return 2
    expected = {(path, number) for path in files
                for number, line in enumerate(path.read_text().split("\n"), 1) if re.search(r"//\s*slip\b", line)}
    reported = {(path, line): text for path, line, text in run(folder, files)}
    errors = [f"{path.relative_to(folder)}:{line}: a slip the check did not catch"
              for path, line in sorted(expected - set(reported))]
    errors += [f"{reported[key]}: flagged, but it is a correct use" for key in sorted(set(reported) - expected)]
    if errors:
        print(f"check-portability --test: the check is wrong about {folder.name}:")
        for error in errors:
            print(f"  {error}")
        return 1
    print(f"check-portability --test: all {len(expected)} slips of {len(files)} files caught, no correct use flagged")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("--files", nargs="+", help="check these files only")
    parser.add_argument("--test", help="check the slips of this folder against their `// slip` markers")
    arguments = parser.parse_args()
    if arguments.test:
        return self_test(pathlib.Path(arguments.test).resolve())
    root = pathlib.Path(arguments.root).resolve()
    if arguments.files:
        files = [pathlib.Path(path).resolve() for path in arguments.files]
    else:
        files = list(sources(root, exclude=[SLIPS]))
    if not files:
        print(f"check-portability: no Swift file under {root}: nothing was checked", file=sys.stderr)
        return 2
    problems = run(root, files)
    if problems:
        print("check-portability: these uses compile on an Apple platform that lacks or refuses them; move them"
              " under an #if that platform does not take (os(Linux), canImport(Glibc); !os(watchOS) for a socket):")
        for _, _, text in sorted(problems):
            print(f"  {text}")
        return 1
    print(f"check-portability: no Linux-only module, function, constant, field or path in the {len(files)} files"
          " outside an #if no Apple platform takes.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
