#!/usr/bin/env python3
"""Prints the ```swift (or ```graphql) block of a Markdown page that follows the marker
`<!-- built by test-consumer.sh: NAME -->`, for Tools/scripts/test-consumer.sh to build.

Code that Snippets/ cannot compile (a package manifest, code that needs swift-case-paths'
macro, a GraphQL schema and operation the code generator reads) is marked so in the page; test-consumer.sh builds it in a consumer package, and
check-doc-code.py accepts a marked block only if test-consumer.sh asks for it by name.

Usage: Tools/scripts/doc-code-block.py PAGE.md NAME
"""
import pathlib
import re
import sys

MARKER = r"<!-- built by test-consumer\.sh: ([\w-]+) -->\n+```(?:swift|graphql)\n(.*?)```"


def marked_blocks(text: str) -> dict:
    return {match.group(1): match.group(2) for match in re.finditer(MARKER, text, re.S)}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    page, name = pathlib.Path(sys.argv[1]), sys.argv[2]
    blocks = marked_blocks(page.read_text())
    if name not in blocks:
        sys.exit(f"doc-code-block: {page} has no block marked `<!-- built by test-consumer.sh: {name} -->`")
    sys.stdout.write(blocks[name])
