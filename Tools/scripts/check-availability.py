#!/usr/bin/env python3
"""Checks, on Linux, that Prism's code would compile for its oldest Apple platforms.

The package deploys to macOS 14, iOS 17, tvOS 17, watchOS 10 and visionOS 1 (Package.swift), and
Linux never checks API availability: a call to a standard library API that is newer (say
`String(validating:as:)`, macOS 15) builds here and breaks every Mac. The toolchain's own
`.swiftinterface` files (Swift, _Concurrency, Observation, Synchronization, _StringProcessing,
RegexBuilder, Distributed) keep Apple's `@available` attributes, even on Linux. This script lists
every declaration there that is newer than the package's minimums, then reads every Swift file of
the repository (sources, tests, tools, the sample app, snippets) and fails on a use of one that
is not inside an `if #available(...)` / `guard #available(...)` block or a declaration marked
`@available(...)` for at least that version, nor in a branch that never compiles for an Apple
platform (`#if !canImport(Darwin)`, `#if os(Linux)`, the `#else` of `#if canImport(Darwin)`).

A use is found by name: a type (`Mutex`), an initializer by its argument labels
(`String(validating:as:)`), a function or method by its name and labels (`.firstRange(of:)`).
Foundation is not checked (its Linux module carries no Apple availability).

Usage: Tools/scripts/check-availability.py [ROOT]
"""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
MINIMUMS = {"macOS": (14, 0), "iOS": (17, 0), "tvOS": (17, 0), "watchOS": (10, 0), "visionOS": (1, 0)}
MODULES = ["Swift", "_Concurrency", "Observation", "Synchronization", "_StringProcessing", "RegexBuilder", "Distributed"]
AVAILABLE = re.compile(r"@available\(([^)]*)\)")
PLATFORM = re.compile(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+)(?:\.(\d+))?")


def toolchain_lib() -> pathlib.Path:
    swiftc = subprocess.run(["which", "swiftc"], capture_output=True, text=True).stdout.strip()
    return pathlib.Path(swiftc).resolve().parent.parent / "lib" / "swift" / "linux"


def newer(attribute: str):
    """The platforms of an @available argument list that are newer than the package's minimums."""
    found = {}
    for platform, major, minor in PLATFORM.findall(attribute):
        version = (int(major), int(minor or 0))
        if version > MINIMUMS[platform]:
            found[platform] = version
    return found


def strip_code(text: str) -> str:
    """Text with string literals and comments blanked, line structure kept."""
    text = re.sub(r'"""(?:.|\n)*?"""', lambda m: "S" + re.sub(r"[^\n]", " ", m.group(0)[1:]), text)
    # A string literal becomes `S` and spaces: still an argument, never code.
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', lambda m: "S" + " " * (len(m.group(0)) - 1), text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return re.sub(r"//[^\n]*", "", text)


def labels(parameters: str) -> tuple:
    result, depth, current = [], 0, ""
    for character in parameters + ",":
        if character in "([<{":
            depth += 1
        elif character in ")]>}":
            depth -= 1
        if character == "," and depth == 0:
            words = current.split(":")[0].split()
            if words:
                # A parameter with a default value may be left out of a call: marked with "=".
                result.append(words[0] + ("=" if "=" in current.split(":", 1)[-1] else ""))
            current = ""
        else:
            current += character
    return tuple(result)


DECLARATION = re.compile(
    r"\b(?:(func)\s+`?([A-Za-z_]\w*)`?\s*(?:<[^(]*>)?\s*\(|(init)[?!]?\s*(?:<[^(]*>)?\s*\(|"
    r"(?:struct|class|enum|actor|protocol|typealias)\s+(\w+)|(?:var|let)\s+`?(\w+)`?)"
)


