#!/usr/bin/env python3
"""usage: summarize.py RESULTDIR...  -- per-stage tables from rounds.sh output."""
import re, sys, glob, os, statistics as st

REC = ["rasterize", "filters", "compact", "erode", "regions", "contours", "polymesh", "detail", "whole"]
MAP = [  # (label, recast stages, navscope stages)
    ("rasterize ~ voxelize", ["rasterize"], ["voxelize"]),
    ("filters+compact ~ compact", ["filters", "compact"], ["compact"]),
    ("erode ~ flag", ["erode"], ["flag"]),
    ("regions(+dist) ~ regions", ["regions"], ["regions"]),
    ("contours ~ contours+simplify", ["contours"], ["contours", "simplify"]),
    ("polymesh ~ triangulate+polymesh", ["polymesh"], ["triangulate", "polymesh"]),
    ("detail ~ detail", ["detail"], ["detail"]),
]
EXTRA = ["tiles", "graph", "movers", "drops"]

def parse_recast(path):
    d = {}
    for line in open(path):
        m = re.match(r"\s+(\w+)\s+([\d.]+)$", line)
        if m: d[m.group(1)] = float(m.group(2))
        m = re.match(r"\s+whole min\s+([\d.]+)", line)
        if m: d["whole_min"] = float(m.group(1))
        m = re.match(r"polygons (\d+)", line)
        if m: d["polys"] = int(m.group(1))
    return d

def parse_ns(path):
    d = {}
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("level") and "median ms" in line and "min ms" in line:
            f = lines[i + 2].split()
            d["whole"], d["whole_min"], d["nodes"], d["links"], d["area"] = float(f[2]), float(f[3]), int(f[4]), int(f[5]), float(f[6])
        f = line.split()
        if len(f) == 4 and f[1] == "base":
            try: d[f[2]] = float(f[3])
            except ValueError: pass
    return d

def load(path):
    try:
        s = open(path).read()
        return float(re.search(r"load average: ([\d.]+)", s).group(1))
    except Exception:
        return float("nan")

def summarize(dirpath):
    rounds = sorted({int(re.search(r"r(\d+)-", os.path.basename(p)).group(1)) for p in glob.glob(dirpath + "/r*-recast.txt")})
    R = [parse_recast(f"{dirpath}/r{i}-recast.txt") for i in rounds]
    N = [parse_ns(f"{dirpath}/r{i}-navscope.txt") for i in rounds]
    L = [load(f"{dirpath}/r{i}-recast.load") for i in rounds] + [load(f"{dirpath}/r{i}-navscope.load") for i in rounds]
    print(f"## {os.path.basename(dirpath)}  ({len(rounds)} rounds each, interleaved; 1-min load min/median/max {min(L):.2f}/{st.median(L):.2f}/{max(L):.2f})")
    print(f"polygons: Recast {sorted({r.get('polys') for r in R})}, navscope nodes {sorted({n.get('nodes') for n in N})}")
    hdr = f"| {'stage (Recast ~ navscope)':34} | Recast least | navscope least | ratio | Recast med-of-rounds | navscope med-of-rounds | ratio | median per-round ratio |"
    print(hdr); print("|" + "---|" * 8)
    def row(label, rs, ns):
        rv = [sum(r.get(s, 0.0) for s in rs) for r in R]
        nv = [sum(n.get(s, 0.0) for s in ns) for n in N]
        if max(rv) == 0 and max(nv) == 0: return
        pr = [b / a if a else float('nan') for a, b in zip(rv, nv)]
        print(f"| {label:34} | {min(rv):8.3f} | {min(nv):8.3f} | {min(nv)/min(rv) if min(rv) else float('nan'):5.2f} | {st.median(rv):8.3f} | {st.median(nv):8.3f} | {st.median(nv)/st.median(rv) if st.median(rv) else float('nan'):5.2f} | {st.median(pr):5.2f} |")
    for label, rs, ns in MAP: row(label, rs, ns)
    row("whole build (median of 15)", ["whole"], ["whole"])
    row("whole build (min of 15)", ["whole_min"], ["whole_min"])
    ex = ", ".join(f"{s} {min(n.get(s,0) for n in N):.3f}/{st.median([n.get(s,0) for n in N]):.3f}" for s in EXTRA)
    print(f"navscope stages without Recast counterpart (least/median-of-rounds ms): {ex}")
    ssum = [sum(n.get(s, 0) for s in ["tiles","voxelize","compact","flag","regions","contours","simplify","triangulate","polymesh","detail","graph","movers","drops"]) for n in N]
    print(f"navscope sum of printed stage medians (least/median-of-rounds): {min(ssum):.3f}/{st.median(ssum):.3f}")
    print("per-round 1-min load (recast, navscope): " + ", ".join(f"{load(f'{dirpath}/r{i}-recast.load'):.2f}/{load(f'{dirpath}/r{i}-navscope.load'):.2f}" for i in rounds))
    print()

for d in sys.argv[1:]:
    summarize(d.rstrip("/"))
