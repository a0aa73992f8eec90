#!/usr/bin/env python3
"""Checks that every Swift code block of the documentation is code that CI compiles.

Reads the ```swift blocks of README.md, Packages/*/README.md and every DocC article (*.docc/*.md
of Sources/, Packages/ and Tools/). Each block must be one of:

  - in a compiled Swift file, verbatim: its lines (indentation aside) appear in that order, one
    after another, in a file under Snippets/ (which `swift build` compiles), Tests/,
    Packages/*/Tests/ or Apps/. An article shows such code with `@Snippet(path:slice:)`, so a
    block here is mostly a README's, which GitHub shows without DocC;
  - marked `<!-- built by test-consumer.sh: NAME -->` right above it, where NAME is a block that
    Tools/scripts/test-consumer.sh builds (with doc-code-block.py): a package manifest, or code
    that needs swift-case-paths' macro.

A block that is neither fails `make lint`, naming the page and line.

Usage: Tools/scripts/check-doc-code.py [ROOT]
"""
import importlib.util
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
spec = importlib.util.spec_from_file_location("doc_code_block", root / "Tools/scripts/doc-code-block.py")
doc_code_block = importlib.util.module_from_spec(spec)
spec.loader.exec_module(doc_code_block)


def normalized(text: str) -> list:
    return [line.strip() for line in text.strip("\n").split("\n")]


compiled = [
    path
    for pattern in ("Snippets/**/*.swift", "Tests/**/*.swift", "Packages/*/Tests/**/*.swift", "Apps/**/*.swift")
    for path in root.glob(pattern)
    if ".build" not in path.parts
]
compiled_lines = [normalized(path.read_text()) for path in compiled]


def contains(haystack: list, needle: list) -> bool:
    first = needle[0]
    for start, line in enumerate(haystack):
        if line == first and haystack[start : start + len(needle)] == needle:
            return True
    return False


consumer_script = (root / "Tools/scripts/test-consumer.sh").read_text()
pages = [
    root / "README.md",
    *sorted(root.glob("Packages/*/README.md")),
    *sorted(root.glob("Sources/*/*.docc/**/*.md")),
    *sorted(root.glob("Packages/*/Sources/*/*.docc/**/*.md")),
    *sorted(root.glob("Tools/*/Sources/*/*.docc/**/*.md")),
]
problems = []
checked = 0
for page in pages:
    text = page.read_text()
    marked = doc_code_block.marked_blocks(text)
    for match in re.finditer(r"```swift\n(.*?)```", text, re.S):
        checked += 1
        line = text[: match.start()].count("\n") + 1
        where = f"{page.relative_to(root)}:{line}"
        name = next((name for name, block in marked.items() if block == match.group(1)), None)
        if name is not None:
            if not re.search(re.escape(f"{page.relative_to(root)} {name}") + r"(?![\w-])", consumer_script):
                problems.append(f"{where}: marked `{name}`, but test-consumer.sh does not build it")
            continue
        block = normalized(match.group(1))
        if not any(contains(lines, block) for lines in compiled_lines):
            problems.append(f"{where}: in no file under Snippets/, Tests/, Packages/*/Tests/ or Apps/")
if problems:
    print("check-doc-code: these Swift code blocks are not compiled by anything:")
    for problem in problems:
        print(f"  {problem}")
    print(
        "Show an article's code with @Snippet(path:slice:) from a file under Snippets/; copy a README's block"
        " into one verbatim (Snippets/ReadmeExamples.swift holds README.md's)."
    )
    sys.exit(1)
print(f"check-doc-code: all {checked} Swift code blocks of the READMEs and articles are compiled code.")
