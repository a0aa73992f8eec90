#!/usr/bin/env python3
"""Checks, on Linux, that Prism's code would compile for its oldest Apple platforms.

What: the package deploys to macOS 14, iOS 17, tvOS 17, watchOS 10 and visionOS 1 (Package.swift).
A use of a newer declaration (`String(validating:as:)`, macOS 15 / iOS 18 / tvOS 18 / watchOS 11
/ visionOS 2) must sit inside an `if #available(...)` / `guard #available(...)` naming every one
of those platforms, or in a declaration marked `@available(...)` for them, or in code that no
Apple platform compiles (`#if os(Linux)`). A use of a declaration unavailable on a platform
(`@available(tvOS, unavailable)`) must be in code that platform does not compile. This fails on
every use that is not, with the file, line, declaration and platforms.

Why: Linux never checks API availability, so such a use builds here and breaks every Apple build.
A check by regular expressions over declarations' names was slipped by every spelling it did
not foresee (`.init(validating:as:)`, properties, calls without parentheses, `[3 of Int]`), so
this one asks the compiler what each name refers to.

How:
1. The declarations, from the compiler: `swift-symbolgraph-extract` writes the symbol graph of
   every toolchain module an Apple platform also has (Swift, _Concurrency, Synchronization,
   Observation, RegexBuilder, _StringProcessing, Distributed, Foundation and its parts,
   Dispatch, Testing): each public declaration's precise identifier (USR) and its availability
   per platform, inherited from its extension or type, deprecated and unavailable included.
   Foundation's Linux modules carry availability too, approximately Apple's (swift-foundation's
   own macros). The graphs are read once per toolchain and kept in .build/availability-check.
2. The uses, from the compiler: the index store of a build (`--build-dir`, default .build/debug:
   index/store) holds every reference of every compiled file, with the USR it resolved to and
   its line and column. It is read with the toolchain's libIndexStore (ctypes). A reference to
   a USR from step 1 that asks more than the minimums is checked where it stands. Prism's own
   declarations marked `@available(...)` (found at their definition in the index) are checked
   the same way.
3. Where it stands, from the text (apple_platforms.py): the `#if` branches (each condition
   evaluated for every platform: `#if os(Linux) || os(macOS)` compiles on macOS), and the
   `#available` conditions and `@available` declarations around it, each raising only the
   platforms it names (`if #available(macOS 15, *)` leaves iOS at 17).
4. What Linux does not compile is not in the index: code in a branch Linux does not take
   (`#if canImport(Darwin)`, `#if os(iOS)`), or not known to (a custom flag), and files the
   build does not compile. There, uses are found by name: types, `Type(labels:)`,
   `.member(labels:)`, `.member`, free functions, against the same declarations, plus
   APPLE_ONLY below (SwiftUI, Security, Network, Dispatch: frameworks with no interface on
   this machine; each entry with its source). A name is flagged only when every declaration
   of it that fits is newer, and not when Prism declares a member of that name. `[N of T]`
   (InlineArray's sugar, which leaves no reference in the index) is found by its spelling
   everywhere.

Not reported, because an Apple compiler would not take them as uses: an implicit reference
(`for await` calls `next(isolation:)`, macOS 15, where the platform has it and `next()`
elsewhere), and a newer declaration with an older twin (a protocol requirement beside its
default implementation, an operator beside older ones of the same name): overload resolution on
an Apple platform ranks what the deployment target lacks below what it has, and picks the twin.
Not seen: what depends on the runtime rather than a declaration (typed throws in a generic
function type, isolated conformances), names the text fallback cannot tell apart (`.span`,
which ArraySlice has without availability), and dependencies' own `@available` declarations.

It fails when nothing was loaded (no swiftc, a module without a symbol graph, an index store
without the repository's files), and when a file is newer than the index or not in it (build
first): those are read by name only.

Usage:
  Tools/scripts/check-availability.py [--build-dir DIR] [ROOT]
      the repository at ROOT (default .) against DIR's index (default ROOT/.build/debug)
  Tools/scripts/check-availability.py --index-store DIR --files PATH... [ROOT]
      only the given files, against any index store
  Tools/scripts/check-availability.py --test FOLDER
      compiles FOLDER's Swift files into a scratch index store (`swiftc -c -index-store-path`)
      and checks them: every line marked `// slip` (or `// slip: iOS tvOS`, the platforms it
      must name) must be reported, and no other (Tools/AvailabilityChecks)
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from apple_platforms import APPLE, Requirement, SwiftFile, matching, minimums, sources  # noqa: E402
from index_store import DECLARATION, DEFINITION, IMPLICIT, REFERENCE, IndexStore, IndexStoreError  # noqa: E402

SCRIPT_ROOT = pathlib.Path(__file__).resolve().parents[2]
# The toolchain modules an Apple platform also has. Each must give a symbol graph.
MODULES = [
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Observation", "Synchronization", "Distributed",
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "Dispatch", "Testing",
]
# Bumped when what the cache holds changes.
CACHE_FORMAT = 5
# The folder of the slips (Tools/AvailabilityChecks): checked by --test, never as sources.
SLIPS = "Tools/AvailabilityChecks"
# Stand-ins for Apple's interfaces (typecheck-swiftui.sh): declarations, not uses, in no target.
STAND_INS = "Tools/AppleInterfaces"

# Apple-only declarations newer than the minimums (or unavailable on a platform), for the
# frameworks this machine has no interface of. Checked by name, in the files that import the
# module. Each entry: module, the declaration as `Parent.name(labels:)` (a type alone for a
# type; `label=:` marks a parameter with a default value), what it needs, and the page of Apple's
# documentation it was read from (the availability at the top of each page, which comes from the
# SDK; read 2026-11-30, the macOS 26 / iOS 26 SDKs' documentation). A name listed here must not
# also be an older declaration's, or every use of that one is flagged. Add what Prism comes to use.
APPLE_ONLY = [
    ("SwiftUI", "Tab", "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2",
     "https://developer.apple.com/documentation/swiftui/tab"),
    ("SwiftUI", "ScrollGeometry", "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2",
     "https://developer.apple.com/documentation/swiftui/scrollgeometry"),
    ("SwiftUI", "View.onScrollGeometryChange(for:of:action:)", "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2",
     "https://developer.apple.com/documentation/swiftui/view/onscrollgeometrychange(for:of:action:)"),
    ("SwiftUI", "PresentationSizing", "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2",
     "https://developer.apple.com/documentation/swiftui/presentationsizing"),
    ("SwiftUI", "View.presentationSizing(_:)", "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2",
     "https://developer.apple.com/documentation/swiftui/view/presentationsizing(_:)"),
    # Liquid Glass: not on visionOS, which has glassBackgroundEffect.
    ("SwiftUI", "View.glassEffect(_=:in=:)", "macOS 26, iOS 26, tvOS 26, watchOS 26, unavailable on visionOS",
     "https://developer.apple.com/documentation/swiftui/view/glasseffect(_:in:)"),
    ("SwiftUI", "Glass", "macOS 26, iOS 26, tvOS 26, watchOS 26, unavailable on visionOS",
     "https://developer.apple.com/documentation/swiftui/glass"),
    ("SwiftUI", "GlassEffectTransition", "macOS 26, iOS 26, tvOS 26, watchOS 26, unavailable on visionOS",
     "https://developer.apple.com/documentation/swiftui/glasseffecttransition"),
    ("SwiftUI", "View.glassEffectTransition(_:)", "macOS 26, iOS 26, tvOS 26, watchOS 26, unavailable on visionOS",
     "https://developer.apple.com/documentation/swiftui/view/glasseffecttransition(_:)"),
    ("SwiftUI", "DefaultGlassEffectShape", "macOS 26, iOS 26, tvOS 26, watchOS 26, unavailable on visionOS",
     "https://developer.apple.com/documentation/swiftui/defaultglasseffectshape"),
    # macOS has no full-screen cover (PrismNavigationStack presents a sheet there).
    ("SwiftUI", "View.fullScreenCover(item:onDismiss=:content:)", "unavailable on macOS",
     "https://developer.apple.com/documentation/swiftui/view/fullscreencover(item:ondismiss:content:)"),
    ("SwiftUI", "View.fullScreenCover(isPresented:onDismiss=:content:)", "unavailable on macOS",
     "https://developer.apple.com/documentation/swiftui/view/fullscreencover(ispresented:ondismiss:content:)"),
    # tvOS and watchOS have no popovers (PrismStore's `.popover(_:)` is in `#if os(iOS) || os(macOS) || os(visionOS)`).
    ("SwiftUI", "View.popover(item:attachmentAnchor=:arrowEdge=:content:)", "unavailable on tvOS, unavailable on watchOS",
     "https://developer.apple.com/documentation/swiftui/view/popover(item:attachmentanchor:arrowedge:content:)"),
    ("SwiftUI", "View.popover(isPresented:attachmentAnchor=:arrowEdge=:content:)",
     "unavailable on tvOS, unavailable on watchOS",
     "https://developer.apple.com/documentation/swiftui/view/popover(ispresented:attachmentanchor:arrowedge:content:)"),
    # Security: the keychain's companion-device access control. (What Prism uses of Security is
    # older than the minimums: SecItem*, SecPKCS12Import, SecTrustCopyCertificateChain.)
    ("Security", "SecAccessControlCreateFlags.companion", "macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2",
     "https://developer.apple.com/documentation/security/secaccesscontrolcreateflags/companion"),
    # Network, Dispatch: no entry yet. Prism uses Network only through NIOTransportServices and
    # Dispatch's older API (DispatchSource); no newer declaration of either could be read from
    # Apple's documentation with its availability (https://developer.apple.com/documentation/dispatch:
    # DispatchSerialQueue is iOS 17). Linux's Dispatch module is read from its symbol graph.
]


def fail(message: str):
    print(f"check-availability: {message}", file=sys.stderr)
    sys.exit(2)


# --- The toolchain --------------------------------------------------------------------------


class Toolchain:
    def __init__(self):
        swiftc = shutil.which("swiftc")
        if swiftc is None:
            fail("no swiftc on PATH: the declarations come from the toolchain's modules; nothing was loaded")
        self.bin = pathlib.Path(swiftc).resolve().parent
        self.swiftc = self.bin / "swiftc"
        self.extract = self.bin / "swift-symbolgraph-extract"
        self.index_library = self.bin.parent / "lib" / "libIndexStore.so"
        self.modules = self.bin.parent / "lib" / "swift" / "linux"
        for path in (self.extract, self.index_library, self.modules):
            if not path.exists():
                fail(f"{path} is missing: nothing can be loaded without it")

    def fingerprint(self) -> str:
        digest = hashlib.sha256(f"{CACHE_FORMAT} {self.extract} {minimum_key()}".encode())
        for module in MODULES:
            for path in sorted((self.modules / f"{module}.swiftmodule").glob("*")):
                status = path.stat()
                digest.update(f"{path} {status.st_size} {status.st_mtime_ns}".encode())
        return digest.hexdigest()[:16]


MINIMUMS = {}


def minimum_key() -> str:
    return ",".join(f"{platform} {major}.{minor}" for platform, (major, minor) in sorted(MINIMUMS.items()))


# --- Declarations (symbol graphs) -------------------------------------------------------------


def symbol_requirement(symbol) -> Requirement:
    """What a symbol graph symbol asks of the Apple platforms (its `availability` mixin, which
    already carries what it inherits from its extension and type)."""
    versions, unavailable = {}, set()
    for entry in symbol.get("availability", []):
        domain = entry.get("domain")
        if domain == "*":
            if entry.get("isUnconditionallyUnavailable"):
                unavailable |= set(APPLE)
            continue
        if domain not in APPLE:
            continue
        if entry.get("isUnconditionallyUnavailable"):
            unavailable.add(domain)
        introduced = entry.get("introduced")
        if introduced:
            versions[domain] = (introduced.get("major", 0), introduced.get("minor", 0))
        obsoleted = entry.get("obsoleted")
        if obsoleted and (obsoleted.get("major", 0), obsoleted.get("minor", 0)) <= MINIMUMS[domain]:
            unavailable.add(domain)
    return Requirement(versions, unavailable)


def above_minimums(requirement: Requirement) -> Requirement:
    """The part of a requirement the minimums do not already meet."""
    versions = {p: v for p, v in requirement.versions.items() if v > MINIMUMS[p]}
    return Requirement(versions, requirement.unavailable, inherit=False)


KINDS = {
    "swift.struct": "type", "swift.class": "type", "swift.enum": "type", "swift.protocol": "type",
    "swift.typealias": "type", "swift.actor": "type",
    "swift.init": "init", "swift.method": "func", "swift.type.method": "func", "swift.func": "func",
    "swift.property": "var", "swift.type.property": "var", "swift.var": "var", "swift.enum.case": "var",
}


def signature(title: str, declaration: str):
    """(name, labels) of a symbol: labels (None for a property or a type) each ending in "=" when
    the parameter has a default value."""
    match = re.match(r"(\w+)\((.*)\)$", title)
    if not match:
        return title, None
    name, labels = match.group(1), [label for label in match.group(2).split(":") if label]
    # The parameters of the declaration, to learn which have a default value.
    start = declaration.find("(", declaration.find(name) if name != "init" else declaration.find("init"))
    defaults, depth, current = [], 0, ""
    if start >= 0:
        for character in declaration[start + 1:]:
            if character in "([<{":
                depth += 1
            elif character in ")]>}":
                if depth == 0:
                    defaults.append("=" in current)
                    break
                depth -= 1
            if character == "," and depth == 0:
                defaults.append("=" in current)
                current = ""
            else:
                current += character
    if len(defaults) == len(labels):
        labels = [label + ("=" if default else "") for label, default in zip(labels, defaults)]
    return name, labels


def load_graphs(toolchain: Toolchain, folder: pathlib.Path):
    """Runs swift-symbolgraph-extract for every module of MODULES into `folder`."""
    cache = folder / "module-cache"

    def extract(module):
        output = folder / module
        output.mkdir(parents=True, exist_ok=True)
        command = [str(toolchain.extract), "-module-name", module, "-target", f"{os.uname().machine}-unknown-linux-gnu",
                   "-output-dir", str(output), "-minimum-access-level", "public", "-skip-synthesized-members",
                   "-skip-inherited-docs", "-module-cache-path", str(cache)]
        result = subprocess.run(command, capture_output=True, text=True)
        files = list(output.glob("*.symbols.json"))
        if result.returncode != 0 or not files:
            fail(f"swift-symbolgraph-extract gave no symbol graph for {module}: {result.stderr.strip()[:500]}")
        return module, files

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(extract, MODULES))


def build_declarations(toolchain: Toolchain) -> dict:
    """{"usrs": {usr: [display name, versions, unavailable]}, "names": {name: [candidates]}}: the
    declarations that ask more than the minimums, and for the text fallback every declaration
    (older ones too) named like one of them."""
    usrs, everything, signatures = {}, [], {}
    with tempfile.TemporaryDirectory(prefix="symbol-graphs-") as temporary:
        for module, files in load_graphs(toolchain, pathlib.Path(temporary)):
            count = 0
            for path in files:
                graph = json.loads(path.read_text())
                for symbol in graph["symbols"]:
                    count += 1
                    requirement = above_minimums(symbol_requirement(symbol))
                    components = symbol.get("pathComponents", [])
                    display = ".".join(components)
                    declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                    kind = symbol["kind"]["identifier"]
                    usr = symbol["identifier"]["precise"]
                    # A declaration and its twins: the same name and signature in the same type or
                    # protocol (a requirement and its default implementation), or any operator of
                    # the same name.
                    twin = ("op", components[-1].split("(")[0]) if kind == "swift.func.op" else (
                        tuple(components), " ".join(declaration.split()))
                    signatures.setdefault(twin, []).append((usr, bool(requirement)))
                    if requirement:
                        usrs[usr] = [
                            f"{display} ({module})", {p: list(v) for p, v in requirement.versions.items()},
                            sorted(requirement.unavailable)]
                    category = KINDS.get(kind)
                    if category and components:
                        name, labels = signature(components[-1], declaration)
                        parent = components[-2] if len(components) > 1 else None
                        everything.append((name, category, parent, labels, display, module, requirement))
                        # The labels of a tuple it returns are members too, by name: `.attoseconds`
                        # may be Duration's (macOS 15) or the element of `Duration.components`.
                        result = declaration.split("->")[-1] if "->" in declaration else declaration.partition(":")[2]
                        for label in re.findall(r"[(,]\s*(\w+)\s*:(?!:)", result):
                            everything.append((label, "var", None, None, f"{display}.{label}", module, Requirement()))
            if count == 0:
                fail(f"the symbol graph of {module} has no symbols: nothing was loaded")
    # Where a newer declaration has an older twin, Apple's compiler picks the twin: overload
    # resolution ranks a declaration the deployment target does not have below one it has, which
    # Linux's does not. `x &* y` resolves here to FixedWidthInteger's `&*` requirement (macOS 15)
    # and on a Mac to its default implementation; an Int128 operator is picked here where a Mac
    # picks Int's. (A use of a newer type itself is found where the type is.)
    for twins in signatures.values():
        if any(not newer for _, newer in twins):
            for usr, newer in twins:
                if newer:
                    usrs.pop(usr, None)
    interesting = {entry[0] for entry in everything if entry[6]}
    names = {}
    for name, kind, parent, labels, display, module, requirement in everything:
        if name in interesting:
            names.setdefault(name, []).append(
                [kind, parent, labels, f"{display} ({module})", {p: list(v) for p, v in requirement.versions.items()},
                 sorted(requirement.unavailable), None])
    return {"usrs": usrs, "names": names}


def declarations(toolchain: Toolchain, cache_folder: pathlib.Path) -> dict:
    path = cache_folder / f"declarations-{toolchain.fingerprint()}.json"
    if path.exists():
        try:
            return json.loads(path.read_text())
        except json.JSONDecodeError:
            pass
    table = build_declarations(toolchain)
    cache_folder.mkdir(parents=True, exist_ok=True)
    for old in cache_folder.glob("declarations-*.json"):
        old.unlink()
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(table))
    os.replace(temporary, path)
    return table


def add_apple_only(table: dict):
    """APPLE_ONLY's entries as candidates of the text fallback (each with the module it needs imported)."""
    for module, declaration, needs, _ in APPLE_ONLY:
        versions, unavailable = {}, []
        for part in needs.split(","):
            words = part.split()
            if words[0] == "unavailable":
                unavailable.append(words[-1])
            else:
                major, _, minor = words[1].partition(".")
                versions[words[0]] = [int(major), int(minor or 0)]
        components = declaration.split(".")
        name, labels = signature(components[-1], "")
        kind = "type" if labels is None and components[-1][0].isupper() and len(components) == 1 else (
            "func" if labels is not None else "var")
        if name == "init":
            kind = "init"
        parent = components[-2] if len(components) > 1 else None
        table["names"].setdefault(name, []).append(
            [kind, parent, labels, f"{declaration.replace('=', '')} ({module})", versions, unavailable, module])


