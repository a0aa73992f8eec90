"""Which Apple platforms, at which versions, a point of a Swift file compiles for.

Shared by check-availability.py and check-portability.py, which run on Linux and catch what would
break an Apple build. Given a Swift file's text, `SwiftFile` answers, for any offset in it:

- on which platforms the code there compiles: the `#if` / `#elseif` / `#else` branches around it,
  each condition evaluated for macOS, iOS, tvOS, watchOS, visionOS and Linux in three values
  (true, false, unknown: a custom flag, `arch(...)`, a package's `canImport`). `#if os(Linux) ||
  os(macOS)` compiles on macOS; `#if canImport(Glibc)` on no Apple platform;
- at which version of each Apple platform it runs: the package's minimum (Package.swift), raised
  by the enclosing `if #available(...)` / `guard #available(...)` / `while #available(...)`,
  the `else` of an `if #unavailable(...)`, and the `@available(...)` declarations around it. A
  condition raises only the platforms it names: `if #available(macOS 15, *)` leaves iOS at 17
  (`*` means "the others at their minimum"). An `@available` declaration's iOS version applies to
  visionOS when it names none for it (iOS 18 is visionOS 2), as the compiler has it; an
  `#available(iOS ...)` condition does not (the compiler checks it at run time, where visionOS
  is not iOS). `@available(*, deprecated)` and
  `@available(iOS, unavailable)` raise nothing.

It works on the text, with comments and the contents of string literals blanked (`code`, the
same length and lines as the file; an interpolation `\\(...)` stays code) and the literals kept
apart (`strings`). It is no parser: it matches brackets and knows where a declaration's body is.
"""
import bisect
import pathlib
import re

APPLE = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
PLATFORMS = APPLE + ("Linux",)
ALIASES = {"OSX": "macOS", "macOS": "macOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
           "visionOS": "visionOS", "xrOS": "visionOS", "Linux": "Linux"}
# The folders of the repository whose Swift files the checks read.
SOURCE_FOLDERS = ("Packages/*/Sources", "Packages/*/Tests", "Sources", "Tests", "Tools", "Apps", "Snippets")


def minimums(root: pathlib.Path) -> dict:
    """The deployment minimums of the root Package.swift's `platforms:` ({"macOS": (14, 0), ...})."""
    manifest = (root / "Package.swift").read_text()
    found = {}
    for name, version in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+(?:_\d+)?)\)", manifest):
        parts = [int(part) for part in version.split("_")]
        found[name] = (parts[0], parts[1] if len(parts) > 1 else 0)
    missing = [platform for platform in APPLE if platform not in found]
    if missing:
        raise SystemExit(f"{root / 'Package.swift'}: no `platforms:` minimum for {', '.join(missing)}")
    return found


def sources(root: pathlib.Path, exclude=()):
    """Every Swift file of the repository's sources, tests, tools, sample app and snippets."""
    excluded = [root / path for path in exclude]
    for pattern in SOURCE_FOLDERS:
        for directory in sorted(root.glob(pattern)):
            for path in sorted(directory.rglob("*.swift")):
                if any(part.startswith(".build") or part == "checkouts" for part in path.parts):
                    continue
                if any(path.is_relative_to(folder) for folder in excluded):
                    continue
                yield path


def vision_from_ios(version):
    """The visionOS version the compiler infers from an iOS one: iOS 17 is visionOS 1, iOS 18
    visionOS 2, iOS 26 visionOS 26 (the minor version carried over approximately)."""
    major, minor = version
    if major < 17:
        return (1, 0)
    if major == 17:
        return (1, max(0, minor - 3))
    if major < 26:
        return (major - 16, minor)
    return version


def parse_version(text: str):
    parts = [int(part) for part in text.split(".") if part.isdigit()]
    return (parts[0], parts[1] if len(parts) > 1 else 0) if parts else None


# --- Lexing -----------------------------------------------------------------------------------


