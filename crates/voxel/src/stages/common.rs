//! What the stages' artifacts share: the bounded drawing, the tile cache's keys, the
//! per-pass sub-steps and the outlines of each pass's region spans.

use std::fmt::Debug;
use std::sync::{Arc, OnceLock};

use glam::Vec3;
use navscope_core::draw::SubStep;
use navscope_core::level::{LevelData, MeshLevel};
use navscope_core::{Primitive, Shape, StageContext, StageError};

use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::outline::outline;
use crate::partition::{NO_REGION, PassPartition};
use crate::pass_flags::PassFlags;

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
    pub(super) fn new() -> Self {
        Prims {
            out: Vec::new(),
            dropped: 0,
        }
    }
    pub(super) fn push(&mut self, p: Primitive) {
        if self.out.len() < MAX_PRIMITIVES {
            self.out.push(p)
        } else {
            self.dropped += 1
        }
    }
    pub(super) fn finish(mut self, at: Vec3) -> Vec<Primitive> {
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

pub(super) fn mesh_of<'a>(ctx: &StageContext<'a>) -> Result<&'a MeshLevel, StageError> {
    match &ctx.level.data {
        LevelData::Mesh(m) => Ok(m),
        _ => Err(StageError::failed(format!(
            "the voxel pipeline needs a triangle mesh, not a {}",
            ctx.level.kind().name()
        ))),
    }
}

pub(super) fn top(grid: &Grid) -> Vec3 {
    grid.origin.as_vec3()
}

/// Calls `emit(span, column)` for every span of the tile's core columns,
/// `column` being the `VoxelColumn` of the cell from `y0` to `y1` as `key`
/// gives them for that span (`None` skips it).
pub(super) fn core_columns(
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

/// The sub-step of pass `k` (0-based) named `name`: what the stage made
/// for that pass, and `highlights` (its own spans' outline,
/// [`pass_outline`]).
pub(super) fn pass_step(
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
pub(super) fn pass_outline<'a>(
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

/// Each pass's region spans on every tile (the spans its partition put in
/// a region, which the stages from `regions` on build on) with the span
/// links they are connected by: what those stages' sub-steps outline.
/// Shared with the earlier stages' artifacts, never copied; a clone shares
/// the outlines too, so the six stages from `regions` to `detail`
/// compute each pass's outline once between them.
#[derive(Clone, Debug)]
pub(super) struct RegionSpans {
    pub(super) grid: Grid,
    pub(super) heightfields: Vec<Arc<Heightfield>>,
    /// Per tile, per pass (their links).
    pub(super) flags: Vec<Arc<Vec<PassFlags>>>,
    /// Per tile, per pass.
    pub(super) parts: Vec<Arc<Vec<PassPartition>>>,
    /// Per pass, its outline once some stage has asked for it.
    pub(super) outlines: Arc<[OnceLock<Vec<Primitive>>]>,
}

impl RegionSpans {
    /// The region spans of `passes` passes.
    pub(super) fn new(
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
    pub(super) fn highlights(&self, k: usize) -> Vec<Primitive> {
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
