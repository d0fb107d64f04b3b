//! Swim entry and exit links (§32.4.2): where water meets walkable ground.
//!
//! A swim area ends a swim radius away from where the water stops being
//! deep enough, and the standing (or crouch, sidestep...) area ends that
//! stance's radius away from the pool's rim, so the two never share an edge
//! at a pool with a wall; the paper says nothing about how a swimmer gets in
//! or out. navscope's choice: a `link/swim` across every outline edge of a
//! swim triangle that meets no other area, to the nearest node of another
//! stance beyond that edge that the swimmer can reach across the gap:
//!
//! * **Gap.** The other triangle's point nearest the edge lies strictly on
//!   the edge's outer side, and its plan distance from the edge is at most
//!   [`max_gap`] = 1.08 (swim radius + the other stance's radius) + 2 (cell
//!   size + max simplification error): each area stops about its radius
//!   from the shore (the chamfer distance is at most 7.7% short of the
//!   Euclidean one, hence 1.08), give or take a cell of rounding and a
//!   simplification error on each side. With the paper's tables and 0.1 m
//!   cells that is 2.01 m to the standing area and 1.80 m to the sidestep
//!   band.
//! * **Reachable.** The agent crosses along the straight plan segment
//!   between the edge's and the triangle's closest points, over the voxel
//!   columns under it: it starts at the water surface; over a wet column it stays on the
//!   surface, over a dry one it is on the floor; from column to column the
//!   height changes by at most the other stance's step height (plus a
//!   voxel), with room for the swim height above the surface or the other
//!   stance's height above a dry floor; and it ends within a step of the
//!   other triangle. So a wall, a cliff or a deck too high above the water
//!   gets no link, and the climb out is judged from the water surface.
//! * **Nearest.** Candidates are tried by gap, then node id; the first
//!   reachable one is linked (once per pair of nodes). Edges that already
//!   meet another area (water that shallows gradually, a tile seam) get no
//!   swim link.
//!
//! The link's kind is `step-up` from the water to ground more than a voxel
//! above the surface (`step-down` back), `walk` otherwise; its portal is
//! the midpoint of the crossing at the mean of the two heights, and its cost
//! the distance between the nodes, as for every other link.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use glam::{DVec2, DVec3};
use navscope_core::{NavMesh, Stance};

use crate::grid::Grid;
use crate::heightfield::{Heightfield, OPEN, Span, floor_i32, floor_i64};
use crate::settings::{AgentParams, Settings};

/// Slack on the two radii for the chamfer distance (at most 7.7% short).
pub const RADIUS_SLACK: f64 = 1.08;

/// The widest plan gap a swim link crosses between a swim triangle and one
/// of a stance with radius `r_other` (see the module docs).
pub fn max_gap(r_swim: f64, r_other: f64, cell_size: f64, max_error: f64) -> f64 {
    RADIUS_SLACK * (r_swim + r_other) + 2.0 * (cell_size + max_error)
}

/// What the swim links need to know of a node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeInfo {
    /// Its pass (index into the settings' passes).
    pub pass: usize,
    /// Its region's water surface.
    pub water: Option<f32>,
}

/// One swim link found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SwimLink {
    /// The swim node.
    pub swim: u32,
    /// The node of the other stance.
    pub land: u32,
    /// Where the crossing leaves the swim triangle, at the water surface.
    pub from: DVec3,
    /// Where it reaches the other triangle, on it.
    pub to: DVec3,
}

/// The voxel columns of every tile by global cell. The tiles need not
/// cover the grid: a tile with no geometry is left out of the tile list
/// (most of a level's bounding box is empty), so a tile is found by where
/// its core lies, not by its place in the list.
pub(crate) struct Columns<'a> {
    tiles: &'a [Arc<Heightfield>],
    /// The tiles' first core columns and rows, sorted, each once.
    xs: Vec<i32>,
    zs: Vec<i32>,
    /// `1 + index into tiles` of the tile at (`xs[i]`, `zs[j]`), at `j *
    /// xs.len() + i`; 0: none.
    at: Vec<u32>,
}

