#!/usr/bin/env python3
"""Compares the public API of Prism's library modules with the last release's, and fails on a
breaking change that CHANGELOG.md's Unreleased section does not name.

    Tools/scripts/api-check.py check MODULE...      compare with Tools/API/MODULE.json
    Tools/scripts/api-check.py update MODULE...     write the current API there (a release step)
    Tools/scripts/api-check.py self-test MODULE     show that the check fails on a breaking change
                                                    CHANGELOG.md does not name, and passes once it
                                                    does (make api-check runs it every time)

Run by Tools/scripts/api-check.sh (`make api-check`, `make api-baseline`), after a debug build of
the root (`make test` makes it; nothing is built here). The baseline is what swift-api-digester
dumps of each module (`-dump-sdk`), committed in Tools/API/ with the release it describes
(Tools/API/README.md): no build of an older commit is needed to compare. The current API is read
from the modules in .build/debug/Modules, with the C modules' maps the build used
(.build/debug.yaml), and compared with `-diagnose-sdk`. `@_spi(PrismInternals)` declarations are
not public API (README.md, "Versioning") and are not compared.

A breaking change is named in CHANGELOG.md when the text of its "## Unreleased" section holds
the changed declaration as `Type.member` (the last two parts of the name the digester gives, for
`PrismHTTPError.Code.timedOut`: `Code.timedOut`), or a top-level type's name.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASELINE = ROOT / "Tools/API"
SPI_GROUPS = ["PrismInternals"]
BREAKAGE = re.compile(r"API breakage: (?P<kind>[\w ]+?) (?P<name>[A-Za-z_][\w.]*)(?P<rest>.*)")


def digester_arguments():
    """The module search paths of the debug build: its Modules folder and every C module map."""
    manifest = ROOT / ".build/debug.yaml"
    modules = ROOT / ".build/debug/Modules"
    if not manifest.exists() or not modules.is_dir():
        sys.exit("api-check: no debug build of the root; run `make build-tests` (or make test) first")
    arguments = ["-I", str(modules)]
    maps = sorted(set(re.findall(r"-fmodule-map-file=([^\"]+)", manifest.read_text())))
    for module_map in maps:
        if "-tool.build" in module_map or not os.path.exists(module_map):
            continue
        arguments += ["-I", os.path.dirname(module_map)]
    return arguments


def digester(*arguments):
    return subprocess.run(
        ["swift-api-digester", *arguments], capture_output=True, text=True, check=False
    )


def breakages(module, baseline_dir, arguments):
    """The breaking changes of `module` against its baseline, as the digester words them."""
    baseline = baseline_dir / f"{module}.json"
    if not baseline.exists():
        return None
    spi = [flag for group in SPI_GROUPS for flag in ("-ignore-spi-group", group)]
    result = digester(
        "-diagnose-sdk", "-compiler-style-diags", "-baseline-path", str(baseline), "-module", module,
        *spi, *arguments,
    )
    output = result.stdout + result.stderr
    if "Failed to load module" in output:
        raise SystemExit(f"api-check: swift-api-digester could not load {module}:\n{output}")
    found = []
    for line in output.splitlines():
        match = BREAKAGE.search(line)
        if match:
            found.append(match.group(0).split(" [#api-digester")[0])
    return found


def unreleased(changelog):
    text = changelog.read_text()
    match = re.search(r"^## Unreleased\n(.*?)(?=^## )", text, re.S | re.M)
    return match.group(1) if match else ""


def required_mention(breakage):
    """What CHANGELOG.md must say for `breakage`: `Type.member`, or a top-level type's name."""
    match = BREAKAGE.search(breakage)
    parts = match.group("name").split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 else parts[0]


