//! The stages, their artifacts and how each draws itself.
//!
//! Every per-tile stage maps its tiles with rayon and collects them in tile
//! order, so the result does not depend on the thread count. Drawing is
//! bounded: every voxel span of a tile's core is one `VoxelColumn` (the
//! app instances cubes), and an artifact draws at most [`MAX_PRIMITIVES`]
//! primitives, then one label saying how many were left out. The stages
//! with passes record one sub-step per pass, highlighting the outline of
//! the pass's own spans ([`crate::outline`], computed on demand).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, OnceLock};

use glam::Vec3;
use navscope_core::draw::SubStep;
use navscope_core::level::{ConvexVolume, LevelData, MeshLevel};
use navscope_core::navmesh::Stance;
use navscope_core::{Artifact, LinkKind, NavMesh, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::blocks::voxelize;
use crate::compact::{AreaTable, CompactPass, CompactTile, DEFAULT_AREA, compact_tile};
use crate::contour::{Region, Ring, regions};
use crate::detail::{RegionDetail, detail_tile};
use crate::drops;
use crate::flags::flag_tile;
use crate::graph::{Graph, TileParts, build_graph};
use crate::grid::Grid;
use crate::heightfield::{Heightfield, may_wet};
use crate::links::NO_LINK;
use crate::movers::{Reach, add_mover_links};
use crate::outline::outline;
use crate::partition::{NO_REGION, PassPartition, partition_tile};
use crate::pass_flags::{BORDER, NON_WALKABLE, PassFlags, WALKABLE};
use crate::polymesh::{RegionPolys, polymesh_tile};
use crate::settings::{Partition, Settings};
use crate::simplify::{SimplifiedRegion, simplify_tile};
use crate::tile_cache::{
    TileCache, TileKey, TileReuse, TileStage, map_missing_tiles, map_tiles, tile_keys,
};
use crate::tiles::{Layout, layout};
use crate::triangulate::{RegionMesh, triangulate_tile};

/// Most primitives one artifact draws. Voxels are drawn one
/// `Shape::VoxelColumn` per span (the app meshes them per tile, and only
/// while their stage shows); the bound keeps the artifact's drawing, and
/// the memory it takes (about 100 bytes a primitive), finite on huge
/// levels. It is set so that a million voxels draw: every stage of
/// `dungeon.obj` at 0.1 m cells, the largest of which (the compact
/// heightfield's four standing passes) draws about 750,000, draws whole.
pub const MAX_PRIMITIVES: usize = 2_000_000;

/// A stage's drawing, at most [`MAX_PRIMITIVES`] primitives and a label
/// saying how many more were left out.
pub struct Prims {
    out: Vec<Primitive>,
    dropped: usize,
}

impl Prims {
    fn new() -> Self {
        Prims {
            out: Vec::new(),
            dropped: 0,
        }
    }
    fn push(&mut self, p: Primitive) {
        if self.out.len() < MAX_PRIMITIVES {
            self.out.push(p)
        } else {
            self.dropped += 1
        }
    }
    fn finish(mut self, at: Vec3) -> Vec<Primitive> {
        if self.dropped > 0 {
            self.out.push(Primitive::new(
                "label/truncated",
                u32::MAX,
                Shape::Label {
                    at,
                    text: format!(
                        "{} more primitives not drawn (limit {MAX_PRIMITIVES})",
                        self.dropped
                    ),
                },
            ));
        }
        self.out
    }
}

fn mesh_of<'a>(ctx: &StageContext<'a>) -> Result<&'a MeshLevel, StageError> {
    match &ctx.level.data {
        LevelData::Mesh(m) => Ok(m),
        _ => Err(StageError::failed(format!(
            "the voxel pipeline needs a triangle mesh, not a {}",
            ctx.level.kind().name()
        ))),
    }
}

fn top(grid: &Grid) -> Vec3 {
    grid.origin.as_vec3()
}

/// The tiles of the `tiles` stage with their keys at `stage` under the
/// current settings, and the cache to use (none when `reuse_tiles` is off).
#[allow(clippy::type_complexity)]
fn keyed<'c>(
    ctx: &'c StageContext,
    stage: TileStage,
) -> Result<
    (
        &'c TilesArtifact,
        Settings,
        Vec<TileKey>,
        Option<&'static TileCache>,
    ),
    StageError,