# --- The check ------------------------------------------------------------------------------------


class Finding:
    def __init__(self, path, line, what, requirement: Requirement, platforms, how):
        self.path, self.line, self.what, self.platforms, self.how = path, line, what, platforms, how
        self.requirement = requirement

    def text(self, root) -> str:
        try:
            shown = self.path.relative_to(root)
        except ValueError:
            shown = self.path
        needed = [p for p in self.platforms if p not in self.requirement.unavailable]
        unavailable = [p for p in self.platforms if p in self.requirement.unavailable]
        parts = []
        if needed:
            parts.append(f"needs {self.requirement.describe(needed)}")
        if unavailable:
            parts.append(f"is unavailable on {', '.join(unavailable)}")
        return f"{shown}:{self.line}: {self.what} {' and '.join(parts)} ({self.how})"


def requirement_of(entry) -> Requirement:
    return Requirement({p: tuple(v) for p, v in entry[1].items()}, entry[2], inherit=False)


def combined(candidates) -> Requirement:
    """What a name asks when it may be any of `candidates`: on each platform, the least of them."""
    versions, unavailable = {}, set(APPLE)
    for platform in APPLE:
        needed = []
        for candidate in candidates:
            version = candidate[4].get(platform)
            if platform in candidate[5]:
                continue
            unavailable.discard(platform)
            needed.append(tuple(version) if version else MINIMUMS[platform])
        if needed and min(needed) > MINIMUMS[platform]:
            versions[platform] = min(needed)
    return Requirement(versions, unavailable if candidates else (), inherit=False)


