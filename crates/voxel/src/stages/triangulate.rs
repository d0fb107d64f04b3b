//! The `triangulate` stage: each region's triangles.

use std::collections::BTreeMap;
use std::sync::Arc;

use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};

use crate::grid::Grid;
use crate::tile_cache::{TileStage, map_tiles};
use crate::triangulate::{RegionMesh, triangulate_tile};

use super::common::*;
use super::contours::*;
use super::simplify::*;
use super::voxelize::*;

/// Pushes one `kind` polygon per face (vertex indices into `mesh`), shown
/// from pass `pass` on, with element ids counting up from `id`.
pub(super) fn push_faces<'f>(
    p: &mut Prims,
    g: &Grid,
    kind: &str,
    pass: usize,
    mesh: &RegionMesh,
    faces: impl Iterator<Item = &'f [u32]>,
    id: &mut u32,
) {
    for f in faces {
        let outer = f
            .iter()
            .map(|&i| {
                let v = mesh.verts[i as usize];
                g.corner(v[0], -v[1], mesh.heights[i as usize] as f64 + 0.02)
                    .as_vec3()
            })
            .collect();
        p.push(
            Primitive::new(
                kind.to_owned(),
                *id,
                Shape::Polygon {
                    outer,
                    holes: Vec::new(),
                },
            )
            .during(pass as u32, u32::MAX),
        );
        *id += 1;
    }
}

/// Stage `triangulate`: constrained Delaunay triangles per region.
pub type TriangulateArtifact = PerRegion<RegionMesh>;

impl RegionOutput for RegionMesh {
    type Drawn = ();
    fn counts(out: &PerRegion<Self>) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (r, mesh) in out.per_region() {
            *m.entry(format!("{} triangles", r.stance.name()))
                .or_insert(0) += mesh.tris.len() as u64;
        }
        let all = out.all();
        m.insert(
            "triangles".into(),
            all.clone().map(|t| t.tris.len() as u64).sum(),
        );
        m.insert(
            "refused constraints".into(),
            all.map(|t| t.refused_constraints as u64).sum(),
        );
        m
    }
    fn draw(out: &PerRegion<Self>, p: &mut Prims) {
        let mut id = 0u32;
        for (r, mesh) in out.per_region() {
            let kind = format!("triangle/{}", r.stance.name());
            let faces = mesh.tris.iter().map(|t| t.as_slice());
            push_faces(p, &out.grid, &kind, r.pass, mesh, faces, &mut id);
        }
    }
}

pub(super) fn run_triangulate(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, _, keys, cache) = keyed(ctx, TileStage::Triangulate)?;
    let s = ctx.artifact::<SimplifyArtifact>("simplify")?;
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let (tiles, reuse) = map_tiles(
        cache,
        TileStage::Triangulate,
        &keys,
        &span_costs(ctx)?,
        |i| Ok(triangulate_tile(&s.tiles[i])),
    )?;
    Ok(Arc::new(TriangulateArtifact::after(r, tiles, reuse, ())))
}
