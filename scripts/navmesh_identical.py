#!/usr/bin/env python3
"""Checks that two folders of NavMesh JSON files (`navscope-cli build ...
--out F.json`) hold the same meshes, byte for byte, timings aside.

Every `*.json` file of BASE_DIR must exist in NEW_DIR (and the other way
round) and be byte-identical to it once the stages' timings, the values of
their `"ms"` keys, are blanked. It prints one line per differing or missing
file and a summary; exit 0 when all are identical, 1 otherwise, 2 on bad
arguments.

`--write CLI OUT_DIR` writes such a folder first: the NavMesh of every
sample level under `assets/levels/` for each of the pipelines `cspace`,
`layers`, `navgraph`, `navgraph-nodes`, `convex` and `voxel` that accepts it
(directly or converted, as `CLI info LEVEL` lists them), one file per level
and pipeline.

Usage: python3 scripts/navmesh_identical.py BASE_DIR NEW_DIR [FORMER=CURRENT]...
       python3 scripts/navmesh_identical.py --write CLI OUT_DIR
"""

import os
import re
import subprocess
import sys

PIPELINES = ["cspace", "layers", "navgraph", "navgraph-nodes", "convex", "voxel"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = os.path.join("assets", "levels")

TIMING = re.compile(rb'"ms"\s*:\s*-?[0-9][0-9.eE+-]*')


STAGE_ID = re.compile(rb'("id"\s*:\s*")([^"]*)(")')


def without_timings(data):
    """The file's bytes with every `"ms": number` made `"ms": 0`."""
    return TIMING.sub(b'"ms":0', data)


def renamed(data, renames):
    """The file's bytes with every stage id of `renames` (former -> current)
    replaced by its current id."""
    if not renames:
        return data

    def one(m):
        current = renames.get(m.group(2).decode())
        return m.group(1) + current.encode() + m.group(3) if current else m.group(0)

    return STAGE_ID.sub(one, data)


def first_difference(a, b):
    """Byte offset of the first difference of `a` and `b`."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def compare(base, new, renames):
    """Prints the differences and a summary; returns the exit status."""
    names = sorted(
        f for f in set(os.listdir(base)) | set(os.listdir(new)) if f.endswith(".json")
    )
    bad = 0
    for name in names:
        paths = [os.path.join(base, name), os.path.join(new, name)]
        missing = [p for p in paths if not os.path.isfile(p)]
        if missing:
            bad += 1
            print(f"missing: {missing[0]}")
            continue
        a = renamed(without_timings(open(paths[0], "rb").read()), renames)
        b = without_timings(open(paths[1], "rb").read())
        if a != b:
            bad += 1
            at = first_difference(a, b)
            print(f"differs: {name} at byte {at}: {a[at:at + 60]!r} vs {b[at:at + 60]!r}")
    if not names:
        print(f"no NavMesh JSON files in {base} or {new}")
        return 1
    if bad:
        print(f"{bad} of {len(names)} files differ (timings aside)")
        return 1
    print(f"{len(names)} files compared, all identical (timings aside)")
    return 0


def accepted(cli, level):
    """The pipelines `cli info LEVEL` lists for a level (empty when it is
    not a level)."""
    info = subprocess.run([cli, "info", level], capture_output=True, text=True, cwd=ROOT)
    for line in info.stdout.splitlines():
        if line.startswith("pipelines"):
            names = line[len("pipelines"):].split(",")
            return {n.strip().removesuffix("(converted)").strip() for n in names}
    return set()


def write(cli, out):
    """Builds every sample level with every pipeline of PIPELINES that
    accepts it into `out`; returns the exit status (1 when a build fails).
    Levels are named relative to the repository, as the JSON records them."""
    cli, out = os.path.abspath(cli), os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    written, failed = 0, 0
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, LEVELS))):
        for f in sorted(files):
            level = os.path.relpath(os.path.join(folder, f), ROOT)
            rel = os.path.relpath(level, LEVELS)
            for p in [p for p in PIPELINES if p in accepted(cli, level)]:
                name = rel.replace(os.sep, "__") + "__" + p + ".json"
                run = subprocess.run(
                    [cli, "build", level, "--pipeline", p, "--out", os.path.join(out, name)],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                )
                if run.returncode == 0:
                    written += 1
                else:
                    failed += 1
                    print(f"build failed: {rel} {p}: {run.stderr.strip()}")
    print(f"{written} meshes written to {out}")
    return 1 if failed else 0


def main(argv):
    if len(argv) == 3 and argv[0] == "--write":
        return write(argv[1], argv[2])
    dirs, pairs = argv[:2], argv[2:]
    if (
        len(dirs) != 2
        or not all(os.path.isdir(d) for d in dirs)
        or not all("=" in p for p in pairs)
    ):
        print(
            "usage: navmesh_identical.py BASE_DIR NEW_DIR [FORMER=CURRENT]... | --write CLI OUT_DIR",
            file=sys.stderr,
        )
        return 2
    return compare(dirs[0], dirs[1], dict(p.split("=", 1) for p in pairs))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
