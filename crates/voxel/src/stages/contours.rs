//! The `contours` stage (Recast's raw contours), and the output type every
//! stage from it to `detail` shares: one entry per region.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use glam::Vec3;
use navscope_core::draw::SubStep;
use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::contour::{Region, Ring, regions};
use crate::grid::Grid;
use crate::heightfield::may_wet;
use crate::tile_cache::{TileReuse, TileStage, map_tiles};

use super::common::*;
use super::compact::*;
use super::flag::*;
use super::regions::*;
use super::voxelize::*;

pub(super) fn ring_points(g: &Grid, r: &Ring) -> Vec<Vec3> {
    r.pts
        .iter()
        .zip(&r.h)
        .map(|(p, h)| g.corner(p[0], -p[1], *h as f64 + 0.02).as_vec3())
        .collect()
}

/// Draws region `r`'s exact outline rings (`contour/<stance>`, holes
/// `contour/<stance>/hole`) as element `id`, from its pass on.
pub(super) fn push_contours(p: &mut Prims, g: &Grid, id: u32, r: &Region) {
    for ring in &r.rings {
        let kind = if ring.area2() > 0 {
            format!("contour/{}", r.stance.name())
        } else {
            format!("contour/{}/hole", r.stance.name())
        };
        p.push(
            Primitive::new(
                kind,
                id,
                Shape::Polyline {
                    points: ring_points(g, ring),
                    closed: true,
                },
            )
            .during(r.pass as u32, u32::MAX),
        );
    }
}

/// One sub-step per pass of a stage from `contours` on: its regions' counts,
/// and the outline of its region spans (`spans`).
pub(super) fn stance_steps(
    passes: &[&'static str],
    tiles: &[Arc<Vec<Region>>],
    spans: &RegionSpans,
) -> Vec<SubStep> {
    let mut per_pass = vec![(0u64, 0u64); passes.len()];
    for r in tiles.iter().flat_map(|t| t.iter()) {
        if let Some(e) = per_pass.get_mut(r.pass) {
            e.0 += 1;
            e.1 += r.spans as u64;
        }
    }
    passes
        .iter()
        .zip(per_pass)
        .enumerate()
        .map(|(k, (n, (regions, count)))| {
            pass_step(k, n, format!("{regions} {n} regions over {count} walkable voxel columns, added to those of the earlier passes."), spans.highlights(k))
        })
        .collect()
}

/// What a stage from `contours` to `detail` makes of each region: its
/// counts and its drawing, given the whole stage's output.
pub trait RegionOutput: Debug + Serialize + Send + Sync + Sized + 'static {
    /// What the drawing needs beside the regions (`()` for most stages).
    type Drawn: Debug + Send + Sync;
    /// The stage's element counts (the tiles built and reused are added).
    fn counts(out: &PerRegion<Self>) -> BTreeMap<String, u64>;
    /// Draws the stage's output.
    fn draw(out: &PerRegion<Self>, p: &mut Prims);
}

/// The output of a stage from `contours` to `detail`: per tile, one `T`
/// per region of the `contours` stage, in the same order.
#[derive(Debug, Serialize)]
pub struct PerRegion<T: RegionOutput> {
    /// The grid.
    pub grid: Grid,
    /// Per tile, one per region.
    pub tiles: Vec<Arc<Vec<T>>>,
    /// The passes' stances, in order (one sub-step each).
    pub passes: Vec<&'static str>,
    /// Tiles built and reused.
    pub reuse: TileReuse,
    /// The `contours` stage's regions, per tile.
    #[serde(skip)]
    regions: Vec<Arc<Vec<Region>>>,
    /// Each pass's region spans, for the sub-steps' outlines.
    #[serde(skip)]
    spans: RegionSpans,
    #[serde(skip)]
    pub(super) drawn: T::Drawn,
}

impl<T: RegionOutput> PerRegion<T> {
    /// The output `tiles` of a stage after `contours` (`r`).
    pub(super) fn after(
        r: &ContourArtifact,
        tiles: Vec<Arc<Vec<T>>>,
        reuse: TileReuse,
        drawn: T::Drawn,
    ) -> Self {
        PerRegion {
            grid: r.grid,
            tiles,
            passes: r.passes.clone(),
            reuse,
            regions: r.regions.clone(),
            spans: r.spans.clone(),
            drawn,
        }
    }

    /// Each region paired with its output.
    pub(super) fn per_region(&self) -> impl Iterator<Item = (&Region, &T)> {
        self.regions
            .iter()
            .flat_map(|t| t.iter())
            .zip(self.tiles.iter().flat_map(|t| t.iter()))
    }

    /// Every region's output.
    pub(super) fn all(&self) -> impl Iterator<Item = &T> + Clone {
        self.tiles.iter().flat_map(|t| t.iter())
    }
}

impl<T: RegionOutput> Artifact for PerRegion<T> {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = T::counts(self);
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let mut p = Prims::new();
        T::draw(self, &mut p);
        p.finish(top(&self.grid))
    }
    fn substeps(&self) -> Vec<SubStep> {
        stance_steps(&self.passes, &self.regions, &self.spans)
    }
}

/// Stage `contours`: connected walkable areas and their exact outlines.
pub type ContourArtifact = PerRegion<Region>;

impl RegionOutput for Region {
    type Drawn = ();
    fn counts(out: &PerRegion<Self>) -> BTreeMap<String, u64> {
        let all = out.all();
        BTreeMap::from([
            ("regions".into(), all.clone().count() as u64),
            (
                "rings".into(),
                all.clone().map(|r| r.rings.len() as u64).sum(),
            ),
            (
                "outline vertices".into(),
                all.map(|r| r.rings.iter().map(|x| x.pts.len() as u64).sum::<u64>())
                    .sum(),
            ),
        ])
    }
    fn draw(out: &PerRegion<Self>, p: &mut Prims) {
        for (id, r) in out.all().enumerate() {
            push_contours(p, &out.grid, id as u32, r);
        }
    }
}

pub(super) fn run_contours(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (t, s, keys, cache) = keyed(ctx, TileStage::Contours)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let f = ctx.artifact::<FlagArtifact>("flag")?;
    let p = ctx.artifact::<PartitionArtifact>("regions")?;
    let c = ctx.artifact::<CompactArtifact>("compact")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Contours, &keys, &span_costs(ctx)?, |i| {
        Ok(regions(
            &v.tiles[i],
            &v.grid,
            &f.tiles[i],
            &p.tiles[i],
            &c.tiles[i].area,
            may_wet(&t.layout.tiles[i].water, s.water_level),
        ))
    })?;
    Ok(Arc::new(ContourArtifact {
        grid: v.grid,
        regions: tiles.clone(),
        tiles,
        passes: f.pass_names(),
        reuse,
        spans: p.spans.clone(),
        drawn: (),
    }))
}