def call_labels(arguments: str):
    labels, depth, current = [], 0, ""
    for character in arguments + ",":
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        if character == "," and depth == 0:
            if current.strip():
                label = re.match(r"\s*(\w+)\s*:(?!:)", current)
                labels.append(label.group(1) if label else "_")
            current = ""
        else:
            current += character
    return labels


def fits(call, parameters, trailing) -> bool:
    """Whether a call's labels fit a declaration's (defaults may be left out; a trailing
    closure may give the last parameters)."""
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
    return not rest or (trailing and len(rest) <= 2)


INLINE_ARRAY = re.compile(r"\[\s*(?:\d+|_|[A-Za-z_]\w*)\s+of\s+[\w(\[]")


class Checker:
    def __init__(self, root: pathlib.Path, table: dict, linux_modules, linux_flags=None):
        self.root, self.table, self.linux_modules, self.linux_flags = root, table, linux_modules, linux_flags
        self.findings = {}
        self.uses = 0  # the uses of newer declarations found, reported or not
        self.files = {}
        self.own = {}  # USR -> (display, Requirement): Prism's own @available declarations

    def file(self, path: pathlib.Path) -> SwiftFile:
        if path not in self.files:
            self.files[path] = SwiftFile(path, path.read_text(), MINIMUMS, self.linux_modules, self.linux_flags)
        return self.files[path]

    def report(self, swift: SwiftFile, offset: int, what: str, requirement: Requirement, how: str):
        self.uses += 1
        context = swift.context(offset)
        platforms = context.missing(requirement)
        if not platforms:
            return
        line = swift.line(offset)
        key = (swift.path, line, what)
        if key not in self.findings:
            self.findings[key] = Finding(swift.path, line, what, requirement, platforms, how)

    # The index.

    def own_declarations(self, store: IndexStore, records: dict):
        """Prism's declarations under an `@available(...)` that asks more than the minimums."""
        for path, (record, _) in records.items():
            swift_path = pathlib.Path(path)
            text = swift_path.read_text()
            if "@available" not in text:
                continue
            swift = self.file(swift_path)
            if not any(scope.kind == "attribute" and above_minimums(scope.requirement) for scope in swift.scopes):
                continue
            for usr, roles, line, column in store.occurrences(record):
                if roles & (DEFINITION | DECLARATION) and not roles & IMPLICIT:
                    offset = swift.offset(line, column)
                    requirement = above_minimums(swift.declared(offset))
                    name = re.match(r"\w*", swift.text[offset:]).group(0)
                    # (An accessor's definition stands at its `{` or `get`: its property is enough.)
                    if requirement and name and name not in ("get", "set"):
                        self.own[usr] = (f"{name} (declared at {self.shown(swift_path)}:{line})", requirement)

    def shown(self, path):
        try:
            return path.relative_to(self.root)
        except ValueError:
            return path

    def check_index(self, store: IndexStore, records: dict):
        usrs = set(self.table["usrs"]) | set(self.own)
        for path, (record, _) in sorted(records.items()):
            swift = None
            for usr, roles, line, column in store.occurrences(record, usrs):
                # An implicit reference is the compiler's own choice (`for await` calls
                # `next(isolation:)` where the platform has it, `next()` elsewhere).
                if not roles & REFERENCE or roles & (DEFINITION | DECLARATION | IMPLICIT):
                    continue
                swift = swift or self.file(pathlib.Path(path))
                offset = swift.offset(line, column)
                if usr in self.own:
                    what, requirement = self.own[usr]
                else:
                    entry = self.table["usrs"][usr]
                    what, requirement = entry[0], requirement_of(entry)
                self.report(swift, offset, what, requirement, "index")

    # The text.

    def check_text(self, swift: SwiftFile, indexed: bool, declared_here: dict):
        """The uses the index cannot see: InlineArray's `[N of T]` everywhere, and by name
        where Linux does not compile the code (or the file is not in the index)."""
        code = swift.code
        inline = self.table["names"].get("InlineArray")
        for match in INLINE_ARRAY.finditer(code):
            if inline:
                self.report(swift, match.start(), "[N of T] (InlineArray, Swift)", combined(
                    [c for c in inline if c[0] == "type"]), "text")

        def unseen(offset):
            return not indexed or swift.compiled(offset)["Linux"] is not True

        if indexed and all(compiled["Linux"] is True for _, _, compiled in swift.branches):
            return
        imports = set(re.findall(
            r"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)", code, re.M))
        names = self.table["names"]

        def candidates(name, kinds, parent=None, labels=None, trailing=False):
            found = []
            for candidate in names.get(name, []):
                kind, candidate_parent, parameters, _, _, _, module = candidate
                if kind not in kinds or (module and module not in imports):
                    continue
                if parent is not None and candidate_parent != parent:
                    continue
                if labels is not None and (parameters is None or not fits(labels, parameters, trailing)):
                    continue
                if labels is None and parameters is not None and kind != "func":
                    continue
                found.append(candidate)
            return found

        def arguments_after(end):
            """(labels, trailing closure) of a call whose name ends at `end`."""
            rest = code[end:]
            opening = re.match(r"\s*\(", rest)
            if opening:
                close = matching(code, end + opening.end() - 1)
                trailing = bool(re.match(r"[ \t]*\{", code[close + 1:]))
                return call_labels(code[end + opening.end():close]), trailing
            if re.match(r"[ \t]*\{", rest):
                return [], True
            return None, False

        for match in re.finditer(r"(?<![\w$])([A-Za-z_]\w*)\b", code):
            name = match.group(1)
            if not unseen(match.start()):
                continue
            called_type = name[0].isupper() and re.match(r"\s*[({]", code[match.end():])
            if name not in names and not (called_type and "init" in names):
                continue
            before = code[:match.start()].rstrip()
            if re.search(r"\b(func|var|let|case|struct|class|enum|actor|protocol|typealias|associatedtype)$", before):
                continue
            labels, trailing = arguments_after(match.end())
            member = before.endswith(".")
            parent = None
            if member:
                receiver = re.search(r"(?:^|[^\w.])(\w+)\s*\.$", before)
                receiver = receiver.group(1) if receiver else ""
                if receiver in MODULE_NAMES:
                    member = False  # `Swift.String`: a module, not a type
                elif receiver[:1].isupper():
                    parent = receiver
                elif receiver:
                    # A value whose type the file writes down (`_ duration: Duration`).
                    annotation = re.search(rf"\b{receiver}\s*:\s*(?:inout\s+)?([A-Z]\w*)\b", code)
                    parent = annotation.group(1) if annotation else None
            if member:
                kinds = {"init"} if name == "init" else {"func", "var", "type"} if name[0].isupper() else {"func", "var"}
                found = candidates(name, kinds, parent, labels, trailing) if parent else []
                if not found and not (parent and candidates(name, kinds, parent)):
                    # No such member of a known type: any declaration of the name, unless Prism
                    # declares one too.
                    if own_member(declared_here.get(name, set()), labels):
                        continue
                    found = candidates(name, kinds, None, labels, trailing)
                what = f"{parent + '.' if parent else '.'}{name}"
            elif name[0].isupper():
                if "type" in declared_here.get(name, set()):
                    continue
                # A nested type is named through its parent (`UTF8.ValidationError`), or inside it.
                found = [candidate for candidate in candidates(name, {"type"}) if candidate[1] is None]
                what = name
                if not found and labels is not None:
                    found = candidates("init", {"init"}, name, labels, trailing)
                    what = f"{name}.init"
            else:
                if labels is None or "func" in declared_here.get(name, set()):
                    continue
                found = [c for c in candidates(name, {"func"}, None, labels, trailing) if c[1] is None]
                what = name
            if found:
                requirement = combined(found)
                if requirement:
                    displays = sorted({candidate[3] for candidate in found})
                    shown = displays[0] if len(displays) == 1 else f"{what} (any of {len(displays)} declarations)"
                    self.report(swift, match.start(), shown, requirement, "text: not compiled on Linux")