def mask(text: str):
    """(code, strings): the text with comments and string contents blanked (newlines kept,
    interpolations kept as code), and each string literal as (start, end, [segments]), its
    segments being the literal text between interpolations."""
    out = list(text)
    strings = []
    length = len(text)

    def blank(start, end):
        for index in range(start, end):
            if out[index] != "\n":
                out[index] = " "

    def code(index, closing=None):
        """Reads code from `index`; with `closing` (")"), up to the parenthesis that closes an
        interpolation. Returns the index after what it read."""
        depth = 0
        while index < length:
            character = text[index]
            if character == "/" and text.startswith("//", index):
                end = text.find("\n", index)
                end = length if end < 0 else end
                blank(index, end)
                index = end
            elif character == "/" and text.startswith("/*", index):
                nesting, end = 0, index
                while end < length:
                    if text.startswith("/*", end):
                        nesting, end = nesting + 1, end + 2
                    elif text.startswith("*/", end):
                        nesting, end = nesting - 1, end + 2
                        if nesting == 0:
                            break
                    else:
                        end += 1
                blank(index, end)
                index = end
            elif character == '"' or (character == "#" and re.match(r"#+\"", text[index:index + 8])):
                index = string(index)
            elif character == "#" and re.match(r"#+/", text[index:index + 8]):
                hashes = len(re.match(r"#+", text[index:]).group(0))
                end = text.find("/" + "#" * hashes, index + hashes + 1)
                end = length if end < 0 else end + 1 + hashes
                blank(index + hashes + 1, end - hashes - 1)
                index = end
            elif closing and character == "(":
                depth += 1
                index += 1
            elif closing and character == ")":
                if depth == 0:
                    return index + 1
                depth -= 1
                index += 1
            else:
                index += 1
        return index

    def string(start):
        hashes = len(re.match(r"#*", text[start:]).group(0))
        index = start + hashes
        multiline = text.startswith('"""', index)
        quote = '"""' if multiline else '"'
        index += len(quote)
        close = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        segments, segment_start = [], index
        while index < length:
            if text.startswith(escape + "(", index):
                segments.append(text[segment_start:index])
                blank(segment_start, index)
                index = code(index + len(escape) + 1, ")")
                segment_start = index
            elif text.startswith(escape, index) and hashes == 0 and index + 1 < length:
                index += 2
            elif text.startswith(close, index):
                segments.append(text[segment_start:index])
                blank(segment_start, index)
                index += len(close)
                strings.append((start, index, segments))
                return index
            elif text[index] == "\n" and not multiline:
                break
            else:
                index += 1
        segments.append(text[segment_start:index])
        blank(segment_start, index)
        strings.append((start, index, segments))
        return index

    code(0)
    return "".join(out), strings


