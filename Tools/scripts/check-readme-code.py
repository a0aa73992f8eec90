#!/usr/bin/env python3
"""Checks that README.md's complete Swift examples compile: each ```swift block of README.md and
of Packages/*/README.md that starts with an `import` must appear, verbatim, in a file under
Snippets/ (which `swift build` compiles). Blocks that do not start with an import are fragments
(a manifest line, one call) and are not checked.

Usage: Tools/scripts/check-readme-code.py [ROOT]
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
snippets = "\n".join(path.read_text() for path in sorted((root / "Snippets").glob("*.swift")))
readmes = [root / "README.md", *sorted(root.glob("Packages/*/README.md"))]
missing = []
checked = 0
for readme in readmes:
    text = readme.read_text()
    for match in re.finditer(r"```swift\n(.*?)```", text, re.S):
        block = match.group(1)
        if not block.lstrip().startswith("import "):
            continue
        checked += 1
        if block.strip() not in snippets:
            line = text[: match.start()].count("\n") + 1
            missing.append(f"{readme.relative_to(root)}:{line}")
if missing:
    print("check-readme-code: these README examples are not in Snippets/ verbatim, so nothing compiles them:")
    for place in missing:
        print(f"  {place}")
    print("Copy each block into a file under Snippets/ (Snippets/ReadmeExamples.swift holds README.md's).")
    sys.exit(1)
print(f"check-readme-code: {checked} complete README examples are in Snippets/ and compile with it.")