impl<'a> Columns<'a> {
    pub(crate) fn new(tiles: &'a [Arc<Heightfield>]) -> Self {
        let firsts = |f: fn(&Heightfield) -> i32| {
            let mut v: Vec<i32> = tiles.iter().map(|t| f(t)).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let (xs, zs) = (firsts(|t| t.rect.x0), firsts(|t| t.rect.z0));
        let mut at = vec![0u32; xs.len() * zs.len()];
        for (k, t) in tiles.iter().enumerate() {
            let i = xs.binary_search(&t.rect.x0).expect("listed");
            let j = zs.binary_search(&t.rect.z0).expect("listed");
            at[j * xs.len() + i] = k as u32 + 1;
        }
        Columns { tiles, xs, zs, at }
    }

    /// The spans of global cell `(x, z)`, from the tile whose core holds
    /// it; `None` where no tile does. The tile cores split the grid along
    /// the tile lines, so the only tile that can hold the cell is the one
    /// starting at the last listed column and row at or before it.
    pub(crate) fn spans(&self, x: i32, z: i32) -> Option<&'a [Span]> {
        let i = self.xs.partition_point(|&x0| x0 <= x).checked_sub(1)?;
        let j = self.zs.partition_point(|&z0| z0 <= z).checked_sub(1)?;
        let k = self.at[j * self.xs.len() + i].checked_sub(1)?;
        let hf = &self.tiles[k as usize];
        if !hf.rect.in_core(x, z) {
            return None;
        }
        let c = hf.col(x, z)?;
        Some(&hf.spans[hf.range(c)])
    }
}

/// How far from a swimmer's centre its footprint is sampled
/// ([`stance_height`]): the radius less half a cell, the footprint's sides
/// and corners falling in the columns the body covers.
pub(crate) fn body_side(radius: f64, cs: f64) -> f64 {
    (radius - 0.5 * cs).max(0.0)
}

/// Whether a body of radius `r` fits across the line through plan point
/// `p` that runs at right angles to unit vector `u`: the free distance
/// either side of `p` along `u`, and along the grid axis nearest `u` (to
/// where the ray enters the first column
/// `open` refuses) is at least the radius less a cell on each side (the
/// nodes lie a radius from walls, give or take a cell of the erosion's
/// rounding), and the two together are more than the body's width `2 r`
/// (or one side is free beyond `r` plus a cell, which the other's least
/// distance makes up).
/// The body must fit strictly: Quake's 32-unit player does not pass a
/// 32-unit gap between bars (its hull, pressed against both, would have
/// no room to move), though it walks along a wall it touches.
pub(crate) fn fits_across(
    grid: &Grid,
    p: DVec2,
    u: DVec2,
    r: f64,
    open: impl Fn(DVec2) -> bool,
) -> bool {
    // Along the grid axis nearest `u` too: a line crossing a slot between
    // voxel columns at a slant finds the slot wider across itself than it
    // is.
    let axis = if u.x.abs() >= u.y.abs() {
        DVec2::new(u.x.signum(), 0.0)
    } else {
        DVec2::new(0.0, u.y.signum())
    };
    fits_along(grid, p, u, r, &open) && (axis == u || fits_along(grid, p, axis, r, &open))
}

/// [`fits_across`] measured along `u` only.
fn fits_along(grid: &Grid, p: DVec2, u: DVec2, r: f64, open: &impl Fn(DVec2) -> bool) -> bool {
    // A side free out to `r + cs` leaves room for the body with the other
    // side as close as `r - cs`: no need to look further.
    let reach = r + grid.cs + 1e-6;
    let a = free_along(grid, p, u, reach, open);
    if a < r - grid.cs {
        return false;
    }
    let b = free_along(grid, p, -u, reach, open);
    b >= r - grid.cs && (a + b > 2.0 * r + 1e-9 || a >= reach || b >= reach)
}

/// Distance from plan point `p` along unit vector `d` to where the ray
/// enters the first grid column whose centre `open` refuses (0 when `p`'s
/// own column is refused), walking the columns the ray crosses in order;
/// `reach` when none is refused before it.
fn free_along(grid: &Grid, p: DVec2, d: DVec2, reach: f64, open: &impl Fn(DVec2) -> bool) -> f64 {
    let cs = grid.cs;
    let o = DVec2::new(grid.origin.x, grid.origin.z);
    let q = (p - o) / cs;
    let mut cell = [q.x.floor(), q.y.floor()];
    let (qs, ds) = ([q.x, q.y], [d.x, d.y]);
    // Distance along the ray to the next column line on each axis, and
    // between two of them.
    let mut next = [f64::INFINITY; 2];
    let mut delta = [f64::INFINITY; 2];
    for k in 0..2 {
        if ds[k] > 0.0 {
            next[k] = (cell[k] + 1.0 - qs[k]) * cs / ds[k];
            delta[k] = cs / ds[k];
        } else if ds[k] < 0.0 {
            next[k] = (qs[k] - cell[k]) * cs / -ds[k];
            delta[k] = cs / -ds[k];
        }
    }
    let mut t = 0.0;
    while t < reach {
        let centre = o + DVec2::new(cell[0] + 0.5, cell[1] + 0.5) * cs;
        if !open(centre) {
            return t;
        }
        let k = if next[0] <= next[1] { 0 } else { 1 };
        t = next[k];
        next[k] += delta[k];
        cell[k] += ds[k].signum();
    }
    reach
}