> {
    let t = ctx.artifact::<TilesArtifact>("tiles")?;
    let s = Settings::from_params(ctx.params)?;
    let mut keys = tile_keys(&t.layout, &s, stage);
    if stage >= TileStage::Compact && s.convex_volumes {
        // The areas the volumes mark feed every stage from `compact` on.
        let volumes = format!("{:?}", mesh_of(ctx)?.volumes);
        let mut h = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(&volumes, &mut h);
        let v = std::hash::Hasher::finish(&h);
        for k in &mut keys {
            k.params ^= v;
        }
    }
    let cache = t.settings.reuse_tiles.then(TileCache::global);
    Ok((t, s, keys, cache))
}

/// Each tile's voxel spans: about what a per-tile stage after `voxelize`
/// costs on it, so [`map_tiles`] can start the largest tiles first.
fn span_costs(ctx: &StageContext) -> Result<Vec<u64>, StageError> {
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    Ok(v.tiles.iter().map(|t| t.spans.len() as u64).collect())
}

/// Calls `emit(span, column)` for every span of the tile's core columns,
/// `column` being the `VoxelColumn` of the cell from `y0` to `y1` as `key`
/// gives them for that span (`None` skips it).
fn core_columns(
    hf: &Heightfield,
    grid: &Grid,
    mut key: impl FnMut(usize) -> Option<(f32, f32)>,
    mut emit: impl FnMut(usize, Shape),
) {
    let r = hf.rect;
    let cell = grid.cs as f32;
    for z in r.z0..r.z1 {
        for x in r.x0..r.x1 {
            let Some(c) = hf.col(x, z) else { continue };
            for s in hf.range(c) {
                if let Some((y0, y1)) = key(s) {
                    let shape = Shape::VoxelColumn {
                        x: grid.x(x) as f32,
                        z: grid.z(z) as f32,
                        cell,
                        y0,
                        y1,
                    };
                    emit(s, shape);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- tiles

/// Stage `tiles`: the grid and the tiles with their inputs.
#[derive(Debug, Serialize)]
pub struct TilesArtifact {
    /// Settings as read.
    pub settings: Settings,
    /// The layout.
    pub layout: Layout,
}

impl Artifact for TilesArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let g = &self.layout.grid;
        BTreeMap::from([
            ("tiles".into(), self.layout.tiles.len() as u64),
            ("columns".into(), g.width as u64 * g.depth as u64),
            (
                "degenerate triangles".into(),
                self.layout.degenerate_triangles as u64,
            ),
            (
                "tile triangles".into(),
                self.layout
                    .tiles
                    .iter()
                    .map(|t| t.triangles.len() as u64)
                    .sum(),
            ),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.layout.grid;
        let mut p = Prims::new();
        for t in &self.layout.tiles {
            let r = t.rect;
            let (y0, y1) = (g.origin.y as f32, g.origin.y as f32 + 0.05);
            p.push(Primitive::new(
                "tile",
                t.index as u32,
                Shape::Box {
                    min: Vec3::new(g.x(r.x0) as f32, y0, g.z(r.z0) as f32),
                    max: Vec3::new(g.x(r.x1) as f32, y1, g.z(r.z1) as f32),
                },
            ));
            let (a, b, c, d) = r.padded();
            let ring = [(a, b), (c, b), (c, d), (a, d)]
                .map(|(x, z)| Vec3::new(g.x(x) as f32, y0, g.z(z) as f32))
                .to_vec();
            p.push(Primitive::new(
                "tile/overlap",
                t.index as u32,
                Shape::Polyline {
                    points: ring,
                    closed: true,
                },
            ));
        }
        p.finish(top(g))
    }
}

fn run_tiles(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = mesh_of(ctx)?;
    let settings = Settings::from_params(ctx.params)?;
    let layout = layout(&level.mesh, &level.water, &settings)?;
    crate::tiles::check_budget(&level.mesh, &layout, settings.passes.len(), ctx.budget)?;
    Ok(Arc::new(TilesArtifact { settings, layout }))
}

// ---------------------------------------------------------------- voxelize

/// Stage `voxelize`: each tile's spans.
#[derive(Debug, Serialize)]
pub struct VoxelArtifact {
    /// The grid.
    pub grid: Grid,
    /// One heightfield per tile.
    pub tiles: Vec<Arc<Heightfield>>,
    /// Tiles built and reused.
    pub reuse: TileReuse,
}

impl Artifact for VoxelArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let spans: u64 = self.tiles.iter().map(|t| t.spans.len() as u64).sum();
        let wet: u64 = self
            .tiles
            .iter()
            .map(|t| t.spans.iter().filter(|s| !s.water.is_nan()).count() as u64)
            .sum();
        let mut m = BTreeMap::from([("spans".into(), spans), ("wet spans".into(), wet)]);
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.grid;
        let mut p = Prims::new();
        for (ti, hf) in self.tiles.iter().enumerate() {
            core_columns(
                hf,
                g,
                |s| Some((g.y(hf.spans[s].base) as f32, g.y(hf.spans[s].floor) as f32)),
                |_, shape| p.push(Primitive::new("voxel/solid", ti as u32, shape)),
            );
            core_columns(
                hf,
                g,
                |s| {
                    let sp = hf.spans[s];
                    (!sp.water.is_nan()).then(|| (g.y(sp.floor) as f32, sp.water))
                },
                |_, shape| p.push(Primitive::new("voxel/water", ti as u32, shape)),
            );
        }
        p.finish(top(g))
    }
}

fn run_voxelize(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = mesh_of(ctx)?;
    let (t, s, keys, cache) = keyed(ctx, TileStage::Voxelize)?;
    let (tiles, reuse) = map_missing_tiles(cache, TileStage::Voxelize, &keys, |missing| {
        voxelize(&level.mesh, &t.layout, missing, s.water_level)
    })?;
    Ok(Arc::new(VoxelArtifact {
        grid: t.layout.grid,
        tiles,
        reuse,
    }))
}

// ---------------------------------------------------------------- compact

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
    /// The volumes that marked them (none when `convex_volumes` is off).
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
    fn pass_counts(&self, k: usize) -> (u64, u64) {
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
fn neighbour_runs(hf: &Heightfield, g: &Grid, cp: &CompactPass, mut emit: impl FnMut(Vec<Vec3>)) {
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

/// The sub-step of pass `k` (0-based) named `name`: what the stage made
/// for that pass, and `highlights` (its own spans' outline,
/// [`pass_outline`]).
fn pass_step(
    k: usize,
    name: impl std::fmt::Display,
    detail: String,
    highlights: Vec<Primitive>,
) -> SubStep {
    SubStep {
        title: format!("pass {}: {name}", k + 1),
        detail,
        highlights,
    }
}

/// The highlight of pass `k`'s own spans: per tile, the outline
/// ([`crate::outline`]) of the spans `own(tile, span)` holds, over the
/// links `links(tile)` gives (the pass's span links; empty: none), as
/// `highlight/pass` segments of element = tile, shown at sub-step `k`.
/// Computed only when the sub-steps are asked for, never in a build.
fn pass_outline<'a>(
    g: &Grid,
    heightfields: &[Arc<Heightfield>],
    k: usize,
    links: impl Fn(usize) -> &'a [u32],
    own: impl Fn(usize, usize) -> bool,
) -> Vec<Primitive> {
    let mut p = Prims::new();
    for (ti, hf) in heightfields.iter().enumerate() {
        for e in outline(hf, links(ti), |s| own(ti, s)) {
            let (a, b) = e.points(g);
            p.push(
                Primitive::new("highlight/pass", ti as u32, Shape::Segment(a, b))
                    .during(k as u32, k as u32),
            );
        }
    }
    p.finish(top(g))
}

fn run_compact(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = mesh_of(ctx)?;
    let (_, s, keys, cache) = keyed(ctx, TileStage::Compact)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let volumes: &[ConvexVolume] = if s.convex_volumes {
        &level.volumes
    } else {
        &[]
    };
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

// ---------------------------------------------------------------- flag

/// Stage `flag`: every pass's flags on every tile.
#[derive(Debug, Serialize)]
pub struct FlagArtifact {
    /// The grid.
    pub grid: Grid,
    /// Per tile, per pass.
    pub tiles: Vec<Arc<Vec<PassFlags>>>,
    /// Tiles built and reused.
    pub reuse: TileReuse,
    #[serde(skip)]
    heightfields: Vec<Arc<Heightfield>>,
}

impl FlagArtifact {
    fn heightfields(&self) -> &[Arc<Heightfield>] {
        &self.heightfields
    }

    /// Core-span counts of (walkable, border, non-walkable) for pass `k`.
    pub fn pass_counts(&self, k: usize) -> [u64; 3] {
        let mut c = [0u64; 3];
        for (hf, passes) in self.heightfields().iter().zip(&self.tiles) {
            let Some(pf) = passes.get(k) else { continue };
            for col in hf.core_columns() {
                for s in hf.range(col) {
                    match pf.flags[s] {
                        WALKABLE => c[0] += 1,
                        BORDER => c[1] += 1,
                        NON_WALKABLE => c[2] += 1,
                        _ => {}
                    }
                }
            }
        }
        c
    }

    fn pass_names(&self) -> Vec<&'static str> {
        self.tiles
            .first()
            .map(|t| t.iter().map(|p| p.pass.stance.name()).collect())
            .unwrap_or_default()
    }
}

impl Artifact for FlagArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for (k, name) in self.pass_names().into_iter().enumerate() {
            let [w, b, n] = self.pass_counts(k);
            m.insert(format!("{name} walkable"), w);
            m.insert(format!("{name} border"), b);
            m.insert(format!("{name} non-walkable"), n);
        }
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.grid;
        let mut p = Prims::new();
        for (ti, (hf, passes)) in self.heightfields().iter().zip(&self.tiles).enumerate() {
            core_columns(
                hf,
                g,
                |s| {
                    // The first free voxel over the floor: the one the
                    // agent stands in, drawn on top of the level's surface.
                    let y = g.y(hf.spans[s].floor) as f32;
                    passes
                        .iter()
                        .any(|pf| pf.flags[s] >= NON_WALKABLE)
                        .then_some((y, y + g.ch as f32))
                },
                |s, shape| {
                    let flags = passes.iter().map(|pf| (pf.flags[s], pf.pass.stance));
                    for (kind, first, last) in flag_runs(flags) {
                        p.push(Primitive::new(kind, ti as u32, shape.clone()).during(first, last));
                    }
                },
            );
        }
        p.finish(top(g))
    }
    fn substeps(&self) -> Vec<SubStep> {
        self.pass_names()
            .into_iter()
            .enumerate()
            .map(|(k, name)| {
                let [w, b, n] = self.pass_counts(k);
                let detail = if k == 0 {
                    format!("Every open span flagged with the {name} table: {w} walkable, {b} border, {n} non-walkable. The non-walkable ones are the next pass's pool.")
                } else {
                    format!("The spans earlier passes left non-walkable, flags discarded, flagged again with the {name} table: {w} walkable, {b} border, {n} non-walkable (§32.3.1).")
                };
                // The spans this pass claims (walkable or border): an
                // earlier pass's are `CLAIMED` in this one's flags.
                let pass = |ti: usize| self.tiles[ti].get(k);
                let highlights = pass_outline(
                    &self.grid,
                    self.heightfields(),
                    k,
                    |ti| pass(ti).map_or(&[][..], |p| p.links.as_slice()),
                    |ti, s| pass(ti).is_some_and(|p| p.walkable(s)),
                );
                pass_step(k, name, detail, highlights)
            })
            .collect()
    }
}

fn run_flag(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Flag)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let c = ctx.artifact::<CompactArtifact>("compact")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Flag, &keys, &span_costs(ctx)?, |i| {
        Ok(flag_tile(
            &v.tiles[i],
            &v.grid,
            &s.passes,
            &c.tiles[i],
            s.bands,
        ))
    })?;
    Ok(Arc::new(FlagArtifact {
        grid: v.grid,
        tiles,
        reuse,
        heightfields: v.tiles.clone(),
    }))
}

