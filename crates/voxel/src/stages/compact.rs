//! The `compact` stage: each pass's passable spans, their neighbours and areas.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use glam::Vec3;
use navscope_core::draw::SubStep;
use navscope_core::level::ConvexVolume;
use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::compact::{AreaTable, CompactPass, CompactTile, DEFAULT_AREA, compact_tile};
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::NO_LINK;
use crate::tile_cache::{TileReuse, TileStage, map_tiles};

use super::common::*;
use super::voxelize::*;

/// Stage `compact`: each tile's compact heightfield (every pass's passable
/// spans and span neighbours) and the areas the level's convex volumes mark
/// ([`crate::compact`]).
#[derive(Debug, Serialize)]
pub struct CompactArtifact {
    /// The grid.
    pub grid: Grid,
    /// One per tile.
    pub tiles: Vec<Arc<CompactTile>>,
    /// The area names and costs.
    pub areas: AreaTable,
    /// The volumes that marked them: the liquid hazards, then the
    /// sidecar's when `convex_volumes` is on.
    pub volumes: Vec<ConvexVolume>,
    /// The passes' stances, in order (one sub-step each).
    pub passes: Vec<&'static str>,
    /// Tiles built and reused.
    pub reuse: TileReuse,
    #[serde(skip)]
    heightfields: Vec<Arc<Heightfield>>,
}

impl CompactArtifact {
    /// (compact spans, neighbour connections) of pass `k` over the cores.
    pub(super) fn pass_counts(&self, k: usize) -> (u64, u64) {
        self.heightfields
            .iter()
            .zip(&self.tiles)
            .map(|(hf, t)| t.core_counts(hf, k))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }
}

/// Draws the neighbour connections of one pass's compact spans as
/// polylines, one per straight run of connected spans along +x and along
/// +z (far fewer primitives than one segment per connection).
pub(super) fn neighbour_runs(
    hf: &Heightfield,
    g: &Grid,
    cp: &CompactPass,
    mut emit: impl FnMut(Vec<Vec3>),
) {
    if cp.links.is_empty() {
        return;
    }
    let span_col = hf.span_columns();
    let inside = |s: usize| {
        let (x, z) = hf.cell(span_col[s] as usize);
        cp.passable[s] && hf.rect.in_core(x, z)
    };
    let next = |s: usize, d: usize| {
        let l = cp.links[4 * s + d];
        (l != NO_LINK && inside(l as usize)).then_some(l as usize)
    };
    let centre = |s: usize| {
        let (x, z) = hf.cell(span_col[s] as usize);
        Vec3::new(
            (g.x(x) + 0.5 * g.cs) as f32,
            (g.y(hf.spans[s].floor) + 0.5 * g.ch) as f32,
            (g.z(z) + 0.5 * g.cs) as f32,
        )
    };
    // (forward, backward) direction pairs: +x / -x, +z / -z.
    for (fwd, back) in [(2, 0), (1, 3)] {
        for s in (0..hf.spans.len()).filter(|&s| inside(s)) {
            if next(s, back).is_some() || next(s, fwd).is_none() {
                continue;
            }
            let mut run = vec![centre(s)];
            let mut at = s;
            while let Some(n) = next(at, fwd) {
                run.push(centre(n));
                at = n;
            }
            emit(run);
        }
    }
}

impl Artifact for CompactArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (k, name) in self.passes.iter().enumerate() {
            let (spans, cons) = self.pass_counts(k);
            m.insert(format!("{name} compact spans"), spans);
            m.insert(format!("{name} span neighbours"), cons);
        }
        m.insert("convex volumes".into(), self.volumes.len() as u64);
        for (hf, t) in self.heightfields.iter().zip(&self.tiles) {
            for c in hf.core_columns() {
                for s in hf.range(c).filter(|&s| t.area[s] != DEFAULT_AREA) {
                    *m.entry(format!("area {} spans", self.areas.name(t.area[s])))
                        .or_insert(0) += 1;
                }
            }
        }
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.grid;
        let mut p = Prims::new();
        for (ti, (hf, t)) in self.heightfields.iter().zip(&self.tiles).enumerate() {
            for (k, cp) in t.passes.iter().enumerate() {
                let step = k as u32;
                core_columns(
                    hf,
                    g,
                    |s| {
                        let y = g.y(hf.spans[s].floor) as f32;
                        cp.passable[s].then_some((y, y + g.ch as f32))
                    },
                    |s, shape| {
                        // RecastDemo's compact view: the walkable spans,
                        // coloured by area.
                        let a = t.area[s];
                        let prim = if a == DEFAULT_AREA {
                            Primitive::new("voxel/compact", ti as u32, shape)
                        } else {
                            Primitive::new("voxel/area", a as u32, shape).with_value(a as f32)
                        };
                        p.push(prim.during(step, step));
                    },
                );
                neighbour_runs(hf, g, cp, |points| {
                    p.push(
                        Primitive::new(
                            "compact/neighbour",
                            ti as u32,
                            Shape::Polyline {
                                points,
                                closed: false,
                            },
                        )
                        .during(step, step),
                    )
                });
            }
        }
        for (v, &a) in self.volumes.iter().zip(&self.areas.volume_area) {
            let ring = |y: f64| {
                v.points
                    .iter()
                    .map(|q| Vec3::new(q.x as f32, y as f32, q.y as f32))
                    .collect::<Vec<_>>()
            };
            let (lo, hi) = (ring(v.min_y), ring(v.max_y));
            for (a_, b_) in lo.iter().zip(&hi) {
                p.push(Primitive::new("volume", a as u32, Shape::Segment(*a_, *b_)));
            }
            for points in [lo, hi] {
                p.push(Primitive::new(
                    "volume",
                    a as u32,
                    Shape::Polyline {
                        points,
                        closed: true,
                    },
                ));
            }
        }
        p.finish(top(g))
    }
    fn substeps(&self) -> Vec<SubStep> {
        self.passes
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let (spans, cons) = self.pass_counts(k);
                let pass = |ti: usize| self.tiles[ti].passes.get(k);
                let highlights = pass_outline(
                    &self.grid,
                    &self.heightfields,
                    k,
                    |ti| pass(ti).map_or(&[][..], |p| p.links.as_slice()),
                    |ti, s| pass(ti).is_some_and(|p| p.passable[s]),
                );
                pass_step(k, name, format!("The {name} table's compact heightfield: {spans} spans it may stand on (slope, water depth and the span filters), {cons} connections to side neighbours within its step and height. Spans inside a convex volume are in its area."), highlights)
            })
            .collect()
    }
}

pub(super) fn run_compact(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Compact)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let volumes = volumes_of(ctx, &s)?;
    let volumes: &[ConvexVolume] = &volumes;
    let areas = AreaTable::new(volumes, &s.area_costs)?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Compact, &keys, &span_costs(ctx)?, |i| {
        Ok(compact_tile(
            &v.tiles[i],
            &v.grid,
            &s.passes,
            s.filters,
            volumes,
            &areas,
        ))
    })?;
    Ok(Arc::new(CompactArtifact {
        grid: v.grid,
        tiles,
        areas,
        volumes: volumes.to_vec(),
        passes: s.passes.iter().map(|p| p.stance.name()).collect(),
        reuse,
        heightfields: v.tiles.clone(),
    }))
}