MODULE_NAMES = {"Swift", "Foundation", "FoundationEssentials", "Synchronization", "Observation", "SwiftUI", "Network",
                "Security", "Dispatch", "_Concurrency", "Distributed", "RegexBuilder", "Testing"}


DECLARED = re.compile(r"[{}]|\b(func|var|let|case|struct|class|enum|actor|protocol|extension|typealias|init|subscript)\b"
                      r"(?:\s+`?(\w+)`?(\s*\()?)?")
TYPE_KINDS = {"struct", "class", "enum", "actor", "protocol", "extension"}


def declared_names(files) -> dict:
    """{name: kinds} of what the checked files declare as types, members of a type or globals
    (not local variables): "type", "func", "case(" (a case with a payload) or "value" (a
    property, a plain case). A use by name that may be one of these is Prism's own, not flagged."""
    names = {}
    for swift in files:
        stack, pending = [], None
        for match in DECLARED.finditer(swift.code):
            token = match.group(0)
            if token == "{":
                stack.append(pending in TYPE_KINDS)
                pending = None
            elif token == "}":
                if stack:
                    stack.pop()
                pending = None
            else:
                kind, name = match.group(1), match.group(2)
                if name and kind != "extension" and (not stack or stack[-1]):
                    if kind in TYPE_KINDS or kind == "typealias":
                        category = "type"
                    elif kind == "func":
                        category = "func"
                    elif kind == "case" and match.group(3):
                        category = "case("
                    else:
                        category = "value"
                    names.setdefault(name, set()).add(category)
                pending = kind
    return names


