#!/usr/bin/env python3
"""Runs the hostile and large inputs of issue #20 through navscope-cli and prints
one Markdown row each: exit status, wall time and peak memory (GNU time), and
the first line of the message.

Usage: python3 scripts/hostile_table.py [PATH/TO/navscope-cli] [WORK_DIR]
(defaults: target/release/navscope-cli, a navscope-hostile folder in the
temporary directory). The inputs are generated there once (a 1,000,000-corner
OBJ face is about 40 MB); every command is limited to 120 s.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

C = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/navscope-cli")
D = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(), "navscope-hostile")
os.makedirs(D, exist_ok=True)
os.chdir(D)
def gen(args, out):
    """Writes `out` with `navscope-cli generate ARGS`, unless it exists."""
    if not os.path.exists(out):
        subprocess.run([C, "generate"] + args + ["--out", out], check=False, capture_output=True)
def cube(lo, hi):
    """A Quake .map brush: the box from corner `lo` to corner `hi` (map units)."""
    (x0,y0,z0),(x1,y1,z1)=lo,hi
    return ("{\n"f"( {x0} {y0} {z0} ) ( {x0} {y0+1} {z0} ) ( {x0} {y0} {z0+1} ) a 0 0 0 1 1\n"
            f"( {x0} {y0} {z0} ) ( {x0} {y0} {z0+1} ) ( {x0+1} {y0} {z0} ) a 0 0 0 1 1\n"
            f"( {x0} {y0} {z0} ) ( {x0+1} {y0} {z0} ) ( {x0} {y0+1} {z0} ) a 0 0 0 1 1\n"
            f"( {x1} {y1} {z1} ) ( {x1} {y1+1} {z1} ) ( {x1+1} {y1} {z1} ) a 0 0 0 1 1\n"
            f"( {x1} {y1} {z1} ) ( {x1+1} {y1} {z1} ) ( {x1} {y1} {z1+1} ) a 0 0 0 1 1\n"
            f"( {x1} {y1} {z1} ) ( {x1} {y1} {z1+1} ) ( {x1} {y1+1} {z1} ) a 0 0 0 1 1\n}}\n")
def far_map(d):
    """A 32 m floor and a 2 m cube `d` metres off along both axes (32 units per metre)."""
    u=d*32
    return "{\n\"classname\" \"worldspawn\"\n"+cube((-512,-512,-16),(512,512,0))+cube((u,u,0),(u+64,u+64,64))+"}\n"
gen(["star","--vertices","100000"],"star100k.json")
gen(["big-floor-plan","--vertices","1000000"],"bfp1m.json")
gen(["maze","--width","1000","--height","1000"],"maze1000.json")
gen(["dotted-raster","--size","1000"],"dots1000.png")
gen(["dotted-raster","--size","2000"],"dots2000.png")
for d in (3000,10000,30000):
    open(f"far{d}.map","w").write(far_map(d))
if not os.path.exists("fifo"): os.mkfifo("fifo")
open("huge.json","w").write(json.dumps({"format":"navscope-floorplan","version":1,"outer":[[0,0],[1e140,0],[1e140,1e140],[0,1e140]]}))
if not os.path.exists("bigface.obj"):
    n=1000000
    with open("bigface.obj","w") as f:
        for i in range(n):
            a=2*math.pi*i/n; f.write("v %f 0 %f\n"%(50*math.cos(a),50*math.sin(a)))
        f.write("f "+" ".join(str(i+1) for i in range(n))+"\n")
open("quads.obj","w").write("v 0 0 0\nv 409 0 0\nv 409 0 409\nv 0 0 409\nf 1 4 3 2\nv 0 2900 0\nv 409 2900 0\nv 409 2900 409\nv 0 2900 409\nf 5 8 7 6\n")
if not os.path.exists("cubes20k.map"):
    c=cube((-64,-64,-16),(64,64,16))
    open("cubes20k.map","w").write("{\n\"classname\" \"worldspawn\"\n"+c*20000+"}\n")
open("cyl.ron","w").write('FloorPlan(outer: [(0, 0), (16, 0), (16, 12), (0, 12)], nodes: [(name: "a", at: (1, 1)), (name: "b", at: (15, 11)), (name: "c", at: (1, 11))], blockers: [cylinder(center: (8, 6), radius: 1e200)])\n')
rows = [
 ("star 100k vertices", ["info","star100k.json"]),
 ("star 100k vertices", ["build","star100k.json","--pipeline","convex","--out","o.json"]),
 ("big-floor-plan 1M vertices", ["info","bfp1m.json"]),
 ("maze 1000 x 1000", ["info","maze1000.json"]),
 ("floor + brush 3 km", ["build","far3000.map","--pipeline","cspace","--out","o.json"]),
 ("floor + brush 10 km", ["build","far10000.map","--pipeline","cspace","--out","o.json"]),
 ("floor + brush 30 km", ["build","far30000.map","--pipeline","cspace","--out","o.json"]),
 ("FIFO as the level", ["info","fifo"]),
 ("FIFO as the level", ["build","fifo","--pipeline","convex"]),
 ("square of side 1e140", ["build","huge.json","--pipeline","convex","--out","o.json"]),
 ("raster 1000^2, dot every 4 px", ["build","dots1000.png","--pipeline","navgraph","--set","agent_radius=0","--out","o.json"]),
 ("raster 2000^2, dot every 4 px", ["build","dots2000.png","--pipeline","navgraph","--set","agent_radius=0","--out","o.json"]),
 ("raster 2000^2, dot every 4 px, no JSON written", ["build","dots2000.png","--pipeline","navgraph","--set","agent_radius=0"]),
 ("OBJ face of 1,000,000 corners", ["build","bigface.obj","--pipeline","voxel","--out","o.json"]),
 ("OBJ 409 m quad + quad 2.9 km above", ["build","quads.obj","--pipeline","voxel","--out","o.json"]),
 ("20,000 identical cube brushes", ["build","cubes20k.map","--pipeline","cspace","--out","o.json"]),
 ("generate stacked-floors 1,000,000", ["generate","stacked-floors","--floors","1000000","--out","sf.json"]),
 ("cylinder blocker radius 1e200", ["build","cyl.ron","--pipeline","navgraph-nodes","--out","o.json"]),
]
print("| input | command | exit | wall s | peak MB | message (stderr, first line) |")
print("|---|---|---|---|---|---|")
for name, args in rows:
    cmd = ["/usr/bin/time","-f","TIME %e %M", "timeout","120", C] + args
    p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    lines=[l for l in p.stderr.splitlines() if not l.startswith("TIME ") and "Command exited" not in l and "Command terminated" not in l]
    tl=[l for l in p.stderr.splitlines() if l.startswith("TIME ")]
    wall, rss = (tl[-1].split()[1], int(tl[-1].split()[2])//1024) if tl else ("?","?")
    msg = (lines[0] if lines else "(none)")[:160]
    print(f"| {name} | `{' '.join(args)}` | {p.returncode} | {wall} | {rss} | {msg} |", flush=True)
