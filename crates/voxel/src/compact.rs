//! Stage `compact`: Recast's compact heightfield (`rcBuildCompactHeightfield`)
//! with its span neighbours, and the areas convex volumes mark on it
//! (`rcMarkConvexPolyArea`).
//!
//! Per pass: which spans the pass may stand on before erosion (slope, water
//! depth and Recast's filters, [`crate::filters::passable`]: Recast's
//! compact spans are the walkable spans the filters leave) and the span
//! neighbours, one per side (Recast's `rcSetCon`: the span of the side
//! column whose floor is within the pass's step and whose open interval
//! shares the pass's height with this one, [`crate::links::links`]). Both
//! depend only on the heightfield and the pass's agent table, never on what
//! earlier passes claimed, so they are computed here once, before the
//! recycled passes of the `flag` stage. Passes with the same height and
//! step share their neighbours; the neighbours of all the passes are found
//! in one walk over the columns ([`crate::links::links`]), and the ledge
//! filter reads each span's side columns once for all the passes. Neighbours are computed only in columns
//! within the pass's erosion reach of a passable span (farther ones can
//! change no flag; [`compact_tile`]); a pass with no passable span has none.
//!
//! Areas: every span starts in the default area (0); each convex volume,
//! in list order (a later one wins), gives its area to the spans whose
//! cell centre lies inside its polygon (boundary included) and whose floor
//! lies within its `[min_y, max_y]`, as Recast's `rcMarkConvexPolyArea`
//! does. Areas are marked on every span, walkable or not, so that each
//! pass's regions see them; the `regions` stage never lets a region cross
//! from one area to another (Recast's regions never do), so each polygon
//! and node has one area.

use std::collections::BTreeMap;
use std::sync::Arc;

use navscope_core::StageError;
use navscope_core::level::ConvexVolume;
use serde::Serialize;

use crate::chamfer::erosion_reach;
use crate::filters::passable;
use crate::grid::Grid;
use crate::heightfield::Heightfield;
use crate::links::{Limits, links, near_columns};
use crate::settings::{Filters, Pass};

/// The default area: spans no volume marks.
pub const DEFAULT_AREA: u8 = 0;

/// Most distinct area names (the default one included): areas are `u8`.
pub const MAX_AREAS: usize = 255;

/// The area names of a build and their costs: index 0 is
/// [`navscope_core::navmesh::DEFAULT_AREA`], then the volumes' names in
/// their first-appearance order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AreaTable {
    /// Area names by index.
    pub names: Vec<String>,
    /// Cost multiplier of each named area (the default area costs 1).
    pub costs: BTreeMap<String, f64>,
    /// The area index each volume gives.
    pub volume_area: Vec<u8>,
}

impl AreaTable {
    /// The table of `volumes` with the preset costs `preset` (name, cost):
    /// an area's cost is the cost its volumes give, else the preset's, else
    /// one. Two volumes giving one name different costs is an error naming
    /// both, and so is a list of more than [`MAX_AREAS`] names.
    pub fn new(volumes: &[ConvexVolume], preset: &[(&str, f64)]) -> Result<Self, StageError> {
        let mut names = vec![navscope_core::navmesh::DEFAULT_AREA.to_string()];
        let mut given: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
        let mut volume_area = Vec::with_capacity(volumes.len());
        for (i, v) in volumes.iter().enumerate() {
            let k = match names.iter().position(|n| *n == v.area) {
                Some(k) => k,
                None if names.len() < MAX_AREAS => {
                    names.push(v.area.clone());
                    names.len() - 1
                }
                None => {
                    return Err(StageError::failed(format!(
                        "convex volume {i}: more than {} area names",
                        MAX_AREAS - 1
                    )));
                }
            };
            volume_area.push(k as u8);
            if let Some(c) = v.cost {
                match given.get(v.area.as_str()) {
                    Some(&(j, d)) if d != c => {
                        return Err(StageError::failed(format!(
                            "convex volumes {j} and {i}: area '{}' has costs {d} and {c}",
                            v.area
                        )));
                    }
                    _ => {
                        given.insert(&v.area, (i, c));
                    }
                }
            }
        }
        let costs = names
            .iter()
            .skip(1)
            .map(|n| {
                let preset = preset.iter().find(|(p, _)| p == n).map(|p| p.1);
                let c = given.get(n.as_str()).map(|g| g.1).or(preset).unwrap_or(1.0);
                (n.clone(), c)
            })
            .collect();
        Ok(AreaTable {
            names,
            costs,
            volume_area,
        })
    }

    /// The name of area `a`.
    pub fn name(&self, a: u8) -> &str {
        self.names
            .get(a as usize)
            .map_or(navscope_core::navmesh::DEFAULT_AREA, |n| n.as_str())
    }
}

/// One pass's compact heightfield.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompactPass {
    /// Spans the pass may stand on before erosion.
    pub passable: Vec<bool>,
    /// `links[4 * s + dir]`: the neighbour of span `s` towards
    /// [`crate::links::DIRS`]`[dir]`, or [`crate::links::NO_LINK`]; empty
    /// when no span is passable.
    #[serde(skip)]
    pub links: Arc<Vec<u32>>,
}

/// A tile's compact heightfield: every pass's, and the areas.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompactTile {
    /// One per pass, in pass order.
    pub passes: Vec<CompactPass>,
    /// Area of every span ([`DEFAULT_AREA`] or an index into the
    /// [`AreaTable`]).
    pub area: Vec<u8>,
}

