#!/bin/bash
# usage: scripts/navmesh_identical.sh BASE_DIR NEW_DIR [FORMER=CURRENT]...
#
# Compares the NavMesh JSON files (`navscope-cli build ... --out F.json`)
# of BASE_DIR with the files of the same name in NEW_DIR byte for byte,
# timings aside: the lines of each stage's "ms" and of every metric whose
# name says it is a time (ends in "ms", "us" or "seconds", or holds the
# word "time") are left out of both. Each
# FORMER=CURRENT renames a stage id of BASE_DIR's files before comparing
# (for a build from before a stage was renamed).
# Prints one line per file and exits 1 when any differs or is missing.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
exec python3 - "$@" <<'PY'
import os, re, sys
base, new = sys.argv[1], sys.argv[2]
renames = dict(a.split('=', 1) for a in sys.argv[3:])
# The writer puts one field a line: a timing is a line of its own.
timing = re.compile(rb'^\s*"(ms|[^"\n]*(\btime\b|[ _.-](ms|us|seconds)))":')

def stripped(path, rename):
    out = []
    with open(path, 'rb') as f:
        for line in f:
            if timing.match(line):
                continue
            if rename:
                m = re.match(rb'^(\s*"id": ")([^"]*)(",?\s*)$', line)
                if m and m.group(2).decode() in renames:
                    line = m.group(1) + renames[m.group(2).decode()].encode() + m.group(3)
            out.append(line)
    return b''.join(out)

bad = 0
names = sorted(n for n in os.listdir(base) if n.endswith('.json'))
for n in names:
    p = os.path.join(new, n)
    if not os.path.exists(p):
        print(f'MISSING {n}'); bad += 1; continue
    same = stripped(os.path.join(base, n), True) == stripped(p, False)
    print(('identical ' if same else 'DIFFERS   ') + n)
    bad += not same
print(f'{len(names) - bad} of {len(names)} identical')
sys.exit(1 if bad else 0)
PY
