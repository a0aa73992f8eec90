#!/usr/bin/env python3
"""Checks that every module a target imports is one it declares.

A module a target imports without declaring it often builds anyway, because another dependency
brought it into the build (PrismStore could import OrderedCollections through
IdentifiedCollections), and then breaks when that dependency changes or when SwiftPM builds
modules explicitly. This reads the root manifest (`swift package dump-package`), then every
Swift file of each target, and fails on an `import` of a module that is neither the toolchain's
(Foundation, Glibc, Testing, SwiftUI, ...), nor a target the target depends on, nor a product it
depends on (a product's modules are its name, or those listed below for the products whose
modules are named otherwise), nor a module one of its Prism dependencies re-exports
(`@_exported import`: the umbrellas, PrismStore's Dependencies and IdentifiedCollections).
`@_exported import` counts as an import. Imports inside `#if canImport(X)` still need X
declared when X is not the toolchain's.

Usage: Tools/scripts/check-imports.py [ROOT]
"""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
# What every target may import: the toolchain's and the platforms' own modules.
SYSTEM = {
    "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "WinSDK", "Android", "Bionic", "Security", "SwiftUI",
    "Observation", "Synchronization", "Testing", "XCTest", "os", "CryptoKit", "Network", "Combine", "UIKit",
    "AppKit", "_Concurrency", "Distributed", "RegexBuilder", "_StringProcessing", "CoreFoundation", "LocalAuthentication",
}
# Products whose modules are not (only) the product's name.
PRODUCT_MODULES = {
    "Crypto": {"Crypto", "_CryptoExtras"},
    "CasePaths": {"CasePaths", "CasePathsCore"},
    "Dependencies": {"Dependencies"},
    "DependenciesMacros": {"DependenciesMacros"},
    "IssueReporting": {"IssueReporting"},
    "Hummingbird": {"Hummingbird"},
    "HummingbirdCore": {"HummingbirdCore"},
}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)

manifest = json.loads(subprocess.run(
    ["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True, check=True).stdout)
target_names = {target["name"] for target in manifest["targets"]}


def declared_modules(target) -> set:
    modules = {target["name"], target["name"].replace("-", "_")}
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name = value[0]
        if kind == "product":
            modules |= PRODUCT_MODULES.get(name, {name})
        else:  # byName or target: a target's module is its name with `-` as `_`
            modules |= {name, name.replace("-", "_")}
    return modules


def default_path(target) -> pathlib.Path:
    folder = {"test": "Tests", "regular": "Sources", "executable": "Sources", "macro": "Sources"}.get(target["type"])
    return root / (folder or "Sources") / target["name"]


def sources_of(target) -> list:
    path = root / target["path"] if target.get("path") else default_path(target)
    files = [path] if path.suffix == ".swift" else sorted(path.rglob("*.swift"))
    return [source for source in files if ".build" not in source.parts]


# What each target re-exports, for the targets that depend on it.
EXPORTED = re.compile(r"^\s*@_exported\s+import\s+(\w+)", re.M)
reexports = {}
for target in manifest["targets"]:
    names = set()
    for source in sources_of(target):
        names.update(EXPORTED.findall(source.read_text()))
    reexports[target["name"]] = names


def reachable(modules: set) -> set:
    """`modules` and everything the Prism targets among them re-export, transitively."""
    result, pending = set(modules), list(modules)
    while pending:
        for exported in reexports.get(pending.pop(), ()):
            if exported not in result:
                result.add(exported)
                pending.append(exported)
    return result


problems = []
checked = 0
for target in manifest["targets"]:
    if target["type"] in ("system", "binary", "plugin"):
        continue
    allowed = reachable(declared_modules(target)) | SYSTEM
    for source in sources_of(target):
        text = source.read_text()
        for match in IMPORT.finditer(text):
            module = match.group(1)
            checked += 1
            if module not in allowed:
                line = text[: match.start()].count("\n") + 1
                where = f"{source.relative_to(root)}:{line}"
                problems.append(f"{where}: {target['name']} imports {module}, which it does not declare")
if problems:
    print("check-imports: these imports are of modules the target's dependencies do not name:")
    for problem in problems:
        print(f"  {problem}")
    print("Declare the product or target in Package.swift (and the nested package's manifest), or drop the import.")
    sys.exit(1)
print(f"check-imports: the {checked} imports of the root package's targets are all declared.")
