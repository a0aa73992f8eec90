#!/usr/bin/env python3
"""Checks that every use of a Linux-only module or path sits inside the `#if` that guards it.

These machines are Linux, so code that names `Glibc` outside an `#if canImport(Glibc)` builds
here and fails on every Mac ("cannot find 'Glibc' in scope"). Every line of the repository's Swift
files (sources, tests, tools, the sample app, snippets) that uses one of these must be inside an
`#if` or `#elseif` branch whose condition names a guard for it (not negated):

| use | a guarding condition |
|---|---|
| `Glibc` | `canImport(Glibc)`, `os(Linux)` |
| `Musl` | `canImport(Musl)`, `os(Linux)` |
| `FoundationNetworking` | `canImport(FoundationNetworking)`, `os(Linux)` |
| `/proc/` (Linux's process file system) | `os(Linux)`, `canImport(Glibc)` |

Comments are not code: a use in a comment is not checked.

Usage: Tools/scripts/check-portability.py [ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
GUARDS = {
    "Glibc": ("canImport(Glibc)", "os(Linux)"),
    "Musl": ("canImport(Musl)", "os(Linux)"),
    "FoundationNetworking": ("canImport(FoundationNetworking)", "os(Linux)"),
    "/proc/": ("os(Linux)", "canImport(Glibc)"),
}
USE = re.compile(r"\b(Glibc|Musl|FoundationNetworking)\b|(/proc/)")


def names(condition: str, guard: str) -> bool:
    """Whether `condition` names `guard` other than negated (`!canImport(Glibc)`)."""
    compact = condition.replace(" ", "")
    return any(compact[index - 1 : index] != "!" for index in [m.start() for m in re.finditer(re.escape(guard), compact)])


def sources():
    for pattern in ("Packages/*/Sources", "Packages/*/Tests", "Sources", "Tests", "Tools", "Apps", "Snippets"):
        for directory in root.glob(pattern):
            for path in directory.rglob("*.swift"):
                if ".build" not in path.parts:
                    yield path


problems = []
checked = 0
for path in sources():
    # The conditions of the #if branches the current line is in (None for an #else branch).
    branches = []
    for number, line in enumerate(path.read_text().split("\n"), 1):
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            kind, condition = directive.group(1), directive.group(2).split("//")[0]
            if kind == "if":
                branches.append(condition)
            elif kind == "elseif" and branches:
                branches[-1] = condition
            elif kind == "else" and branches:
                branches[-1] = None
            elif kind == "endif" and branches:
                branches.pop()
            continue
        code = re.sub(r'"(?:\\.|[^"\\])*"', lambda m: m.group(0) if "/proc/" in m.group(0) else '""', stripped)
        code = code.split("//")[0] if not code.startswith('"') else code
        if stripped.startswith("//") or stripped.startswith("*"):
            continue
        for match in USE.finditer(code):
            use = match.group(1) or match.group(2)
            checked += 1
            if not any(condition and any(names(condition, guard) for guard in GUARDS[use]) for condition in branches):
                problems.append(f"{path.relative_to(root)}:{number}: `{use}` outside #if {' or '.join(GUARDS[use])}")
if problems:
    print("check-portability: these Linux-only uses would not compile on Apple platforms:")
    for problem in problems:
        print(f"  {problem}")
    sys.exit(1)
print(f"check-portability: all {checked} uses of Glibc, Musl, FoundationNetworking and /proc are inside their #if.")