/// Where a swimmer `agent` floats over plan point `p`, in the water over
/// the floor near height `near` (the swim polygon's surface there): at
/// the water surface where it fits between the surface and the ceiling,
/// else as high as it fits under the ceiling (a passage flooded to its
/// ceiling), and never below the floor. The whole body must fit: the
/// height is the lowest of those over the columns under `p` and under the
/// eight points of the square [`body_side`] from it (its sides and
/// corners), each column read in its open span holding `near` (a column
/// with none, a wall beside a polygon's corner, does not count; under `p`
/// the span whose floor is nearest `near` counts then). So a
/// swimmer under the bars of a grate stays under them, though the columns
/// between the bars are open to the surface. The swim pass keeps only
/// spans with room for the swimmer over their floor ([`crate::filters`]).
/// `None` where the grid has no column under `p`.
pub(crate) fn stance_height(
    cols: &Columns,
    grid: &Grid,
    p: DVec2,
    near: f64,
    agent: &AgentParams,
) -> Option<f64> {
    let side = body_side(agent.radius, grid.cs);
    let mut floor_here = near;
    let mut top = f64::INFINITY;
    for (k, (dx, dz)) in [
        (0.0, 0.0),
        (-1.0, 0.0),
        (1.0, 0.0),
        (0.0, -1.0),
        (0.0, 1.0),
        (-1.0, -1.0),
        (1.0, -1.0),
        (-1.0, 1.0),
        (1.0, 1.0),
    ]
    .into_iter()
    .enumerate()
    {
        let (x, z) = (
            floor_i32((p.x + dx * side - grid.origin.x) / grid.cs),
            floor_i32((p.y + dz * side - grid.origin.z) / grid.cs),
        );
        let Some(spans) = cols.spans(x, z) else {
            continue;
        };
        // The open span holding `near` (a voxel of slack: the polygon's
        // surface is the voxels' floor, rounded); under `p` itself, the
        // span whose floor is nearest when none holds it.
        let holding = spans.iter().find(|sp| {
            grid.y(sp.floor) <= near + grid.ch && (sp.ceil == OPEN || grid.y(sp.ceil) > near)
        });
        let nearest = || {
            spans.iter().min_by(|a, b| {
                (grid.y(a.floor) - near)
                    .abs()
                    .total_cmp(&(grid.y(b.floor) - near).abs())
            })
        };
        let Some(sp) = holding.or_else(|| if k == 0 { nearest() } else { None }) else {
            if k == 0 {
                return None;
            }
            continue;
        };
        let floor = grid.y(sp.floor);
        if k == 0 {
            floor_here = floor;
        }
        let surface = if sp.water.is_nan() {
            floor
        } else {
            floor.max(sp.water as f64)
        };
        let under_ceiling = if sp.ceil == OPEN {
            f64::INFINITY
        } else {
            grid.y(sp.ceil) - agent.height
        };
        top = top.min(surface.min(under_ceiling));
    }
    Some(top.max(floor_here))
}

pub(crate) fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

pub(crate) fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// True when `p` is in convex polygon `t` or on its boundary (either winding).
pub(crate) fn inside(t: &[DVec2], p: DVec2) -> bool {
    // Every side's cross product has one sign (or is 0): once one is not
    // `>= 0` and one not `<= 0` (a NaN is neither), `p` is outside.
    let (mut below, mut above) = (false, false);
    let Some(&(mut a)) = t.last() else {
        return true;
    };
    for &b in t {
        let v = cross(b - a, p - a);
        below |= v < 0.0 || v.is_nan();
        above |= v > 0.0 || v.is_nan();
        if below && above {
            return false;
        }
        a = b;
    }
    true
}

fn closest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let ab = b - a;
    let l = ab.length_squared();
    if l == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / l).clamp(0.0, 1.0)
}

