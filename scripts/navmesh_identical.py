#!/usr/bin/env python3
"""Checks that two folders of NavMesh JSON files (`navscope-cli build ...
--out F.json`) hold the same meshes, byte for byte, timings aside.

Every `*.json` file of BASE_DIR must exist in NEW_DIR (and the other way
round) and be byte-identical to it once the stages' timings, the values of
their `"ms"` keys, are blanked. It prints one line per differing or missing
file and a summary; exit 0 when all are identical, 1 otherwise, 2 on bad
arguments.

Usage: python3 scripts/navmesh_identical.py BASE_DIR NEW_DIR
"""

import os
import re
import sys

TIMING = re.compile(rb'"ms"\s*:\s*-?[0-9][0-9.eE+-]*')


def without_timings(data):
    """The file's bytes with every `"ms": number` made `"ms": 0`."""
    return TIMING.sub(b'"ms":0', data)


def first_difference(a, b):
    """Byte offset of the first difference of `a` and `b`."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def compare(base, new):
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
        a, b = (without_timings(open(p, "rb").read()) for p in paths)
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


def main(argv):
    if len(argv) != 2 or not all(os.path.isdir(d) for d in argv):
        print("usage: navmesh_identical.py BASE_DIR NEW_DIR (two folders)", file=sys.stderr)
        return 2
    return compare(argv[0], argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
