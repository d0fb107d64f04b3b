//! The `regions` stage: every pass's distance field and regions (Recast's regions).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use glam::Vec3;
use navscope_core::draw::SubStep;
use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::compact::CompactTile;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::NO_LINK;
use crate::partition::{NO_REGION, PassPartition, partition_tile};
use crate::pass_flags::PassFlags;
use crate::settings::Partition;
use crate::tile_cache::{TileReuse, TileStage, map_tiles};

use super::common::*;
use super::compact::*;
use super::flag::*;
use super::voxelize::*;

/// Stage `regions`: every pass's distance field and regions on every tile.
#[derive(Debug, Serialize)]
pub struct PartitionArtifact {
    /// The grid.
    pub grid: Grid,
    /// Per tile, per pass.
    pub tiles: Vec<Arc<Vec<PassPartition>>>,
    /// The passes' stances, in order (one sub-step each).
    pub passes: Vec<&'static str>,
    /// The partition that cut the regions.
    pub kind: Partition,
    /// Tiles built and reused.
    pub reuse: TileReuse,
    /// The heightfields, the flags (their span neighbours give the region
    /// connections) and the regions, with the passes' outlines, which the
    /// later stages share.
    #[serde(skip)]
    pub(super) spans: RegionSpans,
    /// The compact tiles, whose span areas the distance field drawn for
    /// a partition that kept none is computed with.
    #[serde(skip)]
    areas: Vec<Arc<CompactTile>>,
}

/// Recast's "region connections" view: for one pass of one tile, a segment
/// from the centre of each region to the centre of each region it touches
/// (over a span neighbour), centres being the mean of the region's core
/// span centres, at their mean floor.
pub(super) fn region_connections(
    hf: &Heightfield,
    g: &Grid,
    part: &PassPartition,
    pf: &PassFlags,
) -> Vec<(u32, Vec3, Vec3)> {
    if pf.links.is_empty() {
        return Vec::new();
    }
    let n = part.regions as usize + 1;
    let mut sum = vec![(glam::DVec3::ZERO, 0u32); n];
    let mut touch = std::collections::BTreeSet::new();
    for c in 0..hf.cols.len() - 1 {
        let (x, z) = hf.cell(c);
        if !hf.rect.in_core(x, z) {
            continue;
        }
        for s in hf.range(c) {
            let r = part.region[s];
            if r == NO_REGION {
                continue;
            }
            let e = &mut sum[r as usize];
            e.0 += glam::DVec3::new(
                g.x(x) + 0.5 * g.cs,
                g.y(hf.spans[s].floor),
                g.z(z) + 0.5 * g.cs,
            );
            e.1 += 1;
            for d in 0..4 {
                let l = pf.links[4 * s + d];
                if l == NO_LINK {
                    continue;
                }
                let o = part.region[l as usize];
                if o != NO_REGION && o != r {
                    touch.insert((r.min(o), r.max(o)));
                }
            }
        }
    }
    let centre = |r: u32| {
        let (p, k) = sum[r as usize];
        (k > 0).then(|| (p / k as f64).as_vec3() + Vec3::Y * 0.05)
    };
    touch
        .into_iter()
        .filter_map(|(a, b)| Some((a, centre(a)?, centre(b)?)))
        .collect()
}

impl PartitionArtifact {
    /// (regions, dropped, merged) of pass `k` over all tiles.
    pub(super) fn pass_counts(&self, k: usize) -> [u64; 3] {
        let mut c = [0u64; 3];
        for p in self.tiles.iter().filter_map(|t| t.get(k)) {
            c[0] += p.regions as u64;
            c[1] += p.dropped as u64;
            c[2] += p.merged as u64;
        }
        c
    }
}

impl Artifact for PartitionArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (k, name) in self.passes.iter().enumerate() {
            let [r, d, g] = self.pass_counts(k);
            m.insert(format!("{name} regions"), r);
            m.insert(format!("{name} regions dropped"), d);
            m.insert(format!("{name} regions merged"), g);
        }
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.grid;
        let mut p = Prims::new();
        for (ti, (hf, parts)) in self.spans.heightfields.iter().zip(&self.tiles).enumerate() {
            for (k, part) in parts.iter().enumerate() {
                let pf = self.spans.flags.get(ti).and_then(|f| f.get(k));
                let (dist, max) = match (pf, self.areas.get(ti)) {
                    (Some(pf), Some(c)) => part.distances(pf, &c.area),
                    _ => (Cow::Borrowed(&part.dist[..]), part.max_dist),
                };
                let max = max.max(1) as f32;
                core_columns(
                    hf,
                    g,
                    |s| {
                        let y = g.y(hf.spans[s].floor) as f32;
                        (part.region[s] != NO_REGION).then_some((y, y + g.ch as f32))
                    },
                    |s, shape| {
                        // The distance field as a ramp (0 at the edge, 1 at
                        // the pass's largest distance) and the regions, each
                        // its id as the value the app hashes into a colour.
                        // A pass's spans are its own (recycled passes never
                        // share one), so each pass's regions stay from its
                        // sub-step on: the stage's last view shows them
                        // all, not only the last pass's (often none).
                        let d = dist.get(s).copied().unwrap_or(0) as f32 / max;
                        p.push(
                            Primitive::new("voxel/distance", ti as u32, shape.clone())
                                .with_value(d)
                                .during(k as u32, u32::MAX),
                        );
                        p.push(
                            Primitive::new("voxel/region", part.region[s], shape)
                                .with_value(part.region[s] as f32)
                                .during(k as u32, u32::MAX),
                        );
                    },
                );
                if let Some(pf) = pf {
                    for (r, a, b) in region_connections(hf, g, part, pf) {
                        p.push(
                            Primitive::new("voxel/region/connection", r, Shape::Segment(a, b))
                                .during(k as u32, u32::MAX),
                        );
                    }
                }
            }
        }
        p.finish(top(g))
    }
    fn substeps(&self) -> Vec<SubStep> {
        self.passes
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let [r, d, m] = self.pass_counts(k);
                let regions = match self.kind {
                    Partition::Layers => format!("{r} layers (Recast's layer regions: {m} row-sweep regions merged into another's layer where they overlap none of it in height, {d} layers too small and dropped)"),
                    _ => format!("{r} regions ({d} too small and dropped, {m} merged into a neighbour)"),
                };
                pass_step(k, name, format!("The {name} pass's walkable voxels: distance to the edge of its area, and {regions}."), self.spans.highlights(k))
            })
            .collect()
    }
}

pub(super) fn run_partition(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Regions)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let f = ctx.artifact::<FlagArtifact>("flag")?;
    let c = ctx.artifact::<CompactArtifact>("compact")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Regions, &keys, &span_costs(ctx)?, |i| {
        Ok(partition_tile(
            &v.tiles[i],
            &f.tiles[i],
            &c.tiles[i].area,
            s.partition,
        ))
    })?;
    let passes = f.pass_names();
    Ok(Arc::new(PartitionArtifact {
        grid: v.grid,
        spans: RegionSpans::new(
            v.grid,
            v.tiles.clone(),
            f.tiles.clone(),
            tiles.clone(),
            passes.len(),
        ),
        tiles,
        passes,
        kind: s.partition.kind,
        reuse,
        areas: c.tiles.clone(),
    }))
}
