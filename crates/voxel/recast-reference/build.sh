#!/bin/bash
# Builds ./driver, the Recast side of issue #15's side-by-side timings, from
# Recast's own sources (zlib licence; not kept in this repository) with
# g++ -O2, as the reference figures in ../shared/data/README.md were.
#
# RECAST_DIR is Recast's `Recast` folder (Include/ and Source/). By default
# it is the upstream snapshot that the crates.io package
# recastnavigation-sys 1.0.3 bundles, which `cargo fetch` puts in the
# registry: see README.md here.
set -euo pipefail
cd "$(dirname "$0")"
RECAST_DIR=${RECAST_DIR:-$(ls -d "$HOME"/.cargo/registry/src/*/recastnavigation-sys-1.0.3/recastnavigation/Recast 2>/dev/null | head -1)}
if [ -z "$RECAST_DIR" ] || [ ! -d "$RECAST_DIR/Source" ]; then
  echo "build.sh: Recast's sources not found; set RECAST_DIR or fetch them (README.md)" >&2
  exit 1
fi
S=$RECAST_DIR/Source
g++ -O2 -I"$RECAST_DIR/Include" -o driver driver.cpp \
  "$S"/Recast.cpp "$S"/RecastAlloc.cpp "$S"/RecastArea.cpp "$S"/RecastAssert.cpp \
  "$S"/RecastContour.cpp "$S"/RecastFilter.cpp "$S"/RecastMesh.cpp \
  "$S"/RecastMeshDetail.cpp "$S"/RecastRasterization.cpp "$S"/RecastRegion.cpp
echo "built $(pwd)/driver"
