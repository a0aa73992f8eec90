#!/usr/bin/env python3
"""Checks that the committed OpenAPI client is what `make openapi-generate` wrote from the
files that are there now (make lint).

PrismOpenAPITests compiles a client swift-openapi-generator made from its openapi.yaml and
openapi-generator-config.yaml, committed in OpenAPIGenerated/ (Tools/scripts/generate-openapi.sh
says why). The script that writes it also writes OpenAPIGenerated/openapi.sha256: the
generator's version, and the SHA-256 of the two inputs and of every file written. This check
fails when an input changed without the code being written anew, or a written file was edited
or removed, and says what to run.

(The GraphQL code committed in GraphQLGenerated/ folders needs no stamp: PrismGraphQLCodegenTests'
"committed generated code" test runs the generator on each such target and compares.)

    check-generated.py                          check (make lint)
    check-generated.py --write-openapi-stamp V  write the stamp (generate-openapi.sh, generator V)
"""

import hashlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = ROOT / "Packages/PrismOpenAPI/Tests/PrismOpenAPITests"
OUTPUT = TARGET / "OpenAPIGenerated"
STAMP = OUTPUT / "openapi.sha256"
INPUTS = ["openapi.yaml", "openapi-generator-config.yaml"]
HEADER = (
    "# Written by make openapi-generate (Tools/scripts/generate-openapi.sh): what the files of\n"
    "# this folder were made from, and what they were. Tools/scripts/check-generated.py (make lint)\n"
    "# compares. Do not edit.\n"
)


def digest(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def expected_lines() -> list[str]:
    lines = [f"input {name} {digest(TARGET / name)}" for name in INPUTS]
    lines += [f"output {path.name} {digest(path)}" for path in sorted(OUTPUT.glob("*.swift"))]
    return lines


def write_stamp(version: str) -> int:
    STAMP.write_text(HEADER + f"generator swift-openapi-generator {version}\n" + "\n".join(expected_lines()) + "\n")
    return 0


def check() -> int:
    fix = "run `make openapi-generate` (Tools/scripts/generate-openapi.sh) and commit what it writes"
    relative = STAMP.relative_to(ROOT)
    if not STAMP.is_file():
        print(f"check-generated: {relative} is missing: {fix}")
        return 1
    recorded = [line for line in STAMP.read_text().splitlines() if line and not line.startswith("#")]
    recorded = [line for line in recorded if not line.startswith("generator ")]
    now = expected_lines()
    if recorded == now:
        return 0
    recorded_set, now_set = set(recorded), set(now)
    for line in recorded:
        if line not in now_set:
            kind, name, _ = line.split(" ", 2)
            what = "changed" if (TARGET / name if kind == "input" else OUTPUT / name).exists() else "is gone"
            where = name if kind == "input" else f"OpenAPIGenerated/{name}"
            print(f"check-generated: {where} {what} since the client was generated")
    for line in now:
        if line not in recorded_set and line.split(" ", 2)[1] not in {r.split(" ", 2)[1] for r in recorded}:
            print(f"check-generated: OpenAPIGenerated/{line.split(' ', 2)[1]} was not written by the generator")
    print(f"check-generated: {relative} does not match: {fix}")
    return 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--write-openapi-stamp":
        sys.exit(write_stamp(sys.argv[2]))
    if len(sys.argv) != 1:
        print(__doc__)
        sys.exit(64)
    sys.exit(check())