def check(modules, baseline_dir=BASELINE, changelog=ROOT / "CHANGELOG.md", quiet=False):
    """Prints each module's breaking changes and whether CHANGELOG.md names them; True if all are."""
    arguments = digester_arguments()
    notes = unreleased(changelog)
    unnamed = []
    for module in modules:
        found = breakages(module, baseline_dir, arguments)
        if found is None:
            if not quiet:
                print(f"api-check: {module}: no baseline (new since the last release)")
            continue
        if not quiet:
            print(f"api-check: {module}: {len(found)} breaking changes")
        for breakage in found:
            mention = required_mention(breakage)
            named = mention in notes
            if not quiet:
                print(f"  {breakage}\n    CHANGELOG.md, Unreleased: {'names' if named else 'does not name'} `{mention}`")
            if not named:
                unnamed.append((breakage, mention))
    if unnamed:
        print(
            f"api-check: {len(unnamed)} breaking changes are not in CHANGELOG.md's Unreleased section. Name each "
            "(as `Type.member`) and say what users do instead, or keep the API:",
            file=sys.stderr,
        )
        for breakage, mention in unnamed:
            print(f"  `{mention}`: {breakage}", file=sys.stderr)
        return False
    return True


def update(modules):
    arguments = digester_arguments()
    BASELINE.mkdir(parents=True, exist_ok=True)
    for module in modules:
        output = BASELINE / f"{module}.json"
        result = digester("-dump-sdk", "-avoid-location", "-avoid-tool-args", "-module", module, "-o", str(output), *arguments)
        if result.returncode != 0 or not output.exists():
            raise SystemExit(f"api-check: could not dump {module}:\n{result.stdout}{result.stderr}")
        print(f"api-check: wrote {output.relative_to(ROOT)}")


def self_test(module):
    """A baseline where one public function of `module` has another name: the current API has
    'renamed' it, a breaking change. The check must fail while CHANGELOG.md does not name it and
    pass once it does."""
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        baseline = json.loads((BASELINE / f"{module}.json").read_text())
        renamed = []

        def rename(node, owner):
            if renamed:
                return
            spi = node.get("spi_group_names")
            if node.get("kind") == "Function" and not spi and node.get("name", "").isidentifier():
                old = node["name"]
                node["name"] = old + "Before"
                node["printedName"] = node["printedName"].replace(old + "(", old + "Before(", 1)
                renamed.append(f"{owner}.{old}Before")
                return
            for child in node.get("children", []):
                rename(child, node.get("name", owner))

        rename(baseline["ABIRoot"], module)
        if not renamed:
            raise SystemExit(f"api-check: self-test: {module} has no public function to rename")
        (folder / f"{module}.json").write_text(json.dumps(baseline))
        # The real Unreleased notes, which name the module's other breaking changes since the
        # baseline: the rename is the one change the first changelog leaves unnamed.
        notes = unreleased(ROOT / "CHANGELOG.md")
        changelog = folder / "CHANGELOG.md"
        changelog.write_text(f"# Changelog\n\n## Unreleased\n{notes}\n## 0.1.0\n")
        if check([module], folder, changelog, quiet=True):
            raise SystemExit(f"api-check: self-test: renaming {renamed[0]} was not reported as a breaking change")
        changelog.write_text(f"# Changelog\n\n## Unreleased\n{notes}\n- `{renamed[0]}` is renamed.\n\n## 0.1.0\n")
        if not check([module], folder, changelog, quiet=True):
            raise SystemExit(f"api-check: self-test: the breaking change named in CHANGELOG.md still failed the check")
        print(f"api-check: self-test: a baseline where {renamed[0]} exists fails the check until CHANGELOG.md names it")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("check", "update", "self-test"):
        sys.exit(__doc__)
    mode, modules = sys.argv[1], sys.argv[2:]
    if mode == "update":
        update(modules)
    elif mode == "self-test":
        # The self-test's own output goes to stderr only when it fails.
        sys.stderr, real = open(os.devnull, "w"), sys.stderr
        try:
            self_test(modules[0])
        finally:
            sys.stderr = real
    elif not check(modules):
        sys.exit(1)


if __name__ == "__main__":
    main()