/// Closest points `(on a, on b)` of two plan shapes, each a convex
/// polygon (3 or more points) or a segment (2 points); equal points when
/// they overlap.
fn closest(a: &[DVec2], b: &[DVec2]) -> (DVec2, DVec2) {
    for (s, t) in [(a, b), (b, a)] {
        if t.len() >= 3
            && let Some(&p) = s.iter().find(|&&p| inside(t, p))
        {
            return (p, p);
        }
    }
    let mut best = (f64::INFINITY, a[0], b[0]);
    for i in 0..a.len() {
        let (a0, a1) = (a[i], a[(i + 1) % a.len()]);
        for j in 0..b.len() {
            let (b0, b1) = (b[j], b[(j + 1) % b.len()]);
            // Proper crossing.
            let (da, db) = (a1 - a0, b1 - b0);
            let den = cross(da, db);
            if den != 0.0 {
                let t = cross(b0 - a0, db) / den;
                let u = cross(b0 - a0, da) / den;
                if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
                    let p = a0 + da * t;
                    return (p, p);
                }
            }
            for (p, q) in [
                (a0, closest_on_segment(b0, b1, a0)),
                (a1, closest_on_segment(b0, b1, a1)),
                (closest_on_segment(a0, a1, b0), b0),
                (closest_on_segment(a0, a1, b1), b1),
            ] {
                let d = p.distance_squared(q);
                if d < best.0 {
                    best = (d, p, q);
                }
            }
        }
    }
    (best.1, best.2)
}

/// Squared plan distance from `p` to triangle `t` (0 inside or on it):
/// [`closest`] of the point (as a segment of length 0) and the triangle,
/// without the work that a segment of length 0 makes void (its crossing
/// tests, its second copy, the closest points on it); the same candidate
/// distances, so the same value.
fn point_distance2(p: DVec2, t: &[DVec2; 3]) -> f64 {
    if inside(t, p) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for j in 0..3 {
        let (b0, b1) = (t[j], t[(j + 1) % 3]);
        for q in [closest_on_segment(b0, b1, p), b0, b1] {
            let d = p.distance_squared(q);
            if d < best {
                best = d;
            }
        }
    }
    best
}

/// Height of a node's surface over plan point `p`: on the detail triangle
/// nearest to `p` in plan (the one holding it when any does), else on the
/// polygon's first three corners.
pub(crate) fn node_height(node: &navscope_core::navmesh::Node, p: DVec2) -> Option<f64> {
    // Each triangle's distance once; the first of equal ones wins.
    let mut near: Option<(f64, &[DVec3; 3])> = None;
    for t in node.detail.iter().flatten() {
        let d = point_distance2(p, &t.map(plan));
        if near.is_none_or(|(b, _)| d.total_cmp(&b).is_lt()) {
            near = Some((d, t));
            // Nothing is nearer than a triangle holding the point, and
            // only a strictly nearer one would replace it.
            if d == 0.0 {
                break;
            }
        }
    }
    match near {
        Some((_, t)) => Some(height_on(t, p)),
        None => node.polygon.as_ref().map(|poly| height_on(poly, p)),
    }
}

/// Height of triangle `t` over plan point `p` (its plane, clamped to its
/// corners' heights).
fn height_on(t: &[DVec3], p: DVec2) -> f64 {
    let (a, b, c) = (plan(t[0]), plan(t[1]), plan(t[2]));
    let den = cross(b - a, c - a);
    let lo = t.iter().map(|v| v.y).fold(f64::INFINITY, f64::min);
    let hi = t.iter().map(|v| v.y).fold(f64::NEG_INFINITY, f64::max);
    if den == 0.0 {
        return (lo + hi) / 2.0;
    }
    let u = cross(p - a, c - a) / den;
    let v = cross(b - a, p - a) / den;
    (t[0].y + (t[1].y - t[0].y) * u + (t[2].y - t[0].y) * v).clamp(lo, hi)
}

/// The crossing rule of the module docs: from `from` (plan) at the water
/// surface `water` to `to`, ending at height `end`.
#[allow(clippy::too_many_arguments)]
fn reachable(
    grid: &Grid,
    cols: &Columns,
    from: DVec2,
    to: DVec2,
    water: f64,
    end: f64,
    s: &Settings,
    swim: usize,
    other: usize,
) -> bool {
    let (sw, ot) = (&s.passes[swim].agent, &s.passes[other].agent);
    let ch = grid.ch;
    let step = ot.max_step + ch;
    let len = from.distance(to);
    let n = (len / (grid.cs * 0.5)).ceil() as usize + 1;
    let mut cur = water;
    let mut last = None;
    for k in 0..=n {
        let p = from + (to - from) * (k as f64 / n as f64);
        let cell = (
            floor_i32((p.x - grid.origin.x) / grid.cs),
            floor_i32((p.y - grid.origin.z) / grid.cs),
        );
        if last == Some(cell) {
            continue;
        }
        last = Some(cell);
        let Some(spans) = cols.spans(cell.0, cell.1) else {
            return false;
        };
        let next = spans
            .iter()
            .filter_map(|sp| {
                let floor = grid.y(sp.floor);
                let ceil = if sp.ceil == OPEN {
                    f64::INFINITY
                } else {
                    grid.y(sp.ceil)
                };
                let wet = !sp.water.is_nan();
                let surface = if wet {
                    floor.max(sp.water as f64)
                } else {
                    floor
                };
                let need = if wet { sw.height } else { ot.height };
                let ok = (surface - cur).abs() <= step && ceil - surface >= need - ch;
                ok.then_some(surface)
            })
            .min_by(|a, b| (a - cur).abs().total_cmp(&(b - cur).abs()));
        match next {
            Some(h) => cur = h,
            None => return false,
        }
    }
    (cur - end).abs() <= step
}