def own_member(kinds: set, labels) -> bool:
    """Whether a member use with `labels` (None: no call) may be one of Prism's declared `kinds`."""
    if "func" in kinds or "type" in kinds:
        return True
    if labels is None:
        return "value" in kinds or "case(" in kinds
    if "case(" in kinds:
        return True
    # A call of a closure property has no labels.
    return "value" in kinds and all(label == "_" for label in labels)


def linux_modules(toolchain: Toolchain, build: pathlib.Path = None) -> set:
    """The modules `canImport` finds on Linux: the toolchain's, the build's."""
    found = {path.name.split(".")[0] for path in toolchain.modules.glob("*.swiftmodule")}
    found |= {"Glibc", "SwiftGlibc", "SwiftShims"}
    if build is not None:
        found |= {path.name.split(".")[0] for path in (build / "Modules").glob("*.swiftmodule")}
        found |= {path.name.split(".")[0] for path in build.glob("*.build") if (path / "module.modulemap").exists()}
    return found


def linux_flags(build: pathlib.Path):
    """The flags (`-D`) the build defines in any target, from SwiftPM's manifest of it
    (.build/debug.yaml): which `#if FLAG` branches Linux compiled, and so are in the index."""
    manifest = build.parent / f"{build.name}.yaml"
    if not manifest.exists():
        return None
    return {"DEBUG", "SWIFT_PACKAGE"} | set(re.findall(r'"-D([A-Za-z_]\w*)"', manifest.read_text()))


