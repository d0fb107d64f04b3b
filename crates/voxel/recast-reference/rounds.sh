#!/bin/bash
# usage: rounds.sh OUTDIR ROUNDS MESH PARTITION detail|nodetail [NAVSCOPE_CLI]
#
# Interleaves Recast (./driver, see build.sh) and navscope-cli, both pinned
# to core 1 and one thread, ROUNDS times; each round is a median of 15
# whole builds of ../shared/data/recast-meshes/MESH.obj with the Recast
# demo settings, with the load average before each run. summarize.py
# OUTDIR prints the per-stage table.
#
# With TILE_SIZE=N in the environment navscope builds N-cell tiles on every
# core instead (not pinned, its thread pool at its default size), against
# Recast's single-thread build as before: issue #15's goal for tiles on
# both cores.
set -euo pipefail
OUT=$1; R=$2; M=$3; P=$4; D=$5
NS=${6:-target/release/navscope-cli}
HERE=$(cd "$(dirname "$0")" && pwd)
LEVEL=../shared/data/recast-meshes/$M.obj
EXTRA=(--set max_drop=0)
[ "$D" = nodetail ] && EXTRA+=(--set detail_sample_dist=0)
mkdir -p "$OUT"
for i in $(seq 1 "$R"); do
  { date -u +%T; uptime; } > "$OUT/r$i-recast.load"
  RAYON_NUM_THREADS=1 taskset -c 1 "$HERE/driver" "$LEVEL" "$P" "$D" 15 > "$OUT/r$i-recast.txt" 2>&1
  { date -u +%T; uptime; } > "$OUT/r$i-navscope.load"
  if [ "${TILE_SIZE:-0}" = 0 ]; then PIN=(env RAYON_NUM_THREADS=1 taskset -c 1); else PIN=(); fi
  "${PIN[@]}" "$NS" bench "$LEVEL" --pipeline voxel --runs 15 \
    --set passes=stand --set tile_size="${TILE_SIZE:-0}" --set reuse_tiles=false \
    --set cell_size=0.3 --set cell_height=0.2 --set stand.height=2.0 \
    --set stand.radius=0.6 --set stand.max_step=0.9 --set stand.max_slope=45 \
    --set max_error=0.39 --set max_edge_len=12 --set filter_ledge_spans=true \
    --set partition="$P" "${EXTRA[@]}" > "$OUT/r$i-navscope.txt" 2>&1
done
