#!/usr/bin/env python3
"""Checks that the code in documentation names only Prism symbols that exist.

Reads the code examples of doc comments (the lines between ``` fences in `///` comments of
Packages/*/Sources and Sources/) and of the DocC articles (```swift blocks of *.docc/*.md), and
every `Prism...` type name in them (PrismStore, PrismHTTPError, ...) must be declared somewhere in
the sources (a class, struct, enum, protocol, actor or typealias), and every member named on one
(`PrismInspector.start`, `PrismPath.segments`) must be declared too (a func, property or case of
that name). A renamed or removed type or static member then fails `make lint` instead of leaving
an example that cannot compile. (The articles' and READMEs' code is compiled:
check-doc-code.py.)

Usage: Tools/scripts/check-doc-symbols.py [ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
sources = [*root.glob("Packages/*/Sources/**/*.swift"), *root.glob("Packages/*/Plugins/*/*.swift"), *root.glob("Sources/**/*.swift"),
           *root.glob("Tools/PrismTestServer/Sources/**/*.swift")]
DECLARATION = re.compile(r"\b(?:class|struct|enum|protocol|actor|typealias)\s+(Prism\w+)")
NAME = re.compile(r"\bPrism[A-Z]\w*")
MEMBER_DECLARATION = re.compile(r"\b(?:func|var|let|case)\s+`?(\w+)")
MEMBER = re.compile(r"\b(Prism[A-Z]\w*)(?:<[^>]*>)?\.([a-z]\w*)")

declared = set()
members = {"init", "self", "Type"}
for path in sources:
    text = path.read_text()
    declared.update(DECLARATION.findall(text))
    members.update(MEMBER_DECLARATION.findall(text))
    # The other cases of a `case a, b(Int), c` list.
    for cases in re.findall(r"\bcase\s+([^\n=:{]*,[^\n=:{]*)", text):
        members.update(re.findall(r"(?:^|,)\s*`?(\w+)", cases))
# Module names are not types, but examples import them.
modules = {path.name for path in root.glob("Packages/*")} | {"Prism", "PrismArchitecture", "PrismNetwork"}

def doc_comment_code(text):
    """The code lines of the ``` blocks in `///` comments."""
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith("///"):
            inside = False
            continue
        body = stripped[3:].strip()
        if body.startswith("```"):
            inside = not inside
            continue
        if inside:
            yield number, body

def article_code(text):
    for match in re.finditer(r"```swift\n(.*?)```", text, re.S):
        first = text[: match.start()].count("\n") + 2
        for offset, line in enumerate(match.group(1).splitlines()):
            yield first + offset, line

def check(place, line):
    for name in NAME.findall(line):
        if name not in declared and name not in modules:
            problems.append(f"{place}: {name}")
    for name, member in MEMBER.findall(line):
        if name in declared and member not in members:
            problems.append(f"{place}: {name}.{member}")


problems = []
for path in sources:
    for number, line in doc_comment_code(path.read_text()):
        check(f"{path.relative_to(root)}:{number}", line)
for path in [*root.glob("Packages/*/Sources/*/*.docc/*.md"), root / "README.md"]:
    for number, line in article_code(path.read_text()):
        check(f"{path.relative_to(root)}:{number}", line)
if problems:
    print("check-doc-symbols: documentation examples name Prism symbols that no source declares:")
    for problem in problems:
        print(f"  {problem}")
    sys.exit(1)
print(f"check-doc-symbols: every Prism name in the documentation's examples is declared ({len(declared)} declarations).")
