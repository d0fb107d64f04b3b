//! The `simplify` stage: each region's outlines simplified.

use std::collections::BTreeMap;
use std::sync::Arc;

use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};

use crate::simplify::{SimplifiedRegion, simplify_tile};
use crate::tile_cache::{TileStage, map_tiles};

use super::common::*;
use super::contours::*;
use super::voxelize::*;

/// Stage `simplify`: outlines simplified within the error bound.
pub type SimplifyArtifact = PerRegion<SimplifiedRegion>;

impl RegionOutput for SimplifiedRegion {
    type Drawn = ();
    fn counts(out: &PerRegion<Self>) -> BTreeMap<String, u64> {
        let all = out.all();
        BTreeMap::from([
            (
                "polygon vertices".into(),
                all.clone()
                    .map(|r| r.rings.iter().map(|x| x.pts.len() as u64).sum::<u64>())
                    .sum(),
            ),
            (
                "exact fallbacks".into(),
                all.map(|r| r.fallbacks as u64).sum(),
            ),
        ])
    }
    fn draw(out: &PerRegion<Self>, p: &mut Prims) {
        for (id, (r, s)) in out.per_region().enumerate() {
            // RecastDemo's "both contours": the raw outline under the
            // simplified one.
            push_contours(p, &out.grid, id as u32, r);
            for ring in &s.rings {
                p.push(
                    Primitive::new(
                        format!("polygon/{}", r.stance.name()),
                        id as u32,
                        Shape::Polyline {
                            points: ring_points(&out.grid, ring),
                            closed: true,
                        },
                    )
                    .during(r.pass as u32, u32::MAX),
                );
            }
        }
    }
}

pub(super) fn run_simplify(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Simplify)?;
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Simplify, &keys, &span_costs(ctx)?, |i| {
        Ok(simplify_tile(&r.tiles[i], &r.grid, &s))
    })?;
    Ok(Arc::new(SimplifyArtifact::after(r, tiles, reuse, ())))
}