def run(root: pathlib.Path, files, store_path: pathlib.Path, toolchain: Toolchain, build=None):
    """Checks `files` against the index store: (findings, summary, files not in the index,
    files changed since it was written)."""
    started = time.monotonic()
    table = declarations(toolchain, SCRIPT_ROOT / ".build" / "availability-check")
    add_apple_only(table)
    if len(table["usrs"]) < 1000:
        fail(f"only {len(table['usrs'])} declarations newer than the minimums were loaded:"
             " the symbol graphs are incomplete")
    try:
        store = IndexStore(toolchain.index_library, store_path)
    except IndexStoreError as error:
        fail(f"{error}: build first (make build-tests); nothing was loaded")
    wanted = {str(path) for path in files}
    records = store.records(lambda main: main in wanted)
    if not records:
        fail(f"the index store {store_path} has none of the {len(files)} files checked: build first"
             " (make build-tests); nothing was loaded")
    # A file changed since the build indexed it is read by name only, and the run fails.
    stale = sorted(path for path, (_, stamp) in records.items() if pathlib.Path(path).stat().st_mtime > stamp + 1)
    for path in stale:
        del records[path]
    checker = Checker(root, table, linux_modules(toolchain, build), linux_flags(build) if build else set())
    checker.own_declarations(store, records)
    checker.check_index(store, records)
    declared_here = declared_names(checker.file(path) for path in files)
    unindexed = []
    for path in files:
        indexed = str(path) in records
        if not indexed:
            unindexed.append(path)
        checker.check_text(checker.file(path), indexed, declared_here)
    summary = (f"{checker.uses} uses of {len(table['usrs'])} declarations newer than the minimums or"
               f" unavailable on a platform ({len(MODULES)} modules' symbol graphs, {len(APPLE_ONLY)} Apple-only by hand),"
               f" {len(checker.own)} of Prism's own; {len(records)} files through the index,"
               f" {len(unindexed)} by text only; {time.monotonic() - started:.1f} s")
    return list(checker.findings.values()), summary, unindexed, stale


