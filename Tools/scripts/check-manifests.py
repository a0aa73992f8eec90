#!/usr/bin/env python3
"""Checks that the nested packages and the root manifest say the same thing.

Every module of Prism is declared twice: in its own package (Packages/<Name>, Tools/<Name>,
Apps/<Name>), which builds and tests alone, and in the root manifest, which users depend on and
which builds everything at once. This script reads both with `swift package dump-package` and
fails when they disagree:

  1. a target declared by both has the same dependencies (targets, products of other packages,
     and their platform and trait conditions);
  2. a target of the root whose sources are in a nested package is declared by that package too;
  3. every library product of a package under Packages/ is a product of the root, with the same
     targets;
  4. an external package is required from the same minimum version, with the same traits,
     wherever it is declared (the root and every nested package);
  5. the other lists of the modules agree with the manifests: the Makefile's PACKAGES are the
     packages under Packages/ (and TSAN_PACKAGES some of them), api-check.sh checks every library
     product whose sources are in Packages/, README.md's Modules table has a row for every
     library product, and test-in-groups.sh names only test targets that exist.

Usage: Tools/scripts/check-manifests.py [ROOT]   (exit 1 and a list of differences on failure)
"""

import json
import re
import pathlib
import subprocess
import sys


def dump(path: pathlib.Path) -> dict:
    result = subprocess.run(
        ["swift", "package", "dump-package", "--package-path", str(path)],
        check=False,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.exit(f"check-manifests: cannot read {path}/Package.swift:\n{result.stderr}")
    return json.loads(result.stdout)


def condition_text(condition) -> str:
    if not condition:
        return ""
    parts = []
    platforms = condition.get("platformNames") or []
    if platforms:
        parts.append("platforms=" + ",".join(sorted(platforms)))
    traits = condition.get("traits") or []
    if traits:
        parts.append("traits=" + ",".join(sorted(traits)))
    return " when " + " ".join(parts) if parts else ""


def local_packages(manifest: dict) -> set:
    """Identities (lowercased names) of the packages a manifest names by path."""
    names = set()
    for dependency in manifest["dependencies"]:
        for info in dependency.get("fileSystem", []):
            names.add(info["identity"].lower())
    return names


def normalized_dependencies(target: dict, locals_: set) -> set:
    """A target's dependencies, with a sibling package's product counted as a target."""
    result = set()
    for dependency in target["dependencies"]:
        (kind, value), = dependency.items()
        if kind == "product":
            name, package, _aliases, condition = value
            if package.lower() in locals_:
                result.add(f"{name}{condition_text(condition)}")
            else:
                result.add(f"{name} (from {package.lower()}){condition_text(condition)}")
        else:  # byName or target
            name, condition = value
            result.add(f"{name}{condition_text(condition)}")
    return result


def requirements(manifest: dict) -> dict:
    """identity -> (lower bound, traits) of every external package a manifest requires."""
    result = {}
    for dependency in manifest["dependencies"]:
        for info in dependency.get("sourceControl", []):
            requirement = info["requirement"]
            if "range" in requirement:
                lower = requirement["range"][0]["lowerBound"]
            elif "exact" in requirement:
                lower = "exactly " + requirement["exact"][0]
            else:
                lower = json.dumps(requirement)
            traits = sorted(trait["name"] for trait in info.get("traits") or [])
            url = info["location"]["remote"][0]["urlString"]
            result[info["identity"].lower()] = (lower, ",".join(traits), url)
    return result


def target_source(root: pathlib.Path, target: dict) -> pathlib.Path | None:
    path = target.get("path")
    return (root / path).resolve() if path else None


def module_list_problems(root: pathlib.Path, manifest: dict) -> list:
    """Rule 5: every other list of the modules against the manifests."""
    problems = []
    packages = {path.parent.name for path in root.glob("Packages/*/Package.swift")}
    makefile = (root / "Makefile").read_text()

    def make_list(name: str) -> list:
        match = re.search(rf"^{name} := (.*)$", makefile, re.M)
        return match.group(1).split() if match else []

    if set(make_list("PACKAGES")) != packages:
        problems.append(
            f"Makefile PACKAGES is {sorted(make_list('PACKAGES'))}, the packages under Packages/ are {sorted(packages)}")
    if not set(make_list("TSAN_PACKAGES")) <= packages:
        problems.append(f"Makefile TSAN_PACKAGES names {sorted(set(make_list('TSAN_PACKAGES')) - packages)}, not packages")

    targets = {target["name"]: target for target in manifest["targets"]}
    libraries = [product for product in manifest["products"] if "library" in product["type"]]
    module_products = {
        product["name"] for product in libraries
        if any(targets[name].get("path", "").startswith("Packages/") for name in product["targets"])
    }
    api_check = (root / "Tools/scripts/api-check.sh").read_text()
    match = re.search(r'^default_products="([^"]*)"', api_check, re.M)
    checked = set(match.group(1).split()) if match else set()
    if checked != module_products:
        problems.append(
            f"api-check.sh checks {sorted(checked)}; the library products of Packages/ are {sorted(module_products)}")

    readme = (root / "README.md").read_text()
    table = readme.split("## Modules", 1)[-1]
    rows = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    missing = {product["name"] for product in libraries} - rows
    if missing:
        problems.append(f"README.md's Modules table has no row for {sorted(missing)}")

    groups = (root / "Tools/scripts/test-in-groups.sh").read_text()
    named = set(re.findall(r"\b(Prism\w*Tests)\b", groups))
    unknown = named - {name for name, target in targets.items() if target["type"] == "test"}
    if unknown:
        problems.append(f"test-in-groups.sh names {sorted(unknown)}, which are not test targets")
    return problems


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    nested_dirs = sorted(
        path.parent
        for pattern in ("Packages/*/Package.swift", "Tools/*/Package.swift", "Apps/*/Package.swift")
        for path in root.glob(pattern)
    )
    root_manifest = dump(root)
    root_locals = local_packages(root_manifest)
    root_targets = {target["name"]: target for target in root_manifest["targets"]}
    root_products = {product["name"]: product for product in root_manifest["products"]}
    problems = []
    all_requirements = {"Package.swift": requirements(root_manifest)}

    for directory in nested_dirs:
        relative = directory.relative_to(root)
        manifest = dump(directory)
        locals_ = local_packages(manifest)
        all_requirements[f"{relative}/Package.swift"] = requirements(manifest)
        nested_targets = {target["name"]: target for target in manifest["targets"]}

        # 1. Targets both declare depend on the same things.
        for name, target in nested_targets.items():
            if name not in root_targets:
                continue
            ours = normalized_dependencies(root_targets[name], root_locals)
            theirs = normalized_dependencies(target, locals_)
            if ours != theirs:
                only_root = sorted(ours - theirs)
                only_nested = sorted(theirs - ours)
                problems.append(
                    f"target {name}: its dependencies differ between Package.swift and {relative}/Package.swift"
                    + (f"\n      only in Package.swift: {', '.join(only_root)}" if only_root else "")
                    + (f"\n      only in {relative}: {', '.join(only_nested)}" if only_nested else "")
                )

        # 2. A root target whose sources are in this package is declared by this package.
        for name, target in root_targets.items():
            source = target_source(root, target)
            if source and directory.resolve() in source.parents and name not in nested_targets:
                problems.append(
                    f"target {name}: Package.swift builds it from {source.relative_to(root)}, "
                    f"but {relative}/Package.swift does not declare it"
                )

        # 3. A library of a package under Packages/ is a product of the root.
        if relative.parts[0] == "Packages":
            for product in manifest["products"]:
                if "library" not in product["type"]:
                    continue
                theirs = sorted(product["targets"])
                ours = root_products.get(product["name"])
                if ours is None:
                    problems.append(f"product {product['name']} of {relative} is not a product of Package.swift")
                elif sorted(ours["targets"]) != theirs:
                    problems.append(
                        f"product {product['name']}: targets {sorted(ours['targets'])} in Package.swift, "
                        f"{theirs} in {relative}/Package.swift"
                    )

    # 4. Each external package: one minimum version and one set of traits everywhere.
    by_identity = {}
    for manifest_name, requirement_map in all_requirements.items():
        for identity, (lower, traits, url) in requirement_map.items():
            by_identity.setdefault(identity, []).append((manifest_name, lower, traits, url))
    for identity, uses in sorted(by_identity.items()):
        versions = {(lower, traits) for _, lower, traits, _ in uses}
        if len(versions) > 1:
            lines = "\n".join(
                f"      {name}: from {lower}" + (f", traits {traits}" if traits != "default" else "")
                for name, lower, traits, _ in uses
            )
            problems.append(f"package {identity} is required differently:\n{lines}")

    problems += module_list_problems(root, root_manifest)

    if problems:
        print("check-manifests: the manifests disagree:")
        for problem in problems:
            print("  - " + problem)
        print("Make them agree: Package.swift and each nested package declare the same targets the same way.")
        return 1
    print(f"check-manifests: Package.swift and {len(nested_dirs)} nested packages agree.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
