#!/usr/bin/env python3
"""The README's table of Quake maps: for each map and pipeline, whether the
player start reaches an exit (`navscope-cli routes`), the route's length,
the build time, the peak memory (`/usr/bin/time -v`) and the entities the
route uses.

    python3 scripts/quake_routes_table.py [CLI] [MAP...]

CLI defaults to target/release/navscope-cli; the maps to the shared
LibreQuake maps (../shared/data/quake-maps/librequake/*.map).
"""

import glob
import json
import os
import re
import subprocess
import sys


def run(cli, path, pipeline):
    proc = subprocess.run(
        ["/usr/bin/time", "-v", cli, "routes", path, "--pipeline", pipeline, "--json"],
        capture_output=True,
        text=True,
    )
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    mem = f"{int(peak.group(1)) // 1024} MB" if peak else "?"
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        problem = [l for l in proc.stderr.splitlines() if "Command being timed" not in l][:1]
        return ["failed", "", "", mem, " ".join(problem)]
    starts = [r for r in doc["routes"] if r["start"].startswith("info_player_start")]
    found = [r for r in starts if r["found"]]
    if found:
        best = min(found, key=lambda r: r["length"])
        return ["yes", f"{best['length']:.1f} m", f"{doc['build_s']:.2f} s", mem,
                ", ".join(best["uses"]) or "walking only"]
    return ["no", "", f"{doc['build_s']:.2f} s", mem, ""]


def main():
    args = sys.argv[1:]
    cli = args.pop(0) if args and not args[0].endswith(".map") else "target/release/navscope-cli"
    maps = args or sorted(glob.glob("../shared/data/quake-maps/librequake/*.map"))
    print("| map | pipeline | start reaches exit | route length | build | peak memory | entities the route uses |")
    print("|---|---|---|---|---|---|---|")
    for m in maps:
        for p in ["cspace", "voxel"]:
            cells = run(cli, m, p)
            print(f"| `{os.path.basename(m)}` | {p} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