// ---------------------------------------------------------------- regions (the partition)

/// Each pass's region spans on every tile (the spans its partition put in
/// a region, which the stages from `regions` on build on) with the span
/// links they are connected by: what those stages' sub-steps outline.
/// Shared with the earlier stages' artifacts, never copied; a clone shares
/// the outlines too, so the six stages from `regions` to `detail`
/// compute each pass's outline once between them.
#[derive(Clone, Debug)]
struct RegionSpans {
    grid: Grid,
    heightfields: Vec<Arc<Heightfield>>,
    /// Per tile, per pass (their links).
    flags: Vec<Arc<Vec<PassFlags>>>,
    /// Per tile, per pass.
    parts: Vec<Arc<Vec<PassPartition>>>,
    /// Per pass, its outline once some stage has asked for it.
    outlines: Arc<[OnceLock<Vec<Primitive>>]>,
}

impl RegionSpans {
    /// The region spans of `passes` passes.
    fn new(
        grid: Grid,
        heightfields: Vec<Arc<Heightfield>>,
        flags: Vec<Arc<Vec<PassFlags>>>,
        parts: Vec<Arc<Vec<PassPartition>>>,
        passes: usize,
    ) -> Self {
        RegionSpans {
            grid,
            heightfields,
            flags,
            parts,
            outlines: (0..passes).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The outline of pass `k`'s region spans ([`pass_outline`]), computed
    /// the first time any stage asks for it.
    fn highlights(&self, k: usize) -> Vec<Primitive> {
        let Some(cell) = self.outlines.get(k) else {
            return Vec::new();
        };
        cell.get_or_init(|| {
            pass_outline(
                &self.grid,
                &self.heightfields,
                k,
                |ti| {
                    self.flags[ti]
                        .get(k)
                        .map_or(&[][..], |f| f.links.as_slice())
                },
                |ti, s| {
                    self.parts[ti]
                        .get(k)
                        .is_some_and(|p| p.region[s] != NO_REGION)
                },
            )
        })
        .clone()
    }
}

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
    spans: RegionSpans,
    /// The compact tiles, whose span areas the distance field drawn for
    /// a partition that kept none is computed with.
    #[serde(skip)]
    areas: Vec<Arc<CompactTile>>,
}

/// Recast's "region connections" view: for one pass of one tile, a segment
/// from the centre of each region to the centre of each region it touches
/// (over a span neighbour), centres being the mean of the region's core
/// span centres, at their mean floor.
fn region_connections(
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
    fn pass_counts(&self, k: usize) -> [u64; 3] {
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

fn run_partition(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
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

// ---------------------------------------------------------------- contours

fn ring_points(g: &Grid, r: &Ring) -> Vec<Vec3> {
    r.pts
        .iter()
        .zip(&r.h)
        .map(|(p, h)| g.corner(p[0], -p[1], *h as f64 + 0.02).as_vec3())
        .collect()
}

/// Draws region `r`'s exact outline rings (`contour/<stance>`, holes
/// `contour/<stance>/hole`) as element `id`, from its pass on.
fn push_contours(p: &mut Prims, g: &Grid, id: u32, r: &Region) {
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
fn stance_steps(
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
    drawn: T::Drawn,
}

impl<T: RegionOutput> PerRegion<T> {
    /// The output `tiles` of a stage after `contours` (`r`).
    fn after(
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
    fn per_region(&self) -> impl Iterator<Item = (&Region, &T)> {
        self.regions
            .iter()
            .flat_map(|t| t.iter())
            .zip(self.tiles.iter().flat_map(|t| t.iter()))
    }

    /// Every region's output.
    fn all(&self) -> impl Iterator<Item = &T> + Clone {
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

fn run_contours(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
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

// ---------------------------------------------------------------- simplify

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

fn run_simplify(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Simplify)?;
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Simplify, &keys, &span_costs(ctx)?, |i| {
        Ok(simplify_tile(&r.tiles[i], &r.grid, &s))
    })?;
    Ok(Arc::new(SimplifyArtifact::after(r, tiles, reuse, ())))
}

/// Pushes one `kind` polygon per face (vertex indices into `mesh`), shown
/// from pass `pass` on, with element ids counting up from `id`.
fn push_faces<'f>(
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

// ---------------------------------------------------------------- triangulate

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

fn run_triangulate(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
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

// ---------------------------------------------------------------- polymesh

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

fn run_polymesh(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
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

// ---------------------------------------------------------------- detail

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

fn run_detail(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let (_, s, keys, cache) = keyed(ctx, TileStage::Detail)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let f = ctx.artifact::<FlagArtifact>("flag")?;
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let t = ctx.artifact::<TriangulateArtifact>("triangulate")?;
    let pm = ctx.artifact::<PolyMeshArtifact>("polymesh")?;
    let (tiles, reuse) = map_tiles(cache, TileStage::Detail, &keys, &span_costs(ctx)?, |i| {
        Ok(detail_tile(
            &v.tiles[i],
            &v.grid,
            &f.tiles[i],
            &r.tiles[i],
            &t.tiles[i],
            &pm.tiles[i],
            s.detail,
        ))
    })?;
    Ok(Arc::new(DetailArtifact::after(r, tiles, reuse, ())))
}

// ---------------------------------------------------------------- graph

/// Stage `graph`: the NavMesh.
#[derive(Debug, Serialize)]
pub struct GraphArtifact {
    /// The graph.
    pub graph: Graph,
}

impl Artifact for GraphArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::from([
            ("nodes".to_string(), self.graph.navmesh.nodes.len() as u64),
            ("links".to_string(), self.graph.navmesh.links.len() as u64),
        ]);
        for c in &self.graph.link_class {
            *m.entry(format!("{} links", c.kind())).or_insert(0) += 1;
        }
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let nav = &self.graph.navmesh;
        let mut p = Prims::new();
        for n in &nav.nodes {
            p.push(Primitive::new(
                format!("node/{}", n.stance.name()),
                n.id,
                Shape::Point(n.position.as_vec3()),
            ));
        }
        for (i, (l, c)) in nav.links.iter().zip(&self.graph.link_class).enumerate() {
            if l.from < l.to {
                let (a, b) = (
                    nav.nodes[l.from as usize].position.as_vec3(),
                    nav.nodes[l.to as usize].position.as_vec3(),
                );
                p.push(Primitive::new(c.kind(), i as u32, Shape::Segment(a, b)));
            }
        }
        p.finish(
            nav.nodes
                .first()
                .map_or(Vec3::ZERO, |n| n.position.as_vec3()),
        )
    }
    fn metrics(&self) -> BTreeMap<String, f64> {
        let mut m = BTreeMap::new();
        for n in &self.graph.navmesh.nodes {
            if let Some(p) = &n.polygon {
                let a = (0..p.len())
                    .map(|i| {
                        let (u, v) = (p[i], p[(i + 1) % p.len()]);
                        u.x * v.z - v.x * u.z
                    })
                    .sum::<f64>()
                    .abs()
                    / 2.0;
                *m.entry(format!("area {} m2", n.stance.name()))
                    .or_insert(0.0) += a;
            }
        }
        m
    }
    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.graph.navmesh)
    }
}

fn run_graph(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let t = ctx.artifact::<TriangulateArtifact>("triangulate")?;
    let p = ctx.artifact::<PolyMeshArtifact>("polymesh")?;
    let d = ctx.artifact::<DetailArtifact>("detail")?;
    let parts: Vec<TileParts> = (0..r.tiles.len())
        .map(|i| TileParts {
            regions: r.tiles[i].as_slice(),
            meshes: t.tiles[i].as_slice(),
            polys: p.tiles[i].as_slice(),
            detail: d.tiles[i].as_slice(),
        })
        .collect();
    let settings = Settings::from_params(ctx.params)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let c = ctx.artifact::<CompactArtifact>("compact")?;
    let mut graph = build_graph(&r.grid, &settings, &parts, &v.tiles);
    // Each node takes its region's area (Recast's polygon area) and the
    // NavMesh carries the costs the search applies.
    for (n, &(ti, ri)) in graph.navmesh.nodes.iter_mut().zip(&graph.node_region) {
        let area = r.tiles[ti as usize][ri as usize].area;
        if area != DEFAULT_AREA {
            n.area = c.areas.name(area).to_string().into();
        }
    }
    graph.navmesh.area_costs = c.areas.costs.clone();
    Ok(Arc::new(GraphArtifact { graph }))
}

// ---------------------------------------------------------------- movers

/// Stage `movers`: the graph's NavMesh with the level's door, elevator,
/// teleport and jump links ([`crate::movers`]); it draws the nodes and
/// the mover links. Stage `drops` makes one too, with its drop links
/// ([`crate::drops`]) and nothing skipped.
#[derive(Debug, Serialize)]
pub struct MoverArtifact {
    /// The NavMesh with the mover links.
    pub navmesh: NavMesh,
    /// Indices into its links of the mover links.
    pub links: Vec<usize>,
    /// The movers left out, with why.
    pub skipped: Vec<String>,
}

impl Artifact for MoverArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::from([
            ("nodes".to_string(), self.navmesh.nodes.len() as u64),
            ("links".to_string(), self.navmesh.links.len() as u64),
            ("skipped movers".to_string(), self.skipped.len() as u64),
        ]);
        for &i in &self.links {
            *m.entry(format!("{} links", self.navmesh.links[i].kind.name()))
                .or_insert(0) += 1;
        }
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let mut p = Prims::new();
        for n in &self.navmesh.nodes {
            p.push(Primitive::new(
                format!("node/{}", n.stance.name()),
                n.id,
                Shape::Point(n.position.as_vec3()),
            ));
        }
        for &i in &self.links {
            let l = &self.navmesh.links[i];
            let (a, b) = match l.segment() {
                Some([a, b]) if l.kind != LinkKind::Door => (a, b),
                _ => (
                    self.navmesh.nodes[l.from as usize].position,
                    self.navmesh.nodes[l.to as usize].position,
                ),
            };
            p.push(Primitive::new(
                format!("link/{}", l.kind.name()),
                i as u32,
                Shape::Segment(a.as_vec3(), b.as_vec3()),
            ));
        }
        p.finish(
            self.navmesh
                .nodes
                .first()
                .map_or(Vec3::ZERO, |n| n.position.as_vec3()),
        )
    }
    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.navmesh)
    }
}

fn run_movers(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let g = ctx.artifact::<GraphArtifact>("graph")?;
    let level = mesh_of(ctx)?;
    let s = Settings::from_params(ctx.params)?;
    let agent = s
        .passes
        .first()
        .ok_or_else(|| StageError::failed("no pass is enabled"))?
        .agent;
    let reach = Reach {
        tolerance: agent.radius + 2.0 * s.cell_size,
        radius: agent.radius,
        height: agent.height,
        step: agent.max_step,
    };
    let mut navmesh = g.graph.navmesh.clone();
    let got = add_mover_links(&mut navmesh, &level.movers, reach);
    Ok(Arc::new(MoverArtifact {
        navmesh,
        links: got.links,
        skipped: got.skipped,
    }))
}

/// Runs the stage on the `movers` stage's NavMesh.
fn run_drops(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let m = ctx.artifact::<MoverArtifact>("movers")?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let s = Settings::from_params(ctx.params)?;
    // The parameter's spec keeps it in 0..=100.
    let max_drop = ctx.params.float(crate::settings::MAX_DROP);
    let voxels = drops::Voxels {
        grid: &v.grid,
        tiles: &v.tiles,
        max_error: s.max_error,
    };
    let agent = |st: Stance| s.passes.iter().find(|p| p.stance == st).map(|p| p.agent);
    let drops = drops::find_drops(&m.navmesh, agent, &voxels, max_drop);
    let mut navmesh = m.navmesh.clone();
    let links = drops::add_drop_links(&mut navmesh, &drops);
    Ok(Arc::new(MoverArtifact {
        navmesh,
        links,
        skipped: Vec::new(),
    }))
}

/// The stage functions in order: `(id, function)`.
pub const FUNCTIONS: [(&str, navscope_core::stage::StageFn); 13] = [
    ("tiles", run_tiles),
    ("voxelize", run_voxelize),
    ("compact", run_compact),
    ("flag", run_flag),
    ("regions", run_partition),
    ("contours", run_contours),
    ("simplify", run_simplify),
    ("triangulate", run_triangulate),
    ("polymesh", run_polymesh),
    ("detail", run_detail),
    ("graph", run_graph),
    ("movers", run_movers),
    ("drops", run_drops),
];

/// The kind of a voxel an earlier pass claimed, `voxel/claimed/{stance}`,
/// as a fixed string: the flag stage draws one per claimed voxel in every
/// later pass, and a string made for each was a heap allocation each.
pub(crate) fn claimed_kind(stance: Stance) -> &'static str {
    match stance {
        Stance::Stand => "voxel/claimed/stand",
        Stance::Crouch => "voxel/claimed/crouch",
        Stance::Prone => "voxel/claimed/prone",
        Stance::Swim => "voxel/claimed/swim",
        Stance::Sidestep => "voxel/claimed/sidestep",
    }
}

