#!/usr/bin/env python3
"""Writes every Package.swift of the repository from Tools/Modules.toml, the one table of modules.

Prism's modules build two ways: each package under Packages/ and Tools/ builds and tests alone,
and the root package (which users depend on) builds all of them at once. Both kinds of manifest
are generated from the table, so they cannot disagree: a target's dependencies, conditions and
comments are written once. A dependency on a Prism target becomes the target's name in its own
package, `.product(name:package:)` with a `.package(path:)` in another nested package, and the
target's name in the root. A nested package declares the external packages and traits its targets
use; the root declares all of them.

The script also checks the lists of the modules kept outside the manifests: the Makefile's
PACKAGES (the packages under Packages/, in the table's order) and TSAN_PACKAGES (those marked
`tsan`), api-check.sh's products (the library products of Packages/), README.md's Modules table (a
row for every library product) and test-in-groups.sh (only test targets of the table).

Usage:
  Tools/scripts/generate-manifests.py           write the manifests (`make manifests`)
  Tools/scripts/generate-manifests.py --check   exit 1 when a committed manifest differs from
                                                what the table generates, or a list disagrees
                                                (`make lint`)
"""

import difflib
import os
import pathlib
import re
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
TABLE = "Tools/Modules.toml"
TOOLS_VERSION = "6.1"
HEADER = f"// Generated from {TABLE} by Tools/scripts/generate-manifests.py: edit the table, then `make manifests`."

ROOT_INTRO = """\
// The umbrella manifest. Every module is a target whose sources live in its own package under
// Packages/ (each of which also builds and tests alone); this manifest lets one build run every
// test, and lets users depend on the repository by URL and pick any product."""

ROOT_PRODUCTS_NOTE = """\
// Only the libraries users consume are products. The test server, the sample app and the
// benchmarks are targets without a product (`swift run prism-sample` works here, at the root),
// so a package that depends on Prism by URL never fetches what only they use: Hummingbird,
// Graphiti, GraphQL, ArgumentParser (`make test-consumer` lists a one-product user's checkouts
// and fails on any of them)."""

ROOT_TRAITS_NOTE = """\
// Every trait but OpenAPI is on by default. A package that needs none (an app that uses only
// the architecture half, say) depends on Prism with `traits: []`: SwiftPM then fetches none of
// AsyncHTTPClient, SwiftNIO's SSL, HTTP/2 and extras (README.md says how); without
// WebSocketSubscriptions, PrismGraphQL links none of SwiftNIO's WebSocket, HTTP and SSL modules.
// OpenAPI is on only where a package asks for it (`traits: [.defaults, "OpenAPI"]`), with the
// PrismOpenAPI product: only then is swift-openapi-runtime fetched."""

ROOT_TRAILER = """
// `make` (and so CI) builds Prism's own targets with warnings as errors: the Makefile exports
// PRISM_WARNINGS_AS_ERRORS=1. A package that depends on Prism never sees the flag (and SwiftPM
// would refuse unsafe flags in a dependency), so a new compiler's warning cannot break users.
// Under make, executables and the test bundle also link with the toolchain's lld rather than
// gold: the test bundle (250 MB) in 1.4 s rather than 4.4 s, each snippet in 1 s rather than 1.9.
if Context.environment["PRISM_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .plugin {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"])]
    }
}
"""

KINDS = {"library": "target", "executable": "executableTarget", "test": "testTarget", "plugin": "plugin"}


def swift_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def comment(text: str, indent: str, width: int = 110) -> list:
    """`text` as `//` lines of at most about `width` characters."""
    lines, line = [], ""
    for word in text.split():
        if line and len(indent) + 3 + len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [f"{indent}// {line}" for line in lines]