/// Finds the swim links of the module docs. `info` is per node of `nav`,
/// `outline` the swim triangles' outline edges (node, edge) that meet no
/// other area, `heightfields` per tile, `linked` the node pairs (low, high)
/// that already share an edge.
pub(crate) fn swim_links(
    nav: &NavMesh,
    info: &[NodeInfo],
    outline: &[(u32, u8)],
    s: &Settings,
    grid: &Grid,
    heightfields: &[Arc<Heightfield>],
    linked: &HashSet<(u32, u32)>,
) -> Vec<SwimLink> {
    let Some(swim_pass) = s.passes.iter().position(|p| p.stance == Stance::Swim) else {
        return Vec::new();
    };
    if outline.is_empty() {
        return Vec::new();
    }
    let r_swim = s.passes[swim_pass].agent.radius;
    let gap_to = |pass: usize| max_gap(r_swim, s.passes[pass].agent.radius, grid.cs, s.max_error);
    let tri = |i: usize| -> Option<Vec<DVec2>> {
        let p = nav.nodes[i].polygon.as_ref()?;
        (p.len() >= 3).then(|| p.iter().map(|&v| plan(v)).collect())
    };
    // Other nodes by plan bucket.
    let widest = (0..s.passes.len())
        .filter(|&k| k != swim_pass)
        .map(gap_to)
        .fold(grid.cs, f64::max);
    let bucket = |v: f64| floor_i64(v / widest);
    let mut buckets: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
    for i in 0..nav.nodes.len() {
        if nav.nodes[i].stance == Stance::Swim {
            continue;
        }
        let Some(t) = tri(i) else { continue };
        let lo = t.iter().fold(t[0], |m, &v| m.min(v));
        let hi = t.iter().fold(t[0], |m, &v| m.max(v));
        for bx in bucket(lo.x)..=bucket(hi.x) {
            for bz in bucket(lo.y)..=bucket(hi.y) {
                buckets.entry((bx, bz)).or_default().push(i as u32);
            }
        }
    }
    let cols = Columns::new(heightfields);
    let mut out: Vec<SwimLink> = Vec::new();
    let mut made: HashSet<(u32, u32)> = HashSet::new();
    for &(i, e) in outline {
        let (Some(t), Some(water)) = (tri(i as usize), info[i as usize].water) else {
            continue;
        };
        let water = water as f64;
        let e = e as usize;
        let n = t.len();
        let (a, b, c) = (t[e], t[(e + 1) % n], t[(e + 2) % n]);
        let inner = cross(b - a, c - a);
        let lo = a.min(b) - DVec2::splat(widest);
        let hi = a.max(b) + DVec2::splat(widest);
        let mut cands: Vec<u32> = Vec::new();
        for bx in bucket(lo.x)..=bucket(hi.x) {
            for bz in bucket(lo.y)..=bucket(hi.y) {
                if let Some(v) = buckets.get(&(bx, bz)) {
                    cands.extend(v);
                }
            }
        }
        cands.sort_unstable();
        cands.dedup();
        let mut scored: Vec<(f64, u32, DVec2, DVec2)> = cands
            .into_iter()
            .filter_map(|j| {
                let other = tri(j as usize)?;
                let (p, q) = closest(&[a, b], &other);
                let gap = p.distance(q);
                // Across the edge, away from the swim triangle.
                let outward = cross(b - a, q - a) * inner < 0.0;
                (outward && gap <= gap_to(info[j as usize].pass)).then_some((gap, j, p, q))
            })
            .collect();
        scored.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        for (_, j, p, q) in scored {
            let other = info[j as usize].pass;
            let Some(end) = node_height(&nav.nodes[j as usize], q) else {
                continue;
            };
            if (end - water).abs() > s.passes[other].agent.max_step + grid.ch {
                continue;
            }
            if !reachable(grid, &cols, p, q, water, end, s, swim_pass, other) {
                continue;
            }
            let pair = (i.min(j), i.max(j));
            if !linked.contains(&pair) && made.insert(pair) {
                out.push(SwimLink {
                    swim: i,
                    land: j,
                    from: DVec3::new(p.x, water, p.y),
                    to: DVec3::new(q.x, end, q.y),
                });
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::reference_inside;

    fn t(p: [[f64; 2]; 3]) -> [DVec2; 3] {
        p.map(|[x, y]| DVec2::new(x, y))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// The point's distance is [`closest`]'s, bit for bit, for points
        /// inside, on and off triangles, degenerate ones included.
        #[test]
        fn point_distance_is_closests(
            c in proptest::array::uniform3((-4i32..5, -4i32..5)),
            off in proptest::array::uniform3((-1.0f64..1.0, -1.0f64..1.0)),
            jitter in proptest::bool::ANY,
            p in (-6i32..7, -6i32..7),
            pf in (-0.5f64..0.5, -0.5f64..0.5),
        ) {
            // Integer corners (shared, collinear and on-edge points are
            // common) or jittered ones.
            let t: [DVec2; 3] = std::array::from_fn(|i| {
                let base = DVec2::new(c[i].0 as f64, c[i].1 as f64);
                if jitter { base + DVec2::new(off[i].0, off[i].1) } else { base }
            });
            let p = DVec2::new(p.0 as f64 * 0.5, p.1 as f64 * 0.5)
                + if jitter { DVec2::new(pf.0, pf.1) } else { DVec2::ZERO };
            let (q, r) = closest(&[p, p], &t);
            proptest::prop_assert_eq!(
                point_distance2(p, &t).to_bits(),
                q.distance_squared(r).to_bits()
            );
        }

        /// A node's height is the one the full scan gave (every detail
        /// triangle measured, the first of the nearest taken) though the
        /// scan now stops at the first triangle holding the point:
        /// overlapping, repeated and degenerate triangles, points inside,
        /// on and off them.
        #[test]
        fn node_height_is_the_full_scans(
            tris in proptest::collection::vec(
                proptest::array::uniform3((-3i32..4, -2i32..3, -3i32..4)),
                0..6,
            ),
            p in (-8i32..9, -8i32..9),
        ) {
            let detail: Vec<[DVec3; 3]> = tris
                .iter()
                .map(|t| t.map(|(x, y, z)| DVec3::new(x as f64, y as f64 * 0.5, z as f64)))
                .collect();
            let node = navscope_core::navmesh::Node {
                id: 0,
                position: DVec3::ZERO,
                polygon: Some(vec![DVec3::ZERO, DVec3::X, DVec3::Z]),
                stance: navscope_core::Stance::Stand,
                layer: 0,
                area: "default".into(),
                radius: None,
                detail: Some(detail.clone()),
            };
            let p = DVec2::new(p.0 as f64 * 0.5, p.1 as f64 * 0.5);
            let mut near: Option<(f64, &[DVec3; 3])> = None;
            for t in &detail {
                let d = point_distance2(p, &t.map(plan));
                if near.is_none_or(|(b, _)| d.total_cmp(&b).is_lt()) {
                    near = Some((d, t));
                }
            }
            let want = match near {
                Some((_, t)) => height_on(t, p),
                None => height_on(node.polygon.as_ref().unwrap(), p),
            };
            proptest::prop_assert_eq!(node_height(&node, p).map(f64::to_bits), Some(want.to_bits()));
        }
    }

    fn unit_grid() -> Grid {
        Grid {
            origin: DVec3::ZERO,
            cs: 0.25,
            ch: 0.1,
            width: 100,
            depth: 100,
        }
    }

    #[test]
    fn a_body_fits_across_a_slot_only_when_the_slot_is_wider_than_it() {
        let g = unit_grid();
        let up = DVec2::new(0.0, 1.0);
        // Open columns from z 1.0 to 2.0: exactly the width of a body of
        // radius 0.5, whatever its place in the slot.
        let exact = |q: DVec2| (1.0..2.0).contains(&q.y);
        for k in 0..=8 {
            let p = DVec2::new(3.1, 1.0 + k as f64 * 0.125);
            assert!(!fits_across(&g, p, up, 0.5, exact), "exact fit at {p}");
        }
        // Crossing the slot at a slant: no wider for that.
        let slant = DVec2::new(0.3, 1.0).normalize();
        assert!(!fits_across(&g, DVec2::new(3.1, 1.5), slant, 0.5, exact));
        // One column wider: the middle fits, the slot's edge does not.
        let wider = |q: DVec2| (1.0..2.25).contains(&q.y);
        assert!(fits_across(&g, DVec2::new(3.1, 1.625), up, 0.5, wider));
        assert!(!fits_across(&g, DVec2::new(3.1, 1.05), up, 0.5, wider));
        // Along a wall: free on one side, the node a radius (less a cell of
        // rounding) from the wall on the other.
        let wall = |q: DVec2| q.y >= 1.0;
        assert!(fits_across(&g, DVec2::new(3.1, 1.5), up, 0.5, wall));
        assert!(fits_across(&g, DVec2::new(3.1, 1.25), up, 0.5, wall));
        assert!(!fits_across(&g, DVec2::new(3.1, 1.2), up, 0.5, wall));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// The column walk finds the distance a fine march along the ray
        /// finds, to within the march's step, in any direction.
        #[test]
        fn free_distance_is_where_a_fine_march_meets_a_closed_column(
            p in (2.0f64..4.0, 2.0f64..4.0),
            angle in 0.0f64..std::f64::consts::TAU,
            closed in proptest::collection::vec((0i32..24, 0i32..24), 1..40),
        ) {
            let g = unit_grid();
            let p = DVec2::new(p.0, p.1);
            let d = DVec2::new(angle.cos(), angle.sin());
            let shut: std::collections::HashSet<(i32, i32)> = closed.into_iter().collect();
            let cell = |q: DVec2| ((q.x / g.cs).floor() as i32, (q.y / g.cs).floor() as i32);
            let open = |q: DVec2| !shut.contains(&cell(q));
            let reach = 1.5;
            let got = free_along(&g, p, d, reach, &open);
            let step = 1e-4;
            let mut t = 0.0;
            while t < reach && open(p + d * t) {
                t += step;
            }
            let want = t.min(reach);
            proptest::prop_assert!((got - want).abs() <= 2.0 * step + 1e-9, "walk {} march {}", got, want);
        }
    }

    #[test]
    fn closest_points_of_plan_triangles() {
        let a = t([[0., 0.], [1., 0.], [0., 1.]]);
        let b = t([[3., 0.], [4., 0.], [3., 1.]]);
        let (p, q) = closest(&a, &b);
        assert!((p.distance(q) - 2.0).abs() < 1e-12, "{p} {q}");
        assert!((q.x - 3.0).abs() < 1e-12);
        // Overlapping (a corner inside): distance 0.
        let c = t([[0.2, 0.2], [5., 0.2], [0.2, 5.]]);
        let (p, q) = closest(&a, &c);
        assert_eq!(p, q);
        // Crossing without a corner inside (a star): distance 0.
        let d = t([[-1., 0.3], [2., 0.3], [0.5, -2.]]);
        let e = t([[-1., -1.0], [2., -1.0], [0.5, 1.5]]);
        let (p, q) = closest(&d, &e);
        assert_eq!(p, q);
        // Degenerate (collinear) triangle.
        let f = t([[3., 3.], [4., 3.], [5., 3.]]);
        let (p, q) = closest(&a, &f);
        assert!((p.distance(q) - 5.0 / 2f64.sqrt()).abs() < 1e-12, "{p} {q}");
    }

    #[test]
    fn columns_come_from_the_tile_whose_core_holds_the_cell() {
        let level = crate::samples::pool().level();
        let p = navscope_core::ParamValues::defaults(&crate::settings::specs());
        let mut s = Settings::from_params(&p).unwrap();
        for tile_size in [0, 32, 50] {
            s.tile_size = tile_size;
            let l = crate::tiles::layout(&level.mesh, &level.water, &s).unwrap();
            let all: Vec<usize> = (0..l.tiles.len()).collect();
            let hfs: Vec<Arc<Heightfield>> = crate::blocks::voxelize(&level.mesh, &l, &all, None)
                .unwrap()
                .into_iter()
                .map(Arc::new)
                .collect();
            let cols = Columns::new(&hfs);
            for hf in &hfs {
                let r = hf.rect;
                for z in r.z0..r.z1 {
                    for x in r.x0..r.x1 {
                        let c = hf.col(x, z).unwrap();
                        let got = cols.spans(x, z).unwrap();
                        let want = &hf.spans[hf.range(c)];
                        assert!(
                            std::ptr::eq(got.as_ptr(), want.as_ptr()) && got.len() == want.len(),
                            "cell {x},{z}"
                        );
                    }
                }
            }
            for (x, z) in [(-1, 0), (0, -1), (l.grid.width, 0), (0, l.grid.depth)] {
                assert!(cols.spans(x, z).is_none(), "{x},{z} is off the grid");
            }
        }
    }

    #[test]
    fn gap_bound_with_the_papers_tables() {
        assert!((max_gap(1.0, 0.4, 0.1, 0.15) - 2.012).abs() < 1e-9);
        assert!((max_gap(1.0, 0.2, 0.1, 0.15) - 1.796).abs() < 1e-9);
    }

    #[test]
    fn height_on_a_sloped_triangle() {
        let tri = [
            DVec3::new(0., 0., 0.),
            DVec3::new(2., 1., 0.),
            DVec3::new(0., 0., 2.),
        ];
        assert!((height_on(&tri, DVec2::new(1., 0.)) - 0.5).abs() < 1e-12);
        // Outside it: clamped to the corners' heights.
        assert!(height_on(&tri, DVec2::new(9., 0.)) <= 1.0);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// Polygons of 0 to 7 integer or jittered corners (degenerate,
        /// either winding, non-convex, with NaN) and points inside, on and
        /// off them: the same answer as the reference test.
        #[test]
        fn inside_is_the_reference_test(
            corners in proptest::collection::vec(((-4i32..5, -4i32..5), (-1.0f64..1.0, -1.0f64..1.0)), 0..8),
            jitter in proptest::bool::ANY,
            nan in proptest::bool::ANY,
            p in (-6i32..7, -6i32..7),
        ) {
            let mut t: Vec<DVec2> = corners
                .iter()
                .map(|&((x, y), (dx, dy))| {
                    DVec2::new(x as f64, y as f64) + if jitter { DVec2::new(dx, dy) } else { DVec2::ZERO }
                })
                .collect();
            if nan && !t.is_empty() {
                t[0].x = f64::NAN;
            }
            let p = DVec2::new(p.0 as f64 * 0.5, p.1 as f64 * 0.5);
            proptest::prop_assert_eq!(inside(&t, p), reference_inside(&t, p));
            // Convex polygons (a square either way round) too.
            let sq = [DVec2::new(-1., -1.), DVec2::new(2., -1.), DVec2::new(2., 2.), DVec2::new(-1., 2.)];
            proptest::prop_assert_eq!(inside(&sq, p), reference_inside(&sq, p));
            let rev: Vec<DVec2> = sq.iter().rev().copied().collect();
            proptest::prop_assert_eq!(inside(&rev, p), reference_inside(&rev, p));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Every cell is read from the listed tile whose core holds it,
        /// whichever tiles are left out of the list (as empty tiles are),
        /// and a cell of a missing tile or off the grid has no column.
        #[test]
        fn columns_are_found_in_the_tile_holding_them_when_tiles_are_missing(
            (ts, w, d) in (1i32..6, 1i32..20, 1i32..20),
            keep in proptest::collection::vec(proptest::bool::ANY, 400),
            pad in 0i32..3,
        ) {
            use crate::grid::TileRect;
            let (ntx, ntz) = ((w + ts - 1) / ts, (d + ts - 1) / ts);
            let mut tiles = Vec::new();
            for tz in 0..ntz {
                for tx in 0..ntx {
                    let id = (tz * ntx + tx) as usize;
                    if !keep[id % keep.len()] {
                        continue;
                    }
                    let rect = TileRect {
                        x0: tx * ts,
                        z0: tz * ts,
                        x1: ((tx + 1) * ts).min(w),
                        z1: ((tz + 1) * ts).min(d),
                        pad,
                    };
                    let (pw, pd) = (rect.x1 - rect.x0 + 2 * pad, rect.z1 - rect.z0 + 2 * pad);
                    let n = (pw * pd) as u32;
                    // One span a column, its floor naming the tile.
                    let span = Span { base: 0, floor: id as u16, ceil: OPEN, ny: 1.0, water: f32::NAN };
                    tiles.push(Arc::new(Heightfield {
                        rect,
                        px: rect.x0 - pad,
                        pz: rect.z0 - pad,
                        w: pw,
                        d: pd,
                        cols: (0..=n).collect(),
                        spans: vec![span; n as usize],
                    }));
                }
            }
            // Listed in any order.
            tiles.reverse();
            let cols = Columns::new(&tiles);
            for z in -2..d + 2 {
                for x in -2..w + 2 {
                    let on_grid = x >= 0 && z >= 0 && x < w && z < d;
                    let id = (z / ts * ntx + x / ts) as usize;
                    let want = (on_grid && keep[id % keep.len()]).then_some(id as u16);
                    let got = cols.spans(x, z).map(|s| s[0].floor);
                    proptest::prop_assert_eq!(got, want, "cell ({}, {})", x, z);
                }
            }
        }
    }
}
