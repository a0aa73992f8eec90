#!/usr/bin/env python3
"""Writes the symbol graph of a package's snippets, for `docc convert`.

The articles show code from the Swift files under Snippets/ (which `swift build` compiles as
executables, so the code cannot rot) with `@Snippet(path: "Prism/Snippets/<Name>", slice: ...)`.
DocC finds a snippet in a symbol graph of kind `snippet`; the swift-docc-plugin makes that graph
with its `snippet-extract` tool, which is not part of the toolchain. This script does what
snippet-extract 1.5.0 does, with the same rules, so that `make docs` needs nothing beyond the
toolchain and Python:

  - the comment lines at the top of a file (up to the first blank or code line) are the snippet's
    explanation, shown above its code when the whole snippet is shown;
  - `// snippet.hide` and `// snippet.show` hide and show the lines between them (imports, setup);
  - `// snippet.NAME` starts the slice NAME and `// snippet.end` ends it: an article shows one slice
    with `@Snippet(path: ..., slice: "NAME")`. As in snippet-extract, a NAME that starts with
    `show`, `hide` or `end` is read as that marker (`snippet.endpoint` ends the slice);
  - the shown code loses the indentation its lines all share.

Usage: Tools/scripts/snippet-symbols.py --module-name NAME --output FILE SNIPPET.swift...
"""

import argparse
import json
import pathlib
import re
import sys

MARKER = re.compile(r"^\s*//\s*snippet\.(\S+)", re.IGNORECASE)


def is_blank(line: str) -> bool:
    return line.strip() == ""


def marker(line: str):
    """Returns ("show"|"hide"|"end"|"slice", name) for a snippet marker line, else None."""
    match = MARKER.match(line)
    if not match:
        return None
    word = match.group(1)
    for command in ("show", "hide", "end"):
        if word.lower().startswith(command):
            return (command, None)
    if not re.fullmatch(r"[A-Za-z0-9._~!$&'()*+,;=:@/-]+", word):
        return None
    return ("slice", word)


def parse(source: str):
    lines = source.split("\n")
    while lines and is_blank(lines[0]):
        lines.pop(0)

    # The explanation: the leading `//` comment lines that are not markers.
    explanation = []
    for line in lines:
        if is_blank(line) or marker(line) is not None or not line.lstrip().startswith("//"):
            break
        explanation.append(line.lstrip()[2:])
    lines = lines[len(explanation):]
    while explanation and is_blank(explanation[-1]):
        explanation.pop()
    while explanation and is_blank(explanation[0]):
        explanation.pop(0)
    if explanation:
        first = next(line for line in explanation if not is_blank(line))
        indent = len(first) - len(first.lstrip())
        explanation = [line[min(indent, len(line) - len(line.lstrip())):] for line in explanation]

    presentation = []
    slices = {}
    current = None
    visible = True

    def end_slice():
        nonlocal current
        if current is not None and current[1] < len(presentation):
            slices[current[0]] = [current[1], len(presentation)]
        current = None

    for line in lines:
        found = marker(line)
        if found is None:
            if visible and not (not presentation and is_blank(line)):
                presentation.append(line)
            continue
        command, name = found
        if command == "show":
            visible = True
        elif command == "hide":
            visible = False
        elif command == "end":
            end_slice()
        elif visible:
            end_slice()
            current = (name, len(presentation))
    end_slice()

    for name, (lower, upper) in slices.items():
        while lower < upper and is_blank(presentation[lower]):
            lower += 1
        while lower < upper and is_blank(presentation[upper - 1]):
            upper -= 1
        slices[name] = [lower, upper]

    # Remove the indentation every line shares (snippet-extract measures it on the shown lines).
    indents = [len(line) - len(line.lstrip(" ")) for line in presentation if line != ""]
    shared = min(indents) if indents else 0
    if shared > 0:
        presentation = [line[shared:] for line in presentation]
    while presentation and is_blank(presentation[-1]):
        presentation.pop()
    return "\n".join(explanation), presentation, slices


def symbol(path: pathlib.Path, module: str) -> dict:
    explanation, lines, slices = parse(path.read_text(encoding="utf-8"))
    parts = list(path.resolve().with_suffix("").parts)
    if "Snippets" not in parts:
        sys.exit(f"error: {path} is not inside a folder named Snippets")
    components = ["Snippets"] + parts[parts.index("Snippets") + 1 :]
    mixin = {"language": "swift", "lines": lines}
    if slices:
        mixin["slices"] = slices
    return {
        "identifier": {"precise": f"$snippet__{module}.{path.stem}", "interfaceLanguage": "swift"},
        "names": {"title": path.stem},
        "pathComponents": components,
        "docComment": {"lines": [{"text": line} for line in explanation.split("\n")]},
        "accessLevel": "public",
        "kind": {"identifier": "snippet", "displayName": "Snippet"},
        "snippet": mixin,
        "isVirtual": True,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--module-name", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    graph = {
        "metadata": {"formatVersion": {"major": 0, "minor": 1, "patch": 0}, "generator": "snippet-symbols.py"},
        "module": {"name": arguments.module_name, "platform": {}, "isVirtual": True},
        "symbols": [symbol(pathlib.Path(file), arguments.module_name) for file in sorted(arguments.files)],
        "relationships": [],
    }
    output = pathlib.Path(arguments.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(graph, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