class Table:
    def __init__(self, data: dict):
        self.data = data
        self.packages = data["package"]
        self.externals = {external["name"]: external for external in data["external"]}
        self.traits = {trait["name"]: trait for trait in data["trait"]}
        self.owner = {}  # target name -> package
        self.targets = {}  # target name -> target
        for package in self.packages:
            for target in package["target"]:
                if target["name"] in self.targets:
                    sys.exit(f"{TABLE}: target {target['name']} is declared twice")
                self.owner[target["name"]] = package
                self.targets[target["name"]] = target

    @staticmethod
    def is_root(package: dict) -> bool:
        return package["path"] == "."

    def root_package(self) -> dict:
        return next(package for package in self.packages if self.is_root(package))

    def nested_packages(self) -> list:
        return [package for package in self.packages if not self.is_root(package)]

    @staticmethod
    def kind(target: dict) -> str:
        return target.get("kind", "library")

    def relative_path(self, target: dict) -> str:
        """Where a target's sources are, inside its package."""
        if "path" in target:
            return target["path"]
        folder = {"test": "Tests", "plugin": "Plugins"}.get(self.kind(target), "Sources")
        return f"{folder}/{target['name']}"

    @staticmethod
    def libraries(package: dict) -> list:
        return package.get("products", [package["name"]])

    def dependencies(self, target: dict) -> list:
        """(name, external package or None, platforms, traits, why) for each dependency, in order."""
        result = []
        for entry in target.get("dependencies", []):
            if isinstance(entry, str):
                entry = {"names": [entry]}
            for index, spelled in enumerate(entry["names"]):
                name, _, external = spelled.partition("@")
                if external and external not in self.externals:
                    sys.exit(f"{TABLE}: {target['name']} names {spelled}, but no [[external]] is {external}")
                if not external and name not in self.targets:
                    sys.exit(f"{TABLE}: {target['name']} depends on {name}, which no package declares")
                platforms = entry.get("platforms", [])
                if "iOS" in platforms and "macCatalyst" not in platforms:
                    # Mac Catalyst compiles `#if os(iOS)` code, but SwiftPM's `.iOS` condition
                    # may leave it out: the import would then find no module there.
                    sys.exit(f"{TABLE}: {target['name']}'s dependency {spelled} names iOS but not macCatalyst")
                why = entry.get("why") if index == 0 else None
                result.append((name, external or None, platforms, entry.get("traits", []), why))
        return result

    def used_traits(self, targets: list) -> list:
        used = {trait for target in targets for *_, traits, _ in self.dependencies(target) for trait in traits}
        return [name for name in self.traits if name in used]


def condition(platforms: list, traits: list) -> str:
    parts = []
    if platforms:
        parts.append("platforms: [" + ", ".join(f".{platform}" for platform in platforms) + "]")
    if traits:
        parts.append("traits: [" + ", ".join(swift_string(trait) for trait in traits) + "]")
    return f", condition: .when({', '.join(parts)})" if parts else ""


def dependency_lines(table: Table, package: dict, target: dict, in_root: bool) -> list:
    lines = []
    for name, external, platforms, traits, why in table.dependencies(target):
        if why:
            lines += comment(why, " " * 16)
        when = condition(platforms, traits)
        if external:
            lines.append(f'                .product(name: "{name}", package: "{external}"{when}),')
        elif in_root or table.owner[name] is package:
            lines.append(f'                .target(name: "{name}"{when}),' if when else f'                "{name}",')
        else:
            owner = table.owner[name]["name"]
            lines.append(f'                .product(name: "{name}", package: "{owner}"{when}),')
    return lines


def target_lines(table: Table, package: dict, target: dict, in_root: bool) -> list:
    lines = []
    if in_root and target.get("section"):
        lines += [""] + comment(target["section"], " " * 8)
    if target.get("why"):
        lines += comment(target["why"], " " * 8)
    lines.append(f"        .{KINDS[table.kind(target)]}(")
    lines.append(f'            name: "{target["name"]}",')
    if table.kind(target) == "plugin":
        lines.append(f'            capability: {target["capability"]},')
    dependencies = dependency_lines(table, package, target, in_root)
    inline = ", ".join(line.strip().rstrip(",") for line in dependencies)
    if dependencies and all(line.strip().startswith('"') for line in dependencies) and len(inline) < 80:
        lines.append(f"            dependencies: [{inline}],")
    elif dependencies:
        lines += ["            dependencies: ["] + dependencies + ["            ],"]
    owner = table.owner[target["name"]]
    relative = table.relative_path(target)
    if in_root and not table.is_root(owner):
        lines.append(f'            path: "{owner["path"]}/{relative}",')
    elif in_root or "path" in target:
        lines.append(f'            path: "{relative}",')
    if target.get("exclude"):
        lines.append("            exclude: [" + ", ".join(swift_string(item) for item in target["exclude"]) + "],")
    if target.get("plugins"):
        entries = []
        for plugin in target["plugins"]:
            name, _, external = plugin.partition("@")
            if external:
                # An external package's build tool plugin (OpenAPIGenerator@swift-openapi-generator).
                entries.append(f'.plugin(name: "{name}", package: "{external}")')
                continue
            owner = table.owner[plugin]
            if in_root or owner is package:
                entries.append(f'.plugin(name: "{plugin}")')
            else:
                entries.append(f'.plugin(name: "{plugin}", package: "{owner["name"]}")')
        lines.append("            plugins: [" + ", ".join(entries) + "],")
    if target.get("resources"):
        lines.append("            resources: [")
        lines += [f"                .embedInCode({swift_string(item)})," for item in target["resources"]]
        lines.append("            ],")
    lines[-1] = lines[-1].rstrip(",")
    if lines[-1].strip().startswith("name:"):  # nothing but a name: one line
        lines[-2:] = [f'{lines[-2]}{lines[-1].strip()}),']
    else:
        lines.append("        ),")
    return lines