impl CompactTile {
    /// Number of passable spans of pass `k` in the tile's core, and of
    /// their neighbour connections (each counted once per direction).
    pub fn core_counts(&self, hf: &Heightfield, k: usize) -> (u64, u64) {
        let Some(p) = self.passes.get(k) else {
            return (0, 0);
        };
        let (mut spans, mut cons) = (0, 0);
        for c in hf.core_columns() {
            for s in hf.range(c).filter(|&s| p.passable[s]) {
                spans += 1;
                if !p.links.is_empty() {
                    cons += (0..4)
                        .filter(|&d| {
                            let l = p.links[4 * s + d];
                            l != crate::links::NO_LINK && p.passable[l as usize]
                        })
                        .count() as u64;
                }
            }
        }
        (spans, cons)
    }
}

/// Builds a tile's compact heightfield for `passes` and marks the areas of
/// `volumes` (their area indices in `table`).
pub fn compact_tile(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[Pass],
    filters: Filters,
    volumes: &[ConvexVolume],
    table: &AreaTable,
) -> CompactTile {
    compact_tile_with(hf, grid, passes, filters, volumes, table, true)
}

/// [`compact_tile`], optionally with neighbours in every column (the same
/// flags, for tests).
pub(crate) fn compact_tile_with(
    hf: &Heightfield,
    grid: &Grid,
    passes: &[Pass],
    filters: Filters,
    volumes: &[ConvexVolume],
    table: &AreaTable,
    masked: bool,
) -> CompactTile {
    let ok = passable(hf, grid, passes, filters);
    // Passes sharing limits share neighbours, over the union of their reach.
    let mut shared: Vec<(Limits, Vec<usize>)> = Vec::new();
    for (k, p) in passes.iter().enumerate() {
        let lim = Limits::of(p, grid);
        match shared.iter_mut().find(|(l, _)| *l == lim) {
            Some((_, ks)) => ks.push(k),
            None => shared.push((lim, vec![k])),
        }
    }
    // A group none of whose passes has a passable span gets none.
    shared.retain(|(_, ks)| ks.iter().any(|&k| ok[k].iter().any(|&b| b)));
    let masks: Vec<Option<Vec<bool>>> = shared
        .iter()
        .map(|(_, ks)| {
            masked.then(|| {
                let near = |k: usize| {
                    let reach = erosion_reach(passes[k].agent.radius, grid.cs);
                    near_columns(hf, |s| ok[k][s], reach)
                };
                let mut m = near(ks[0]);
                for &k in &ks[1..] {
                    for (m, near) in m.iter_mut().zip(near(k)) {
                        *m |= near;
                    }
                }
                m
            })
        })
        .collect();
    let sets: Vec<(Limits, Option<&[bool]>)> = shared
        .iter()
        .zip(&masks)
        .map(|((lim, _), m)| (*lim, m.as_deref()))
        .collect();
    let mut link: Vec<Arc<Vec<u32>>> = (0..passes.len()).map(|_| Arc::new(Vec::new())).collect();
    for ((_, ks), l) in shared.iter().zip(links(hf, &sets)) {
        let l = Arc::new(l);
        for &k in ks {
            if ok[k].iter().any(|&b| b) {
                link[k] = l.clone();
            }
        }
    }
    CompactTile {
        passes: ok
            .into_iter()
            .zip(link)
            .map(|(passable, links)| CompactPass { passable, links })
            .collect(),
        area: mark_areas(hf, grid, volumes, table),
    }
}

/// Recast's `rcMarkConvexPolyArea` for every volume, in order.
pub fn mark_areas(
    hf: &Heightfield,
    grid: &Grid,
    volumes: &[ConvexVolume],
    table: &AreaTable,
) -> Vec<u8> {
    let mut area = vec![DEFAULT_AREA; hf.spans.len()];
    for (v, &a) in volumes.iter().zip(&table.volume_area) {
        let (lo, hi) = v.points.iter().fold(
            (
                glam::DVec2::splat(f64::INFINITY),
                glam::DVec2::splat(f64::NEG_INFINITY),
            ),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        // Columns whose centre may lie inside, clamped to the padded tile.
        let cell = |w: f64, o: f64| ((w - o) / grid.cs - 0.5).ceil();
        let x0 = (cell(lo.x, grid.origin.x).max(hf.px as f64)) as i32;
        let z0 = (cell(lo.y, grid.origin.z).max(hf.pz as f64)) as i32;
        let x1 = (((hi.x - grid.origin.x) / grid.cs - 0.5).floor()).min((hf.px + hf.w - 1) as f64)
            as i32;
        let z1 = (((hi.y - grid.origin.z) / grid.cs - 0.5).floor()).min((hf.pz + hf.d - 1) as f64)
            as i32;
        for z in z0..=z1 {
            for x in x0..=x1 {
                let (cx, cz) = (grid.x(x) + 0.5 * grid.cs, grid.z(z) + 0.5 * grid.cs);
                if !v.contains_xz(cx, cz) {
                    continue;
                }
                let Some(c) = hf.col(x, z) else { continue };
                for s in hf.range(c) {
                    let y = grid.y(hf.spans[s].floor);
                    if y >= v.min_y && y <= v.max_y {
                        area[s] = a;
                    }
                }
            }
        }
    }
    area
}
