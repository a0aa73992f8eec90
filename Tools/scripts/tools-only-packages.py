#!/usr/bin/env python3
"""Which of Prism's dependencies only its own tools use, and whether a consumer fetched them.

The test server, the sample app, the benchmarks and the tests are targets of the root package
without a product. The external packages that only they use (Hummingbird, Graphiti, ...) must
never be fetched by a package that depends on Prism by URL.

Usage:
  tools-only-packages.py DUMP.json
      prints the root's external packages that no library or plugin product reaches (DUMP.json is
      `swift package dump-package` of Prism's root)
  tools-only-packages.py DUMP.json DEPENDENCIES.json CHECKOUTS
      prints those of them that a consumer fetched without a library needing them
      (DEPENDENCIES.json is the consumer's `swift package show-dependencies --format json`,
      CHECKOUTS the names in its .build/checkouts, one per line); exit 1 if there is any
"""
import json
import sys


# Targets that are tools whatever the manifest says of them: if a library product ever reached
# one, what it uses would still count as tools-only, and a consumer that fetched it fails.
TOOL_TARGETS = {"PrismTestServer", "PrismTestSupport"}


def tools_only(manifest: dict) -> set:
    targets = {target["name"]: target for target in manifest["targets"]}
    # Library products, and plugin products with the executables they run: SwiftPM resolves what
    # a dependency's plugins need whether or not a target uses them (GraphQLSwift, for the code
    # generator's plugins), so those packages are fetched by every consumer, though only built
    # for a target that uses the plugin.
    stack = [
        name
        for product in manifest["products"]
        if "library" in product["type"] or "plugin" in product["type"]
        for name in product["targets"]
    ]
    reached, used = set(), set()
    while stack:
        name = stack.pop()
        if (
            name in reached
            or name not in targets
            or name in TOOL_TARGETS
            or targets[name]["type"] not in ("regular", "plugin", "executable")
        ):
            continue
        reached.add(name)
        for dependency in targets[name]["dependencies"]:
            ((kind, value),) = dependency.items()
            if kind == "product":
                used.add(value[1].lower())
            else:
                stack.append(value[0])
    declared = {
        info["identity"].lower() for dependency in manifest["dependencies"] for info in dependency.get("sourceControl", [])
    }
    return declared - used


def needed_by_libraries(tree: dict, excluded: set) -> set:
    """Every package reachable from Prism's dependencies other than the tools-only ones."""
    needed, stack = set(), []
    for node in tree["dependencies"]:
        if node["identity"].lower() == "prism":
            stack.extend(child for child in node["dependencies"] if child["identity"].lower() not in excluded)
        else:
            stack.append(node)
    while stack:
        node = stack.pop()
        identity = node["identity"].lower()
        if identity in needed:
            continue
        needed.add(identity)
        stack.extend(node["dependencies"])
    return needed


def main() -> int:
    only = tools_only(json.load(open(sys.argv[1])))
    if len(sys.argv) == 2:
        print("\n".join(sorted(only)))
        return 0
    tree = json.load(open(sys.argv[2]))
    fetched = {line.strip().lower() for line in open(sys.argv[3]) if line.strip()}
    leaked = (fetched & only) - needed_by_libraries(tree, only)
    print("\n".join(sorted(leaked)))
    return 1 if leaked else 0


if __name__ == "__main__":
    sys.exit(main())