def package_header(table: Table, name: str, intro: list) -> list:
    platforms = ", ".join(table.data["platforms"])
    return [
        f"// swift-tools-version: {TOOLS_VERSION}",
        HEADER,
        *intro,
        "import PackageDescription",
        "",
        "let package = Package(",
        f'    name: "{name}",',
        f"    platforms: [{platforms}],",
    ]


def trait_lines(table: Table, names: list) -> list:
    lines = ["    traits: ["]
    for name in names:
        lines += [
            "        .trait(",
            f'            name: "{name}",',
            f"            description: {swift_string(table.traits[name]['description'])}",
            "        ),",
        ]
    # A trait with `default = false` in the table is off unless a user (or Prism's own builds,
    # Tools/scripts/swift-root.sh) turns it on: what only some apps want, fetched only by them.
    defaults = [name for name in names if table.traits[name].get("default", True)]
    lines.append("        .default(enabledTraits: [" + ", ".join(swift_string(name) for name in defaults) + "]),")
    lines.append("    ],")
    return lines


def external_line(external: dict) -> list:
    lines = comment(external["why"], " " * 8) if external.get("why") else []
    traits = external.get("traits")
    if traits:
        listed = ", ".join(swift_string(trait) for trait in traits)
        lines.append(f'        .package(url: "{external["url"]}", from: "{external["from"]}", traits: [{listed}]),')
    else:
        lines.append(f'        .package(url: "{external["url"]}", from: "{external["from"]}"),')
    return lines


def nested_manifest(table: Table, package: dict) -> str:
    targets = package["target"]
    intro = comment(package["why"], "") if package.get("why") else []
    lines = package_header(table, package["name"], intro)
    lines.append("    products: [")
    for library in table.libraries(package):
        lines.append(f'        .library(name: "{library}", targets: ["{library}"]),')
    for executable in package.get("executables", []):
        lines.append(f'        .executable(name: "{executable}", targets: ["{executable}"]),')
    for plugin in package.get("plugins", []):
        lines.append(f'        .plugin(name: "{plugin}", targets: ["{plugin}"]),')
    lines.append("    ],")
    traits = table.used_traits(targets)
    if traits:
        lines += trait_lines(table, traits)
    # The packages its targets use: Prism's by path (in the table's order), then the others.
    used = [dependency for target in targets for dependency in table.dependencies(target)]
    local_names = {table.owner[name]["name"] for name, external, *_ in used if not external}
    external_names = {external for _, external, *_ in used if external}
    external_names |= {plugin.partition("@")[2] for target in targets for plugin in target.get("plugins", [])} - {""}
    here = ROOT / package["path"]
    dependency_lines_ = []
    for other in table.nested_packages():
        if other["name"] in local_names and other is not package:
            if other.get("why"):
                dependency_lines_ += comment(other["why"].split(":")[0] + ".", " " * 8)
            relative = os.path.relpath(ROOT / other["path"], here)
            dependency_lines_.append(f'        .package(path: "{relative}"),')
    for name, external in table.externals.items():
        if name in external_names:
            dependency_lines_ += external_line(external)
    if dependency_lines_:
        lines += ["    dependencies: ["] + dependency_lines_ + ["    ],"]
    lines.append("    targets: [")
    for target in targets:
        lines += target_lines(table, package, target, in_root=False)
    lines += ["    ],", "    swiftLanguageModes: [.v6]", ")", ""]
    return "\n".join(lines)


def root_manifest(table: Table) -> str:
    lines = package_header(table, "Prism", ROOT_INTRO.splitlines())
    lines += ["    " + line for line in ROOT_PRODUCTS_NOTE.splitlines()]
    lines.append("    products: [")
    root = table.root_package()
    libraries = list(table.libraries(root))
    for package in table.nested_packages():
        if package.get("root-product", True):
            libraries += table.libraries(package)
    for library in libraries:
        lines.append(f'        .library(name: "{library}", targets: ["{library}"]),')
    for package in table.nested_packages():
        for plugin in package.get("plugins", []):
            lines.append(f'        .plugin(name: "{plugin}", targets: ["{plugin}"]),')
    lines.append("    ],")
    lines += ["    " + line for line in ROOT_TRAITS_NOTE.splitlines()]
    lines += trait_lines(table, list(table.traits))
    lines.append("    dependencies: [")
    for external in table.externals.values():
        lines += external_line(external)
    lines.append("    ],")
    lines.append("    targets: [")
    for package in table.packages:
        for target in package["target"]:
            lines += target_lines(table, package, target, in_root=True)
    while lines[-1] == "":
        lines.pop()
    lines += ["    ],", "    swiftLanguageModes: [.v6]", ")"]
    return "\n".join(lines) + "\n" + ROOT_TRAILER