def matching(text: str, start: int, opening: str = "(", closing: str = ")") -> int:
    """The index of the bracket that closes the one at `start` (the end of `text` if none)."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index
    return len(text)


def balanced(text: str, start: int) -> int:
    return matching(text, start)


def newer_declarations():
    """{key: (platforms, where)}; keys are ("type", Name), ("init", Type, labels), ("func", name, labels)."""
    found, older = {}, set()
    lib = toolchain_lib()
    for module in MODULES:
        interfaces = [p for p in (lib / f"{module}.swiftmodule").glob("*.swiftinterface") if "private" not in p.name]
        if not interfaces:
            continue
        text = strip_code(interfaces[0].read_text())
        # A stack of (depth, platforms, type name) for the types and extensions being read.
        stack, depth, pending, position = [], 0, {}, 0
        for line in text.split("\n"):
            stripped = line.strip()
            attributes = AVAILABLE.findall(stripped)
            declared = {}
            for attribute in attributes:
                declared.update(newer(attribute))
            code = AVAILABLE.sub("", stripped).strip()
            if not code or code.startswith("@") and not re.search(
                r"\b(func|init|struct|class|enum|actor|extension|var|let|typealias|protocol)\b", code
            ):
                pending.update(declared)
                depth += line.count("{") - line.count("}")
                while stack and stack[-1][0] >= depth:
                    stack.pop()
                continue
            declared = {**pending, **declared}
            pending = {}
            inherited = {}
            for _, platforms, _ in stack:
                inherited.update(platforms)
            platforms = {**inherited, **declared}
            context = next((name for _, _, name in reversed(stack) if name), None)
            match = DECLARATION.search(code)
            extension = re.match(r"(?:[\w\s]*\s)?extension\s+(?:\w+\.)?(\w+)", code)
            key = None
            # Only members of a type or an extension, never a line of an inlinable body.
            in_scope = depth == (stack[-1][0] + 1 if stack else 0)
            if match and not extension and in_scope:
                if match.group(1):
                    parameters = code[match.end() - 1 : balanced(code, match.end() - 1) + 1][1:-1]
                    key = ("func", match.group(2), labels(parameters))
                elif match.group(3) and context:
                    parameters = code[match.end() - 1 : balanced(code, match.end() - 1) + 1][1:-1]
                    key = ("init", context, labels(parameters))
                elif match.group(4) and depth == 0:
                    key = ("type", match.group(4))
            if key is not None:
                # A name is flagged only when every declaration of it is newer: an overload for
                # new types (`encode(_: Int128, forKey:)`) leaves the older ones usable.
                if not platforms:
                    older.add(key)
                elif key not in found or len(platforms) and min(platforms.values()) < min(found[key][0].values()):
                    found[key] = (platforms, module)
            opened = line.count("{") - line.count("}")
            if opened > 0 and in_scope and not re.search(r"\b(func|init|var|let|subscript)\b", code.split("{")[0]):
                name = None
                if extension:
                    name = extension.group(1)
                elif match and match.group(4):
                    name = match.group(4)
                stack.append((depth, declared if (extension or (match and match.group(4))) else {}, name))
            depth += opened
            while stack and stack[-1][0] >= depth:
                stack.pop()
            position += 1
    return {key: value for key, value in found.items() if key not in older}


def sources():
    for pattern in ("Packages/*/Sources", "Packages/*/Tests", "Sources", "Tests", "Tools", "Apps", "Snippets"):
        for directory in root.glob(pattern):
            for path in directory.rglob("*.swift"):
                if ".build" not in path.parts and "checkouts" not in path.parts:
                    yield path


def guarded_ranges(text: str):
    """(start, end, platforms) of the blocks under `#available` or an `@available` declaration."""
    ranges = []
    for match in re.finditer(r"(?:if|guard|while)\s+#available\(([^)]*)\)|@available\(([^)]*)\)", text):
        attribute = match.group(1) or match.group(2)
        platforms = {p: (int(a), int(b or 0)) for p, a, b in PLATFORM.findall(attribute)}
        if match.group(0).startswith("guard"):
            # The rest of the enclosing scope.
            ranges.append((match.start(), enclosing_end(text, match.start()), platforms))
            continue
        brace = text.find("{", match.end())
        if brace < 0:
            continue
        ranges.append((match.start(), block_end(text, brace), platforms))
    return ranges


APPLE_EXCLUDED = re.compile(r"^\s*!\s*canImport\(Darwin\)\s*$|^\s*os\(Linux\)\s*$")
APPLE_ONLY = re.compile(r"^\s*canImport\(Darwin\)\s*$")


def non_apple_ranges(text: str):
    """(start, end, platforms) of the code that never compiles for an Apple platform: the
    branches of `#if !canImport(Darwin)` and `#if os(Linux)`, and the `#else` of
    `#if canImport(Darwin)` (each up to its `#else`, `#elseif` or `#endif`)."""
    ranges = []
    stack = []  # per open #if: [start of the excluded branch or None, whether the #if was Apple-only]
    position = 0
    for line in text.splitlines(keepends=True):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            if kind in ("elseif", "else", "endif") and stack and stack[-1][0] is not None:
                ranges.append((stack[-1][0], position, {p: (99, 0) for p in MINIMUMS}))
                stack[-1][0] = None
            if kind == "if":
                stack.append([position if APPLE_EXCLUDED.match(condition) else None, bool(APPLE_ONLY.match(condition))])
            elif kind == "elseif" and stack:
                stack[-1] = [position if APPLE_EXCLUDED.match(condition) else None, False]
            elif kind == "else" and stack:
                stack[-1] = [position if stack[-1][1] else None, False]
            elif kind == "endif" and stack:
                stack.pop()
        position += len(line)
    return ranges


def block_end(text: str, brace: int) -> int:
    return matching(text, brace, "{", "}")


def enclosing_end(text: str, position: int) -> int:
    depth = 0
    for index in range(position, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            if depth == 0:
                return index
            depth -= 1
    return len(text)


def covered(platforms_needed: dict, guards: list, position: int) -> bool:
    for start, end, platforms in guards:
        if start <= position <= end and all(
            platforms.get(platform, (99, 0)) >= version for platform, version in platforms_needed.items()
        ):
            return True
    return False


def main():
    declarations = newer_declarations()
    types = {key[1]: value for key, value in declarations.items() if key[0] == "type"}
    inits = {(key[1], key[2]): value for key, value in declarations.items() if key[0] == "init"}
    functions = {(key[1], key[2]): value for key, value in declarations.items() if key[0] == "func"}
    function_names = {name for name, _ in functions}
    declared_here = set()
    for path in sources():
        declared_here.update(re.findall(r"\b(?:struct|class|enum|actor|protocol|typealias)\s+(\w+)", path.read_text()))
    problems = []
    for path in sources():
        text = strip_code(path.read_text())
        guards = guarded_ranges(text) + non_apple_ranges(text)

        def report(position, what, platforms):
            if covered(platforms, guards, position):
                return
            line = text[:position].count("\n") + 1
            needs = ", ".join(f"{p} {v[0]}.{v[1]}" for p, v in sorted(platforms.items()))
            problems.append(f"{path.relative_to(root)}:{line}: {what} needs {needs}")

        for match in re.finditer(r"\b([A-Z]\w*)\b", text):
            name = match.group(1)
            if name in types and name not in declared_here:
                if re.match(r"\s*[:(]", text[match.end() :]) and text[: match.start()].rstrip().endswith(("struct", "enum", "class")):
                    continue
                report(match.start(), name, types[name][0])
        for match in re.finditer(r"(?<![\w.])(?:Swift\.)?([A-Z]\w*)\s*\(", text):
            end = balanced(text, match.end() - 1)
            arguments = text[match.end() : end]
            call = (match.group(1), tuple(l if l else "_" for l in call_labels(arguments)))
            trailing = is_trailing_closure(text, match.start(), end)
            for (type_name, parameter_labels), (platforms, _) in inits.items():
                if type_name == call[0] and fits(call[1], parameter_labels, trailing):
                    report(match.start(), f"{type_name}.init({''.join(l.rstrip('=') + ':' for l in parameter_labels)})", platforms)
                    break
        for match in re.finditer(r"\.([a-z]\w*)\s*\(", text):
            if match.group(1) not in function_names:
                continue
            end = balanced(text, match.end() - 1)
            arguments = text[match.end() : end]
            call = tuple(l if l else "_" for l in call_labels(arguments))
            trailing = is_trailing_closure(text, match.start(), end)
            for (name, parameter_labels), (platforms, _) in functions.items():
                if name == match.group(1) and fits(call, parameter_labels, trailing):
                    report(match.start(), f"{name}({''.join(l.rstrip('=') + ':' for l in parameter_labels)})", platforms)
                    break
    if problems:
        print("check-availability: these uses need a newer Apple platform than Package.swift deploys to;")
        print("wrap them in `if #available(...)` or mark their declaration `@available(...)`:")
        for problem in sorted(set(problems)):
            print(f"  {problem}")
        sys.exit(1)
    print(
        f"check-availability: no use of the {len(declarations)} standard library declarations newer than"
        " macOS 14, iOS 17, tvOS 17, watchOS 10 and visionOS 1 outside an availability check."
    )


def call_labels(arguments: str):
    result, depth, current = [], 0, ""
    for character in arguments + ",":
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        if character == "," and depth == 0:
            label = re.match(r"\s*(\w+)\s*:(?!:)", current)
            if current.strip():
                result.append(label.group(1) if label else "")
            current = ""
        else:
            current += character
    return result


def is_trailing_closure(text: str, start: int, end: int) -> bool:
    """Whether a `{` right after the call at `start`...`end` is a trailing closure, not the body of
    the `if`, `guard`, `while`, `for` or `switch` whose condition the call is in."""
    if not text[end + 1 :].lstrip(" ").startswith("{"):
        return False
    line = text[text.rfind("\n", 0, start) + 1 : start].lstrip()
    return not re.match(r"(\}\s*else\s+)?(if|guard|while|for|switch)\b", line)


def fits(call: tuple, parameters: tuple, trailing: bool = False) -> bool:
    """A call's labels match a declaration's when they are its labels in order, defaults skipped
    (and, with a trailing closure, the closure parameter last)."""
    index = 0
    for label in call:
        while index < len(parameters) and parameters[index].rstrip("=") != label:
            if not parameters[index].endswith("="):
                return False
            index += 1
        if index == len(parameters):
            return False
        index += 1
    rest = [parameter for parameter in parameters[index:] if not parameter.endswith("=")]
    return not rest or (trailing and len(rest) == 1)


if __name__ == "__main__":
    main()