def repository(arguments, toolchain):
    root = pathlib.Path(arguments.root).resolve()
    build = pathlib.Path(arguments.build_dir).resolve() if arguments.build_dir else root / ".build" / "debug"
    store = pathlib.Path(arguments.index_store).resolve() if arguments.index_store else build / "index" / "store"
    if arguments.files:
        files = [pathlib.Path(path).absolute() for path in arguments.files]
    else:
        files = [path.absolute() for path in sources(root, exclude=[SLIPS, STAND_INS])]
    findings, summary, unindexed, stale = run(root, files, store, toolchain, build if build.exists() else None)
    # Manifests are no target's sources; any other file the index lacks is new since the build.
    unindexed = [path for path in unindexed if str(path) not in stale and path.name != "Package.swift"]
    if unindexed:
        listed = "\n  ".join(str(path.relative_to(root)) for path in unindexed)
        print(f"check-availability: {len(unindexed)} files are not in the index (new since the build, or in no"
              f" target), and were read by name only; build first (make build-tests):\n  {listed}")
    if findings:
        print("check-availability: these uses need a newer Apple platform than Package.swift deploys to (or one the"
              " declaration is unavailable on); wrap them in `if #available(...)` naming every platform listed,"
              " mark their declaration `@available(...)`, or move them under an `#if` that platform does not compile:")
        for finding in sorted(findings, key=lambda f: (str(f.path), f.line)):
            print(f"  {finding.text(root)}")
    if stale:
        listed = "\n  ".join(str(pathlib.Path(path).relative_to(root)) for path in stale)
        print(f"check-availability: {len(stale)} files changed since the build indexed them, and were read by name"
              f" only; build first (make build-tests):\n  {listed}")
    minimum = ", ".join(f"{platform} {major}" for platform, (major, _) in MINIMUMS.items())
    verdict = f"{len(findings)} uses need more than" if findings else "no use needs more than"
    print(f"check-availability: {verdict} {minimum}: {summary}")
    return 1 if findings or stale or unindexed else 0


