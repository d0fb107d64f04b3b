//! The `polymesh` stage: each region's convex polygons.

use std::collections::BTreeMap;
use std::sync::Arc;

use navscope_core::{Artifact, StageContext, StageError};

use crate::polymesh::{RegionPolys, polymesh_tile};
use crate::tile_cache::{TileStage, map_tiles};
use crate::triangulate::RegionMesh;

use super::common::*;
use super::contours::*;
use super::triangulate::*;
use super::voxelize::*;

/// Stage `polymesh`: convex polygons per region.
pub type PolyMeshArtifact = PerRegion<RegionPolys>;

impl RegionOutput for RegionPolys {
    /// The triangulation's vertices, which the polygons index.
    type Drawn = Vec<Arc<Vec<RegionMesh>>>;
    fn counts(out: &PerRegion<Self>) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (r, polys) in out.per_region() {
            *m.entry(format!("{} polygons", r.stance.name()))
                .or_insert(0) += polys.polys.len() as u64;
        }
        let all = out.all();
        m.insert(
            "polygons".into(),
            all.clone().map(|p| p.polys.len() as u64).sum(),
        );
        m.insert(
            "polygon corners".into(),
            all.flat_map(|p| p.polys.iter())
                .map(|p| p.len() as u64)
                .sum(),
        );
        m
    }
    fn draw(out: &PerRegion<Self>, p: &mut Prims) {
        let mut id = 0u32;
        let meshes = out.drawn.iter().flat_map(|t| t.iter());
        for ((r, polys), mesh) in out.per_region().zip(meshes) {
            let kind = format!("polymesh/{}", r.stance.name());
            let faces = polys.polys.iter().map(Vec::as_slice);
            push_faces(p, &out.grid, &kind, r.pass, mesh, faces, &mut id);
        }
    }
}

pub(super) fn run_polymesh(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::PolyMesh)?;
    let t = ctx.artifact::<TriangulateArtifact>("triangulate")?;
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::PolyMesh, &keys, &span_costs(ctx)?, |i| {
        Ok(polymesh_tile(&t.tiles[i], s.max_verts_per_poly))
    })?;
    Ok(Arc::new(PolyMeshArtifact::after(
        r,
        tiles,
        reuse,
        t.tiles.clone(),
    )))
}