/// What the flag stage draws of one span, given its flag and its pass's
/// stance in each pass in turn: `(kind, first sub-step, last sub-step)`.
/// Each pass is one sub-step. A pass that flags the span walkable or
/// border draws it so in its own sub-step, and (unless it is the last
/// pass) in its stance's claimed colour from the next sub-step on: the
/// coverage growing. The passes that leave it non-walkable draw it
/// non-walkable, as one run over their sub-steps: a span no pass claims
/// is one primitive over all of them, not one per pass (on `dungeon.obj`
/// at 0.1 m cells, 297,000 spans no pass claims were drawn five times).
fn flag_runs(
    flags: impl ExactSizeIterator<Item = (u8, Stance)>,
) -> impl Iterator<Item = (&'static str, u32, u32)> {
    const KINDS: [&str; 3] = ["voxel/non-walkable", "voxel/walkable", "voxel/border"];
    let passes = flags.len();
    let mut out = Vec::new();
    let mut run: Option<u32> = None;
    for (k, (flag, stance)) in flags.enumerate() {
        let k = k as u32;
        let non_walkable = flag == NON_WALKABLE;
        if let Some(first) = run.filter(|_| !non_walkable) {
            out.push((KINDS[0], first, k - 1));
            run = None;
        }
        if non_walkable {
            run.get_or_insert(k);
        } else if flag > NON_WALKABLE {
            out.push((KINDS[(flag - NON_WALKABLE) as usize], k, k));
            if (k as usize) + 1 < passes {
                out.push((claimed_kind(stance), k + 1, u32::MAX));
            }
        }
    }
    if let Some(first) = run {
        out.push((KINDS[0], first, passes as u32 - 1));
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::reference_flag_prims;

    /// The kinds shown at sub-step `t`, sorted.
    fn shown_at(prims: &[(&'static str, u32, u32)], t: u32) -> Vec<&'static str> {
        let mut v: Vec<_> = prims
            .iter()
            .filter(|(_, a, b)| *a <= t && t <= *b)
            .map(|p| p.0)
            .collect();
        v.sort_unstable();
        v
    }

    const STANCES: [Stance; 5] = [
        Stance::Stand,
        Stance::Crouch,
        Stance::Prone,
        Stance::Swim,
        Stance::Sidestep,
    ];

    proptest::proptest! {
        /// Runs show at every sub-step exactly what one primitive per pass
        /// shows, with at most three primitives a span.
        #[test]
        fn flag_runs_show_what_one_primitive_per_pass_shows(
            claim in proptest::option::of(0usize..5),
            passes in 1usize..=5,
            border in proptest::bool::ANY,
            pooled in proptest::bool::ANY,
        ) {
            // A span in the first pass's pool (or not, when `pooled` is
            // false: no flag at all), non-walkable until a pass claims it,
            // then claimed (flag 0) in the passes after.
            let flags: Vec<(u8, Stance)> = (0..passes)
                .map(|k| {
                    let flag = match claim {
                        _ if !pooled => crate::pass_flags::CLAIMED,
                        Some(c) if k == c => if border { BORDER } else { WALKABLE },
                        Some(c) if k > c => crate::pass_flags::CLAIMED,
                        _ => NON_WALKABLE,
                    };
                    (flag, STANCES[k])
                })
                .collect();
            let old = reference_flag_prims(&flags);
            let new: Vec<_> = flag_runs(flags.iter().copied()).collect();
            for t in 0..passes as u32 + 2 {
                proptest::prop_assert_eq!(shown_at(&old, t), shown_at(&new, t), "sub-step {}", t);
            }
            proptest::prop_assert!(new.len() <= 3 && new.len() <= old.len());
        }
    }

    #[test]
    fn a_span_no_pass_claims_is_one_primitive_over_every_pass() {
        let flags = STANCES.map(|s| (NON_WALKABLE, s));
        let runs: Vec<_> = flag_runs(flags.into_iter()).collect();
        assert_eq!(runs, vec![("voxel/non-walkable", 0, 4)]);
        assert_eq!(flag_runs(std::iter::empty::<(u8, Stance)>()).count(), 0);
        // Claimed by the last pass: no claimed colour after it.
        let mut last = flags;
        last[4].0 = WALKABLE;
        let runs: Vec<_> = flag_runs(last.into_iter()).collect();
        assert_eq!(
            runs,
            vec![("voxel/non-walkable", 0, 3), ("voxel/walkable", 4, 4)]
        );
    }

    #[test]
    fn a_claimed_kind_names_its_stance() {
        for s in Stance::ALL {
            assert_eq!(claimed_kind(s), format!("voxel/claimed/{}", s.name()));
        }
    }
}