def self_test(arguments, toolchain):
    """Compiles the slips into a scratch index store and checks them against their markers."""
    folder = pathlib.Path(arguments.test).resolve()
    files = sorted(folder.rglob("*.swift"))
    if not files:
        fail(f"{folder} has no Swift files")
    with tempfile.TemporaryDirectory(prefix="availability-slips-") as temporary:
        store = compile_index(toolchain, files, pathlib.Path(temporary))
        findings, summary, _, _ = run(folder, files, store, toolchain)
    return compare_with_markers(folder, files, findings, summary, "check-availability")


def compile_index(toolchain: Toolchain, files, folder: pathlib.Path) -> pathlib.Path:
    """Compiles `files` as one module into a scratch index store in `folder`. One object file a
    source file (an output file map): with `-typecheck` every file's unit would have the same
    name, and the last would hide the others."""
    store, objects = folder / "store", folder / "objects"
    objects.mkdir()
    outputs = folder / "outputs.json"
    outputs.write_text(json.dumps({str(path): {"object": str(objects / f"{index}.o")} for index, path in enumerate(files)}))
    cache = SCRIPT_ROOT / ".build" / "availability-check" / "module-cache"
    command = [str(toolchain.swiftc), "-c", "-parse-as-library", "-module-name", "AvailabilitySlips",
               "-index-store-path", str(store), "-index-ignore-system-modules", "-module-cache-path", str(cache),
               "-swift-version", "6", "-output-file-map", str(outputs), *map(str, files)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    if result.returncode != 0:
        fail(f"the slips do not compile:\n{result.stderr}")
    return store


def compare_with_markers(folder, files, findings, summary, name):
    expected = {}
    for path in files:
        for number, line in enumerate(path.read_text().split("\n"), 1):
            marker = re.search(r"//\s*slip\b:?([^/]*)", line)
            if marker:
                expected[(path, number)] = set(marker.group(1).split()) or None
    reported = {}
    for finding in findings:
        reported.setdefault((finding.path, finding.line), set()).update(finding.platforms)
    problems = []
    for key, platforms in sorted(expected.items()):
        shown = f"{key[0].relative_to(folder)}:{key[1]}"
        if key not in reported:
            problems.append(f"{shown}: a slip the check did not catch")
        elif platforms is not None and reported[key] != platforms:
            problems.append(f"{shown}: reported for {' '.join(sorted(reported[key]))}, not {' '.join(sorted(platforms))}")
    for key in sorted(set(reported) - set(expected)):
        finding = next(f for f in findings if (f.path, f.line) == key)
        problems.append(f"{key[0].relative_to(folder)}:{key[1]}: flagged, but it is a correct use: {finding.text(folder)}")
    if problems:
        print(f"{name} --test: the check is wrong about {folder.name}:")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print(f"{name} --test: all {len(expected)} slips of {len(files)} files caught, no correct use flagged ({summary})")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("--build-dir", help="the build whose index store to read (default ROOT/.build/debug)")
    parser.add_argument("--index-store", help="an index store to read (default BUILD_DIR/index/store)")
    parser.add_argument("--files", nargs="+", help="check these files only")
    parser.add_argument("--test", help="check the slips of this folder against their `// slip` markers")
    arguments = parser.parse_args()
    toolchain = Toolchain()
    MINIMUMS.update(minimums(SCRIPT_ROOT if arguments.test else pathlib.Path(arguments.root)))
    if arguments.test:
        return self_test(arguments, toolchain)
    return repository(arguments, toolchain)


if __name__ == "__main__":
    sys.exit(main())