def formatted(text: str) -> str:
    result = subprocess.run(
        ["swift", "format", "format", "--configuration", str(ROOT / ".swift-format")],
        input=text, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"generate-manifests: swift format failed:\n{result.stderr}\n{text}")
    return result.stdout


def manifests(table: Table) -> dict:
    result = {ROOT / "Package.swift": formatted(root_manifest(table))}
    for package in table.nested_packages():
        result[ROOT / package["path"] / "Package.swift"] = formatted(nested_manifest(table, package))
    return result


def module_list_problems(table: Table) -> list:
    """Every other list of the modules, against the table."""
    problems = []
    packages = [package for package in table.nested_packages() if package["path"].startswith("Packages/")]
    makefile = (ROOT / "Makefile").read_text()

    def make_list(name: str) -> list:
        match = re.search(rf"^{name} := (.*)$", makefile, re.M)
        return match.group(1).split() if match else []

    expected = [package["name"] for package in packages]
    if make_list("PACKAGES") != expected:
        problems.append(f"Makefile: PACKAGES is {make_list('PACKAGES')}; the table's packages under Packages/ are {expected}")
    tsan = [package["name"] for package in packages if package.get("tsan")]
    if make_list("TSAN_PACKAGES") != tsan:
        problems.append(f"Makefile: TSAN_PACKAGES is {make_list('TSAN_PACKAGES')}; the table marks {tsan} tsan")

    # The products users can depend on: not those of a package the root does not offer (PrismSupport).
    products = [library for package in packages if package.get("root-product", True)
                for library in table.libraries(package)]
    api_check = (ROOT / "Tools/scripts/api-check.sh").read_text()
    match = re.search(r'^default_products="([^"]*)"', api_check, re.M)
    checked = match.group(1).split() if match else []
    if sorted(checked) != sorted(products):
        problems.append(f"api-check.sh: checks {sorted(checked)}; the library products of Packages/ are {sorted(products)}")

    readme = (ROOT / "README.md").read_text()
    rows = set(re.findall(r"^\| `(\w+)` \|", readme.split("## Modules", 1)[-1], re.M))
    every_library = list(table.libraries(table.root_package())) + products
    missing = [library for library in every_library if library not in rows]
    if missing:
        problems.append(f"README.md: the Modules table has no row for {missing}")

    groups = (ROOT / "Tools/scripts/test-in-groups.sh").read_text()
    tests = {name for name, target in table.targets.items() if table.kind(target) == "test"}
    # PrismPackageTests is SwiftPM's test bundle (every test target of the root), not a target.
    unknown = sorted(set(re.findall(r"\b(Prism\w*Tests)\b", groups)) - tests - {"PrismPackageTests"})
    if unknown:
        problems.append(f"test-in-groups.sh: names {unknown}, which are not test targets of the table")

    # Every folder of sources belongs to a target of the table.
    for folder in ("Packages/*/Sources/*", "Packages/*/Tests/*", "Tools/*/Sources/*", "Tools/*/Tests/*"):
        for path in ROOT.glob(folder):
            package = next((p for p in table.nested_packages() if ROOT / p["path"] == path.parents[1]), None)
            if package is None or not any(ROOT / package["path"] / table.relative_path(t) == path for t in package["target"]):
                if path.parents[1].joinpath("Package.swift").exists():
                    problems.append(f"{path.relative_to(ROOT)}: no target of the table builds it")
    return problems


def main() -> int:
    check = "--check" in sys.argv[1:]
    table = Table(tomllib.loads((ROOT / TABLE).read_text()))
    problems = []
    for path, text in manifests(table).items():
        relative = path.relative_to(ROOT)
        current = path.read_text() if path.exists() else ""
        if current == text:
            continue
        if check:
            diff = "".join(difflib.unified_diff(
                current.splitlines(keepends=True), text.splitlines(keepends=True),
                f"{relative} (committed)", f"{relative} (from {TABLE})", n=1))
            problems.append(f"{relative} differs from what {TABLE} generates (run `make manifests`):\n{diff}")
        else:
            path.write_text(text)
            print(f"wrote {relative}")
    problems += module_list_problems(table)
    for problem in problems:
        print(f"generate-manifests: {problem}", file=sys.stderr)
    if check and not problems:
        count = sum(len(package["target"]) for package in table.packages)
        print(f"generate-manifests: the {len(table.packages)} manifests are what {TABLE} generates ({count} targets)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
