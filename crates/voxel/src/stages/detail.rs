//! The `detail` stage: the height detail of every polygon.

use std::collections::BTreeMap;
use std::sync::Arc;

use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};

use crate::detail::{RegionDetail, Surface, detail_tile};
use crate::tile_cache::{TileStage, map_tiles};

use super::common::*;
use super::contours::*;
use super::flag::*;
use super::polymesh::*;
use super::regions::*;
use super::triangulate::*;
use super::voxelize::*;

/// Stage `detail`: the height detail of every polygon.
pub type DetailArtifact = PerRegion<RegionDetail>;

impl RegionOutput for RegionDetail {
    type Drawn = ();
    fn counts(out: &PerRegion<Self>) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (r, d) in out.per_region() {
            *m.entry(format!("{} detail triangles", r.stance.name()))
                .or_insert(0) += d.polys.iter().map(|p| p.len() as u64).sum::<u64>();
        }
        m.insert(
            "detail triangles".into(),
            out.all()
                .flat_map(|d| d.polys.iter())
                .map(|p| p.len() as u64)
                .sum(),
        );
        m
    }
    fn draw(out: &PerRegion<Self>, p: &mut Prims) {
        let mut id = 0u32;
        for (r, d) in out.per_region() {
            for poly in &d.polys {
                for t in poly {
                    p.push(
                        Primitive::new(
                            format!("detail/{}", r.stance.name()),
                            id,
                            Shape::Polygon {
                                outer: t
                                    .iter()
                                    .map(|v| (*v + glam::DVec3::Y * 0.02).as_vec3())
                                    .collect(),
                                holes: Vec::new(),
                            },
                        )
                        .during(r.pass as u32, u32::MAX),
                    );
                }
                id += 1;
            }
        }
    }
}

pub(super) fn run_detail(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Detail)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let f = ctx.artifact::<FlagArtifact>("flag")?;
    let parts = ctx.artifact::<PartitionArtifact>("regions")?;
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let t = ctx.artifact::<TriangulateArtifact>("triangulate")?;
    let pm = ctx.artifact::<PolyMeshArtifact>("polymesh")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Detail, &keys, &span_costs(ctx)?, |i| {
        let surfaces: Vec<Surface> = f.tiles[i]
            .iter()
            .zip(parts.tiles[i].iter())
            .map(|(flags, part)| Surface {
                hf: &v.tiles[i],
                grid: &v.grid,
                flags,
                region: &part.region,
            })
            .collect();
        Ok(detail_tile(
            &surfaces,
            &r.tiles[i],
            &t.tiles[i],
            &pm.tiles[i],
            s.detail,
        ))
    })?;
    Ok(Arc::new(DetailArtifact::after(r, tiles, reuse, ())))
}