def matching(code: str, start: int) -> int:
    """The index of the bracket that closes the one at `start` (the end of `code` if none)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for index in range(start, len(code)):
        character = code[index]
        if character in pairs:
            stack.append(pairs[character])
        elif character in ")]}":
            if stack and stack[-1] == character:
                stack.pop()
                if not stack:
                    return index
            elif not stack:
                return index
    return len(code)


def enclosing_end(code: str, position: int) -> int:
    """The index of the `}` that closes the block `position` is in (the end of the file at top level)."""
    depth = 0
    for index in range(position, len(code)):
        if code[index] in "({[":
            depth += 1
        elif code[index] in ")}]":
            if depth == 0:
                return index
            depth -= 1
    return len(code)


# --- #if conditions ---------------------------------------------------------------------------

# What `canImport(X)` is on every Apple platform (True) or none (False); any other module is
# unknown there (a package's module, FoundationEssentials).
APPLE_MODULES = {
    "Darwin", "SwiftUI", "Security", "Network", "CryptoKit", "os", "OSLog", "Combine", "ObjectiveC",
    "CoreFoundation", "Foundation", "Dispatch", "Observation", "Synchronization", "XCTest", "Testing",
    "CoreGraphics", "QuartzCore", "CFNetwork", "SystemConfiguration", "Accelerate", "UniformTypeIdentifiers",
}
NOT_APPLE_MODULES = {"Glibc", "Musl", "Bionic", "Android", "WinSDK", "WASILibc", "CRT", "FoundationNetworking",
                     "FoundationXML", "ucrt", "visualc", "SwiftGlibc"}
MODULES_BY_PLATFORM = {
    "AppKit": {"macOS"},
    "UIKit": {"iOS", "tvOS", "watchOS", "visionOS"},
    "WatchKit": {"watchOS"},
    "RealityKit": {"macOS", "iOS", "visionOS"},
}


class Condition:
    """Evaluates an `#if` condition for each platform: True, False or None (unknown)."""

    TOKEN = re.compile(r"\s*(?:(&&|\|\||!|\(|\))|([A-Za-z_]\w*)\s*(\((?:[^()]|\([^()]*\))*\))?)")

    def __init__(self, linux_modules=None, linux_flags=None):
        # The modules `canImport` finds on Linux, and the flags (`-D`) Linux's build defines
        # (None: unknown beyond the toolchain's guesses).
        self.linux_modules, self.linux_flags = linux_modules, linux_flags

    def evaluate(self, condition: str) -> dict:
        tokens, position = [], 0
        condition = condition.strip()
        while position < len(condition):
            match = self.TOKEN.match(condition, position)
            if not match or match.end() == position:
                return {platform: None for platform in PLATFORMS}
            tokens.append(match.group(1) or (match.group(2), match.group(3)))
            position = match.end()
        self.tokens, self.index = tokens, 0
        try:
            result = self.disjunction()
        except (IndexError, ValueError):
            return {platform: None for platform in PLATFORMS}
        if self.index != len(self.tokens):
            return {platform: None for platform in PLATFORMS}
        return result

    def disjunction(self):
        left = self.conjunction()
        while self.index < len(self.tokens) and self.tokens[self.index] == "||":
            self.index += 1
            right = self.conjunction()
            left = {p: True if left[p] or right[p] else (None if left[p] is None or right[p] is None else False)
                    for p in PLATFORMS}
        return left

    def conjunction(self):
        left = self.unary()
        while self.index < len(self.tokens) and self.tokens[self.index] == "&&":
            self.index += 1
            right = self.unary()
            left = {p: False if left[p] is False or right[p] is False else (None if left[p] is None or right[p] is None else True)
                    for p in PLATFORMS}
        return left

    def unary(self):
        token = self.tokens[self.index]
        self.index += 1
        if token == "!":
            value = self.unary()
            return {p: None if value[p] is None else not value[p] for p in PLATFORMS}
        if token == "(":
            value = self.disjunction()
            if self.tokens[self.index] != ")":
                raise ValueError
            self.index += 1
            return value
        if isinstance(token, tuple):
            return self.atom(token[0], (token[1] or "")[1:-1].strip())
        raise ValueError

    def atom(self, name: str, argument: str) -> dict:
        every = lambda value: {p: value for p in PLATFORMS}  # noqa: E731
        if name in ("true", "false") and not argument:
            return every(name == "true")
        if name == "os":
            platform = ALIASES.get(argument)
            return {p: p == platform for p in PLATFORMS}
        if name == "canImport":
            module = argument.split(",")[0].strip()
            result = {}
            for platform in APPLE:
                if module in APPLE_MODULES:
                    result[platform] = True
                elif module in NOT_APPLE_MODULES:
                    result[platform] = False
                elif module in MODULES_BY_PLATFORM:
                    result[platform] = platform in MODULES_BY_PLATFORM[module]
                else:
                    result[platform] = None
            if self.linux_modules is not None:
                result["Linux"] = module in self.linux_modules
            elif module in ("Glibc", "SwiftGlibc", "Foundation", "FoundationEssentials", "FoundationNetworking",
                            "FoundationXML", "Dispatch", "Observation", "Synchronization", "XCTest", "Testing"):
                result["Linux"] = True
            elif module in APPLE_MODULES or module in MODULES_BY_PLATFORM or module in NOT_APPLE_MODULES:
                result["Linux"] = False
            else:
                result["Linux"] = None
            return result
        if name in ("compiler", "swift"):
            match = re.match(r"(>=|<)\s*([\d.]+)", argument)
            if not match:
                return every(None)
            # Prism builds with Swift 6.3 and later everywhere.
            version = tuple(int(part) for part in match.group(2).split("."))
            if version <= (6, 3):
                return every(match.group(1) == ">=")
            return every(None)
        if name == "_runtime":
            return {p: (argument == "_ObjC") == (p in APPLE) for p in PLATFORMS}
        if name == "_endian":
            return every(argument == "little")
        if name == "targetEnvironment":
            return {p: False if p == "Linux" else None for p in PLATFORMS}
        if not argument and self.linux_flags is not None:
            # A flag (DEBUG, a package's trait): unknown on an Apple platform, known for the build read.
            return {p: (name in self.linux_flags) if p == "Linux" else None for p in PLATFORMS}
        # arch(...), hasFeature(...), _pointerBitWidth(...), a flag, ...
        return every(None)


def branches(code: str, linux_modules=None, linux_flags=None):
    """[(start, end, compiled)]: every stretch of the file with the platforms it compiles on
    ({platform: True, False or None}), from its `#if` structure."""
    evaluator = Condition(linux_modules, linux_flags)
    result = []
    stack = []  # per open #if: [compiled outside it, the conditions so far (ORed), this branch]
    always = {p: True for p in PLATFORMS}
    current, start, position = dict(always), 0, 0

    def both(a, b):
        return {p: False if a[p] is False or b[p] is False else (None if a[p] is None or b[p] is None else True)
                for p in PLATFORMS}

    def either(a, b):
        return {p: True if a[p] or b[p] else (None if a[p] is None or b[p] is None else False) for p in PLATFORMS}

    def negate(a):
        return {p: None if a[p] is None else not a[p] for p in PLATFORMS}

    for line in code.splitlines(keepends=True):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            result.append((start, position, current))
            if kind == "if":
                value = evaluator.evaluate(condition)
                stack.append([current, value])
                current = both(current, value)
            elif kind == "elseif" and stack:
                outer, taken = stack[-1]
                value = evaluator.evaluate(condition)
                current = both(outer, both(negate(taken), value))
                stack[-1][1] = either(taken, value)
            elif kind == "else" and stack:
                outer, taken = stack[-1]
                current = both(outer, negate(taken))
            elif kind == "endif" and stack:
                current = stack.pop()[0]
            start = position + len(line)
        position += len(line)
    result.append((start, position, current))
    return result


# --- Availability -----------------------------------------------------------------------------

DECLARATION_KEYWORDS = {
    "func", "init", "deinit", "subscript", "var", "let", "struct", "class", "enum", "actor", "protocol",
    "extension", "typealias", "case", "macro", "associatedtype", "import", "operator", "precedencegroup",
}
WITH_BODY = {"func", "init", "deinit", "subscript", "struct", "class", "enum", "actor", "protocol", "extension", "macro"}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "static", "final", "override",
    "mutating", "nonmutating", "nonisolated", "lazy", "weak", "unowned", "required", "convenience", "dynamic",
    "indirect", "prefix", "postfix", "infix", "consuming", "borrowing", "distributed", "optional", "isolated",
}
DECLARATION_START = re.compile(
    r"\s*(?:@|#|\}|(?:" + "|".join(sorted(DECLARATION_KEYWORDS | MODIFIERS)) + r")\b)"
)


class Requirement:
    """What a declaration or a context asks of each Apple platform: a version
    ({"macOS": (15, 0)}) and the platforms it is unavailable on."""

    def __init__(self, versions=None, unavailable=(), inherit=True):
        self.versions = dict(versions or {})
        self.unavailable = set(unavailable)
        # A declaration's iOS availability applies to visionOS when it names none for it; an
        # `#available(iOS 18, *)` condition, a runtime query, says nothing of visionOS
        # (swift's isPlatformActive: iOS is active on visionOS except for runtime queries).
        if inherit and "visionOS" not in self.versions:
            if "iOS" in self.versions:
                self.versions["visionOS"] = vision_from_ios(self.versions["iOS"])
            if "iOS" in self.unavailable:
                self.unavailable.add("visionOS")

    def __bool__(self):
        return bool(self.versions or self.unavailable)

    def describe(self, platforms=None) -> str:
        parts = []
        for platform in APPLE:
            if platforms is not None and platform not in platforms:
                continue
            if platform in self.unavailable:
                parts.append(f"unavailable on {platform}")
            elif platform in self.versions:
                major, minor = self.versions[platform]
                parts.append(f"{platform} {major}" + (f".{minor}" if minor else ""))
        return ", ".join(parts)


def parse_available_attribute(arguments: str) -> Requirement:
    """The requirement of an `@available(...)` attribute's arguments. Deprecation, renaming and
    `swift` versions ask nothing; `unavailable` and an obsoleted version make a platform unavailable."""
    items = [item.strip() for item in arguments.split(",") if item.strip()]
    if not items:
        return Requirement()
    first = items[0].split()
    keywords = ("introduced", "deprecated", "obsoleted", "unavailable", "message", "renamed", "noasync")
    long_form = len(first) == 1 and any(item.split(":")[0].strip() in keywords for item in items[1:])
    if long_form:
        platform = ALIASES.get(first[0])
        if first[0] == "*":
            if any(item == "unavailable" for item in items[1:]):
                return Requirement(unavailable=APPLE)
            return Requirement()
        if platform not in APPLE:
            return Requirement()
        versions, unavailable = {}, set()
        for item in items[1:]:
            key, _, value = item.partition(":")
            key = key.strip()
            if key == "introduced":
                version = parse_version(value.strip())
                if version:
                    versions[platform] = version
            elif key == "unavailable" or key == "obsoleted":
                unavailable.add(platform)
        return Requirement(versions, unavailable)
    versions = {}
    for item in items:
        words = item.split()
        if len(words) == 2 and ALIASES.get(words[0]) in APPLE:
            version = parse_version(words[1])
            if version:
                versions[ALIASES[words[0]]] = version
    return Requirement(versions)


def parse_available_condition(arguments: str) -> dict:
    """The versions an `#available(...)` / `#unavailable(...)` condition names ({"macOS": (15, 0)})."""
    versions = {}
    for item in arguments.split(","):
        words = item.split()
        if len(words) == 2 and ALIASES.get(words[0]) in APPLE:
            version = parse_version(words[1])
            if version:
                versions[ALIASES[words[0]]] = version
    return versions


class Scope:
    """A stretch of code [start, end) that runs only at `versions` or later, from an availability
    condition (kind "condition") or an `@available` declaration (kind "attribute", `unavailable`
    the platforms the declaration is unavailable on)."""

    def __init__(self, start, end, requirement: Requirement, kind):
        self.start, self.end, self.requirement, self.kind = start, end, requirement, kind

    def __repr__(self):
        return f"Scope({self.start}, {self.end}, {self.requirement.describe()!r}, {self.kind})"


def declaration_end(code: str, position: int) -> int:
    """The end of the declaration whose attributes start at `position`: the `}` closing its body,
    or for a declaration without one (a stored property, a requirement) the end of its line."""
    index = position
    keyword = None
    # Attributes and modifiers, up to the declaration's keyword.
    while index < len(code):
        match = re.compile(r"\s*(@\w+(?:\.\w+)*|\w+)").match(code, index)
        if not match:
            break
        word = match.group(1)
        index = match.end()
        if word.startswith("@"):
            rest = re.compile(r"\s*\(").match(code, index)
            if rest and code[index:rest.end()].count("\n") == 0:
                index = matching(code, rest.end() - 1) + 1
            continue
        if word in MODIFIERS:
            rest = re.compile(r"\s*\(\s*set\s*\)").match(code, index)
            if rest:
                index = rest.end()
            continue
        if word in DECLARATION_KEYWORDS:
            keyword = word
        break
    if keyword is None:
        end = code.find("\n", index)
        return len(code) if end < 0 else end
    depth = 0
    while index < len(code):
        character = code[index]
        if character in "([{":
            if character == "{" and depth == 0 and keyword in WITH_BODY:
                return matching(code, index) + 1
            depth += 1
        elif character in ")]}":
            if depth == 0:
                return index
            depth -= 1
        elif character == "\n" and depth == 0:
            following = code[index + 1:code.find("\n", index + 1) if code.find("\n", index + 1) >= 0 else len(code)]
            if not following.strip():
                pass
            elif DECLARATION_START.match(following) or keyword not in WITH_BODY and not re.match(
                r"\s*(?:[.?:=+\-*/%&|^<>!]|where\b|throws\b|async\b|->)", following
            ):
                return index
        index += 1
    return len(code)


def if_clause_end(code: str, brace: int) -> int:
    """After the block that opens at `brace`, the end of the `else` clauses that follow it."""
    end = matching(code, brace) + 1
    match = re.compile(r"\s*else\s*(\{|if\b)").match(code, end)
    if not match:
        return end
    if match.group(1) == "{":
        return if_clause_end(code, match.end() - 1)
    body = condition_body(code, match.end())
    return if_clause_end(code, body) if body is not None else end


def condition_body(code: str, start: int):
    """The `{` that opens the body of the `if`/`while` whose conditions start at `start`."""
    depth = 0
    for index in range(start, len(code)):
        character = code[index]
        if character == "{" and depth == 0:
            return index
        if character in "([{":
            depth += 1
        elif character in ")]}":
            if depth == 0:
                return None
            depth -= 1
    return None


def guard_else(code: str, start: int):
    """The `{` of the `else` of the `guard` whose conditions start at `start`."""
    depth = 0
    index = start
    while index < len(code):
        character = code[index]
        if character in "([{":
            depth += 1
        elif character in ")]}":
            if depth == 0:
                return None
            depth -= 1
        elif depth == 0 and code.startswith("else", index) and not re.match(r"\w", code[index - 1]) \
                and not re.match(r"\w", code[index + 4:index + 5]):
            brace = code.find("{", index)
            return brace if brace >= 0 else None
        index += 1
    return None


def scopes(code: str):
    """Every availability scope of the file (see Scope)."""
    found = []
    for match in re.finditer(r"@available\s*\(", code):
        close = matching(code, match.end() - 1)
        requirement = parse_available_attribute(code[match.end():close])
        found.append(Scope(match.start(), declaration_end(code, match.start()), requirement, "attribute"))
    if "#available" not in code and "#unavailable" not in code:
        return found
    for match in re.finditer(r"(?<![#\w])(if|guard|while)\b", code):
        keyword = match.group(1)
        if keyword == "guard":
            brace = guard_else(code, match.end())
        else:
            brace = condition_body(code, match.end())
        if brace is None:
            continue
        conditions = code[match.end():brace]
        available, unavailable, refined = {}, {}, None
        for check in re.finditer(r"#(available|unavailable)\s*\(", conditions):
            close = matching(conditions, check.end() - 1)
            versions = parse_available_condition(conditions[check.end():close])
            target = available if check.group(1) == "available" else unavailable
            for platform, version in versions.items():
                target[platform] = max(target.get(platform, version), version)
            if check.group(1) == "available" and refined is None:
                # The conditions after an `#available` in the same list are refined by it too.
                refined = match.end() + close + 1
        if available:
            found.append(Scope(refined, brace, Requirement(available, inherit=False), "condition"))
            if keyword == "guard":
                start = matching(code, brace) + 1
                found.append(Scope(start, enclosing_end(code, start), Requirement(available, inherit=False), "condition"))
            else:
                found.append(Scope(brace, matching(code, brace) + 1, Requirement(available, inherit=False), "condition"))
        if unavailable:
            if keyword == "guard":
                found.append(Scope(brace, matching(code, brace) + 1, Requirement(unavailable, inherit=False),
                                   "condition"))
            elif keyword == "if":
                end = matching(code, brace) + 1
                clause = if_clause_end(code, brace)
                if clause > end:
                    found.append(Scope(end, clause, Requirement(unavailable, inherit=False), "condition"))
    return found


class Context:
    """Where a point of the file runs: `compiled` ({platform: True/False/None}), `versions` (the
    version of each Apple platform it runs at, at least), `unavailable` (the platforms an
    enclosing declaration is unavailable on)."""

    def __init__(self, compiled, versions, unavailable):
        self.compiled, self.versions, self.unavailable = compiled, versions, unavailable

    def missing(self, requirement: Requirement):
        """The Apple platforms the point compiles on (or may) whose context does not meet `requirement`."""
        platforms = []
        for platform in APPLE:
            if self.compiled[platform] is False:
                continue
            if platform in requirement.unavailable and platform not in self.unavailable:
                platforms.append(platform)
            elif platform in requirement.versions and requirement.versions[platform] > self.versions[platform]:
                platforms.append(platform)
        return platforms


class SwiftFile:
    def __init__(self, path: pathlib.Path, text: str, minimum: dict, linux_modules=None, linux_flags=None):
        self.path, self.text, self.minimum = path, text, minimum
        self.code, self.strings = mask(text)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.branches = branches(self.code, linux_modules, linux_flags)
        self.branch_starts = [start for start, _, _ in self.branches]
        self.scopes = scopes(self.code)

    def offset(self, line: int, column: int) -> int:
        """The offset of a 1-based line and column (UTF-8 bytes, as the index gives them)."""
        start = self.line_starts[min(line, len(self.line_starts)) - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
        return start + len(self.text[start:end].encode()[: column - 1].decode(errors="ignore"))

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)

    def compiled(self, offset: int) -> dict:
        index = bisect.bisect_right(self.branch_starts, offset) - 1
        return self.branches[max(index, 0)][2]

    def context(self, offset: int) -> Context:
        versions = dict(self.minimum)
        unavailable = set()
        for scope in self.scopes:
            if scope.start <= offset < scope.end:
                for platform, version in scope.requirement.versions.items():
                    versions[platform] = max(versions[platform], version)
                unavailable |= scope.requirement.unavailable
        return Context(self.compiled(offset), versions, unavailable)

    def declared(self, offset: int) -> Requirement:
        """What the `@available` attributes around `offset` ask (the requirement of a declaration
        defined there)."""
        versions, unavailable = {}, set()
        for scope in self.scopes:
            if scope.kind == "attribute" and scope.start <= offset < scope.end:
                for platform, version in scope.requirement.versions.items():
                    versions[platform] = max(versions.get(platform, version), version)
                unavailable |= scope.requirement.unavailable
        return Requirement(versions, unavailable)
