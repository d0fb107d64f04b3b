//! The `simplify` stage, simplification (§32.2.4; Recast's `simplifyContour`): the
//! staircase outlines become sloping ones within an error bound.
//!
//! Each ring is cut into chains at the vertices where the edge class
//! changes (a closed ring of one class at its lower-left and upper-right
//! vertices). As in Recast:
//!
//! * an *obstacle* (wall) chain keeps the vertices Douglas-Peucker needs so
//!   that every exact vertex lies within `max_error` of the simplified
//!   chain, then the halfway vertex of every edge longer than
//!   `max_edge_len` (Recast's `maxError` and `maxEdgeLen`). Its edges may
//!   pass up to `max_error` on either side of the voxel outline: into the
//!   obstacle's side too, which eats into the eroded clearance by at most
//!   that much (Recast's trade, and what gives Recast's polygon counts);
//! * a *portal* chain (another region of the same pass beyond it) becomes
//!   one straight edge between the two vertices where the region beyond
//!   changes; the region on the other side traces the same two vertices, so
//!   the two meet exactly;
//! * a *shared* chain (walkable space of another pass or another tile
//!   beyond it) keeps its exact cell edges; only collinear vertices go, at
//!   most `max_edge_len` apart, so passes and tiles meet exactly (Recast's
//!   tiles meet because their contours are built on the same border cells;
//!   recycled passes have no Recast counterpart).
//!
//! A simplified ring could still cross another ring of its region or cut a
//! hole off; every region is checked (exact integer predicates) and rings
//! involved in a crossing, or whose containment of another ring changed,
//! fall back to their exact outline, which is always valid.

use serde::Serialize;

use std::collections::BTreeMap;

use crate::contour::{EdgeClass, Region, Ring};
use crate::grid::Grid;
use crate::settings::Settings;

/// The simplified outline of one region.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimplifiedRegion {
    /// The rings, in the region's ring order.
    pub rings: Vec<Ring>,
    /// Rings that fell back to their exact outline.
    pub fallbacks: u32,
}

/// Simplifies every ring of a region. `max_error` and `max_edge` are in
/// cells; portals to the labels in `exact_portals` (sorted) stay exact.
pub fn simplify_region(
    region: &Region,
    max_error: f64,
    max_edge: f64,
    exact_portals: &[u32],
) -> SimplifiedRegion {
    let mut exact = vec![false; region.rings.len()];
    loop {
        let rings: Vec<Ring> = region
            .rings
            .iter()
            .zip(&exact)
            .map(|(r, &e)| simplify_ring(r, max_error, max_edge, e, exact_portals))
            .collect();
        let bad = find_bad(&region.rings, &rings);
        let mut changed = false;
        for b in bad {
            if !exact[b] {
                exact[b] = true;
                changed = true;
            }
        }
        if !changed {
            return SimplifiedRegion {
                rings,
                fallbacks: exact.iter().filter(|e| **e).count() as u32,
            };
        }
    }
}

fn cross(o: [i32; 2], a: [i32; 2], b: [i32; 2]) -> i64 {
    (a[0] - o[0]) as i64 * (b[1] - o[1]) as i64 - (a[1] - o[1]) as i64 * (b[0] - o[0]) as i64
}

fn dist2(a: [i32; 2], b: [i32; 2]) -> f64 {
    let (dx, dy) = ((a[0] - b[0]) as f64, (a[1] - b[1]) as f64);
    dx * dx + dy * dy
}

/// Squared distance from `p` to the segment `a b` (to `a` when the two
/// ends coincide), as Recast's `distancePtSeg` measures it.
fn seg_dist2(p: [i32; 2], a: [i32; 2], b: [i32; 2]) -> f64 {
    let ab = [(b[0] - a[0]) as i64, (b[1] - a[1]) as i64];
    let ap = [(p[0] - a[0]) as i64, (p[1] - a[1]) as i64];
    let len2 = ab[0] * ab[0] + ab[1] * ab[1];
    let dot = ab[0] * ap[0] + ab[1] * ap[1];
    if dot <= 0 || len2 == 0 {
        dist2(p, a)
    } else if dot >= len2 {
        dist2(p, b)
    } else {
        let c = cross(a, b, p) as f64;
        c * c / len2 as f64
    }
}

/// Douglas-Peucker over a chain (first and last kept): the ascending indices
/// kept so that every point lies within `max_error` of the simplified
/// polyline (Recast's wall simplification). The farthest point splits a
/// span first, ties to the first, so the result is deterministic.
///
/// Only the chain's ends and the vertices where it bends are measured: a
/// point inside a straight run (collinear with both neighbours, going on
/// the same way) is no farther from a segment than the farther end of its
/// run (the distance to a segment is convex along a line), and is as far
/// only when the run's first end is too (which comes first), or when the
/// run ends at the segment's own end, at distance 0, never kept. Wall
/// outlines run straight along the grid for most of their vertices.
///
/// The chain is the points `pt(0)` to `pt(n - 1)`, read where needed
/// rather than copied; `bends` is a buffer for the measured indices.
fn douglas_peucker(
    n: usize,
    pt: impl Fn(usize) -> [i32; 2],
    max_error: f64,
    bends: &mut Vec<usize>,
) -> Vec<usize> {
    bends.clear();
    bends.push(0);
    bends.extend((1..n.saturating_sub(1)).filter(|&i| bends_at(pt(i - 1), pt(i), pt(i + 1))));
    if n > 1 {
        bends.push(n - 1);
    }
    douglas_peucker_over(pt, bends, max_error)
}

/// Douglas-Peucker over the points `pt(i)` for `i` in `over` (ascending,
/// from the first point to the last): the indices kept, ascending.
pub(crate) fn douglas_peucker_over(
    pt: impl Fn(usize) -> [i32; 2],
    over: &[usize],
    max_error: f64,
) -> Vec<usize> {
    let mut keep = vec![false; over.len()];
    keep[0] = true;
    keep[over.len() - 1] = true;
    let max2 = max_error * max_error;
    let mut stack = vec![(0, over.len() - 1)];
    while let Some((a, b)) = stack.pop() {
        let (pa, pb) = (pt(over[a]), pt(over[b]));
        let mut far = (max2, None);
        for (m, &i) in over.iter().enumerate().take(b).skip(a + 1) {
            let d = seg_dist2(pt(i), pa, pb);
            if d > far.0 {
                far = (d, Some(m));
            }
        }
        if let Some(m) = far.1 {
            keep[m] = true;
            stack.push((a, m));
            stack.push((m, b));
        }
    }
    over.iter()
        .zip(keep)
        .filter_map(|(&i, k)| k.then_some(i))
        .collect()
}

/// True unless `b` lies inside a straight run from `a` through `b` on to
/// `c` (collinear, and `b -> c` going on the way `a -> b` goes).
fn bends_at(a: [i32; 2], b: [i32; 2], c: [i32; 2]) -> bool {
    let dot =
        (b[0] - a[0]) as i64 * (c[0] - b[0]) as i64 + (b[1] - a[1]) as i64 * (c[1] - b[1]) as i64;
    cross(a, b, c) != 0 || dot <= 0
}

/// Recast's wall-edge tessellation: while a kept edge of the chain `pt` is
/// longer than `sqrt(edge2)` and skips raw vertices, the raw vertex halfway
/// along it is kept too. Takes and returns ascending indices into the
/// chain.
fn split_long(pt: impl Fn(usize) -> [i32; 2], mut kept: Vec<usize>, edge2: f64) -> Vec<usize> {
    let mut i = 0;
    while i + 1 < kept.len() {
        let (a, b) = (kept[i], kept[i + 1]);
        if b - a > 1 && dist2(pt(a), pt(b)) > edge2 {
            kept.insert(i + 1, a + (b - a) / 2);
        } else {
            i += 1;
        }
    }
    kept
}

/// Simplifies one ring; with `exact` every chain is kept exact, as are
/// portals to the labels in `exact_portals` (sorted).
///
/// As in Recast's `simplifyContour`: a wall chain keeps the Douglas-Peucker
/// vertices within `max_error` (on either side of the exact outline), then
/// the halfway vertex of every edge longer than `max_edge`; a portal chain
/// (another region of the same pass beyond it) becomes one straight edge
/// between the vertices where the region beyond changes, which the region
/// on the other side traces too, so the two meet exactly. A closed portal
/// ring (a region inside another) stays exact. Shared chains keep their
/// corners and are split at `max_edge`.
pub fn simplify_ring(
    ring: &Ring,
    max_error: f64,
    max_edge: f64,
    exact: bool,
    exact_portals: &[u32],
) -> Ring {
    let n = ring.pts.len();
    let mut out = Ring {
        pts: Vec::new(),
        h: Vec::new(),
        class: Vec::new(),
    };
    if n < 3 {
        return ring.clone();
    }
    // Index `i` of the ring for `i < 2 n` (a division per vertex read was
    // a fifth of this function's instructions).
    let wrap = |i: usize| if i >= n { i - n } else { i };
    let mut fixed: Vec<usize> = (0..n)
        .filter(|&i| ring.class[wrap(i + n - 1)] != ring.class[i])
        .collect();
    if fixed.is_empty() {
        fixed.push((0..n).min_by_key(|&i| ring.pts[i]).unwrap_or(0));
        // A closed wall ring is cut at its lower-left and upper-right
        // vertices, as Recast seeds it, so each chain has two distinct ends.
        if ring.class[0] == EdgeClass::Obstacle {
            fixed.push((0..n).max_by_key(|&i| ring.pts[i]).unwrap_or(0));
            fixed.sort_unstable();
        }
    }
    let edge = max_edge.max(1.0);
    let edge2 = edge * edge;
    let mut bends = Vec::new();
    for (fi, &start) in fixed.iter().enumerate() {
        let end = fixed[(fi + 1) % fixed.len()];
        let len = if fixed.len() == 1 {
            n
        } else {
            (end + n - start) % n
        };
        let p = |m: usize| ring.pts[wrap(start + m)];
        let class = ring.class[start];
        let keep = |m: usize, out: &mut Ring| {
            let i = wrap(start + m);
            out.pts.push(ring.pts[i]);
            out.h.push(ring.h[i]);
            out.class.push(class);
        };
        keep(0, &mut out);
        let straight_portal = match class {
            EdgeClass::Portal(l) => {
                !exact && fixed.len() > 1 && exact_portals.binary_search(&l).is_err()
            }
            _ => false,
        };
        if straight_portal {
            // Only the chain's first vertex, kept above.
            continue;
        }
        if exact || class != EdgeClass::Obstacle {
            let mut last = 0;
            for m in 1..len {
                let corner = cross(p(m - 1), p(m), p(m + 1)) != 0;
                if corner || dist2(p(last), p(m + 1)) > edge2 {
                    keep(m, &mut out);
                    last = m;
                }
            }
        } else {
            let kept = douglas_peucker(len + 1, p, max_error, &mut bends);
            let kept = split_long(p, kept, edge2);
            for &m in &kept[1..kept.len() - 1] {
                keep(m, &mut out);
            }
        }
    }
    out
}

/// True when two segments share a point other than one common endpoint.
fn conflict(a: [i32; 2], b: [i32; 2], c: [i32; 2], d: [i32; 2]) -> bool {
    if a == b || c == d || (a == c && b == d) || (a == d && b == c) {
        return true;
    }
    let common = if a == c || a == d {
        Some((a, b, if a == c { d } else { c }))
    } else if b == c || b == d {
        Some((b, a, if b == c { d } else { c }))
    } else {
        None
    };
    if let Some((p, x, y)) = common {
        let dot = (x[0] - p[0]) as i64 * (y[0] - p[0]) as i64
            + (x[1] - p[1]) as i64 * (y[1] - p[1]) as i64;
        return cross(p, x, y) == 0 && dot > 0;
    }
    let (d1, d2, d3, d4) = (
        cross(a, b, c).signum(),
        cross(a, b, d).signum(),
        cross(c, d, a).signum(),
        cross(c, d, b).signum(),
    );
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    let on = |p: [i32; 2], q: [i32; 2], r: [i32; 2]| {
        r[0] >= p[0].min(q[0])
            && r[0] <= p[0].max(q[0])
            && r[1] >= p[1].min(q[1])
            && r[1] <= p[1].max(q[1])
    };
    (d1 == 0 && on(a, b, c))
        || (d2 == 0 && on(a, b, d))
        || (d3 == 0 && on(c, d, a))
        || (d4 == 0 && on(c, d, b))
}

/// Even-odd containment of the doubled point `q` in ring `r` (coordinates
/// doubled); `None` when `q` lies on the ring.
fn contains2(r: &Ring, q: [i64; 2]) -> Option<bool> {
    let n = r.pts.len();
    let mut inside = false;
    for i in 0..n {
        let a = [2 * r.pts[i][0] as i64, 2 * r.pts[i][1] as i64];
        let b = [
            2 * r.pts[(i + 1) % n][0] as i64,
            2 * r.pts[(i + 1) % n][1] as i64,
        ];
        let cr = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
        if cr == 0
            && q[0] >= a[0].min(b[0])
            && q[0] <= a[0].max(b[0])
            && q[1] >= a[1].min(b[1])
            && q[1] <= a[1].max(b[1])
        {
            return None;
        }
        if (a[1] > q[1]) != (b[1] > q[1]) {
            // x of the crossing > q.x  <=>  sign test with the edge's direction
            let right = if b[1] > a[1] { cr > 0 } else { cr < 0 };
            if right {
                inside = !inside;
            }
        }
    }
    Some(inside)
}

/// Indices of simplified rings that are degenerate, cross a ring, or
/// changed whether they contain another ring.
fn find_bad(raw: &[Ring], simp: &[Ring]) -> Vec<usize> {
    let mut bad = Vec::new();
    for (i, r) in simp.iter().enumerate() {
        if r.pts.len() < 3 || r.area2() == 0 || r.area2().signum() != raw[i].area2().signum() {
            bad.push(i);
        }
    }
    let mut segs = Vec::new();
    let mut owner = Vec::new();
    for (i, r) in simp.iter().enumerate() {
        let n = r.pts.len();
        for j in 0..n {
            let (a, b) = (r.pts[j], r.pts[(j + 1) % n]);
            segs.push((
                glam::DVec2::new(a[0] as f64, a[1] as f64),
                glam::DVec2::new(b[0] as f64, b[1] as f64),
            ));
            owner.push((i, a, b));
        }
    }
    for (x, y) in navscope_core::geom::candidate_segment_pairs(&segs) {
        let ((ri, a, b), (rj, c, d)) = (owner[x], owner[y]);
        if conflict(a, b, c, d) {
            bad.push(ri);
            bad.push(rj);
        }
    }
    if simp.len() > 1 {
        for (i, r) in simp.iter().enumerate() {
            for (j, other) in raw.iter().enumerate() {
                if i == j || other.pts.len() < 2 {
                    continue;
                }
                let (a, b) = (other.pts[0], other.pts[1]);
                let q = [(a[0] + b[0]) as i64, (a[1] + b[1]) as i64];
                if contains2(r, q).is_none() || contains2(r, q) != contains2(&raw[i], q) {
                    bad.push(i);
                }
            }
        }
    }
    bad.sort_unstable();
    bad.dedup();
    bad
}

/// Even-odd containment of a plan point (grid units) in a set of rings.
pub fn inside_rings(rings: &[Ring], x: f64, y: f64) -> bool {
    let mut inside = false;
    for r in rings {
        let n = r.pts.len();
        for i in 0..n {
            let (a, b) = (r.pts[i], r.pts[(i + 1) % n]);
            let (ax, ay, bx, by) = (a[0] as f64, a[1] as f64, b[0] as f64, b[1] as f64);
            if (ay > y) != (by > y) && x < ax + (y - ay) * (bx - ax) / (by - ay) {
                inside = !inside;
            }
        }
    }
    inside
}

/// Simplifies every region of a tile. Portals between regions of two areas
/// (convex volumes) keep their exact cell edges on both sides, so an area's
/// polygons stay on its spans (a straight portal would cut across the
/// area's corners; Recast simplifies area borders like walls, here they are
/// kept exact as the edges between passes are). A region whose ring had to
/// fall back to its exact outline keeps its portals exact, and so does the
/// region on the other side of each, so that both still meet exactly
/// (repeated until no new fallback appears).
pub fn simplify_tile(regions: &[Region], grid: &Grid, s: &Settings) -> Vec<SimplifiedRegion> {
    let mut exact: BTreeMap<(usize, u32), Vec<u32>> = BTreeMap::new();
    let area: BTreeMap<(usize, u32), u8> = regions
        .iter()
        .map(|r| ((r.pass, r.label), r.area))
        .collect();
    // Without two areas no portal is between two; a region's run of portal
    // edges to one label is looked up once.
    let one_area = regions.iter().all(|r| r.area == regions[0].area);
    for r in regions.iter().filter(|_| !one_area) {
        let mut last = None;
        for class in r.rings.iter().flat_map(|ring| &ring.class) {
            if let EdgeClass::Portal(l) = *class
                && last.replace(l) != Some(l)
                && area.get(&(r.pass, l)).is_some_and(|&a| a != r.area)
            {
                let v = exact.entry((r.pass, r.label)).or_default();
                if let Err(at) = v.binary_search(&l) {
                    v.insert(at, l);
                }
            }
        }
    }
    loop {
        let out: Vec<SimplifiedRegion> = regions
            .iter()
            .map(|r| {
                let forced = exact.get(&(r.pass, r.label)).map_or(&[][..], |v| v);
                simplify_region(r, s.max_error / grid.cs, s.max_edge_len / grid.cs, forced)
            })
            .collect();
        let mut changed = false;
        for (r, o) in regions.iter().zip(&out) {
            if o.fallbacks == 0 {
                continue;
            }
            for class in r.rings.iter().flat_map(|ring| &ring.class) {
                if let EdgeClass::Portal(l) = *class {
                    for (a, b) in [(r.label, l), (l, r.label)] {
                        let v = exact.entry((r.pass, a)).or_default();
                        if let Err(at) = v.binary_search(&b) {
                            v.insert(at, b);
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::reference::reference_douglas_peucker;
    use crate::settings::specs;
    use navscope_core::{ParamValues, Stance};
    use proptest::prelude::*;

    fn ring(pts: &[[i32; 2]], class: EdgeClass) -> Ring {
        Ring {
            pts: pts.to_vec(),
            h: vec![0.0; pts.len()],
            class: vec![class; pts.len()],
        }
    }

    /// A staircase outline: the interior lies up-left of the steps.
    fn staircase(steps: i32) -> Vec<[i32; 2]> {
        let mut p = vec![[0, 0]];
        for i in 0..steps {
            p.push([i + 1, i]);
            p.push([i + 1, i + 1]);
        }
        p.push([0, steps]);
        p
    }

    /// The largest distance from an exact vertex between two wall edges to
    /// the simplified ring (in cells).
    fn wall_error(raw: &Ring, simp: &Ring) -> f64 {
        let (n, m) = (raw.pts.len(), simp.pts.len());
        (0..n)
            .filter(|&i| {
                raw.class[i] == EdgeClass::Obstacle
                    && raw.class[(i + n - 1) % n] == EdgeClass::Obstacle
            })
            .map(|i| {
                (0..m)
                    .map(|j| seg_dist2(raw.pts[i], simp.pts[j], simp.pts[(j + 1) % m]))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt()
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn an_obstacle_staircase_becomes_a_slope_within_the_error() {
        let r = ring(&staircase(6), EdgeClass::Obstacle);
        assert!(r.area2() > 0);
        let s = simplify_ring(&r, 1.0, 100.0, false, &[]);
        // The staircase, its two long sides and the slope: a triangle.
        assert_eq!(s.pts.len(), 3, "{:?}", s.pts);
        assert!(wall_error(&r, &s) <= 1.0);
        // Every simplified vertex is an original vertex.
        assert!(s.pts.iter().all(|p| r.pts.contains(p)));
    }

    #[test]
    fn a_closed_wall_ring_keeps_both_ends() {
        let r = ring(&[[0, 0], [10, 0], [10, 10], [0, 10]], EdgeClass::Obstacle);
        let s = simplify_ring(&r, 1.0, 100.0, false, &[]);
        assert_eq!(s.pts.len(), 4, "{:?}", s.pts);
    }

    #[test]
    fn portals_become_straight_edges_between_region_changes() {
        // A wall chain, then a staircase portal back to the start.
        let mut r = ring(&staircase(6), EdgeClass::Obstacle);
        let n = r.pts.len();
        for c in &mut r.class[1..n - 2] {
            *c = EdgeClass::Portal(7);
        }
        let s = simplify_ring(&r, 1.0, 100.0, false, &[]);
        let portal: Vec<_> = (0..s.pts.len())
            .filter(|&i| s.class[i] == EdgeClass::Portal(7))
            .collect();
        assert_eq!(portal.len(), 1, "{:?}", s.pts);
        assert_eq!(s.pts[portal[0]], r.pts[1]);
        // Kept exact when asked: every staircase corner stays.
        let exact = simplify_ring(&r, 1.0, 100.0, false, &[7]);
        let portal = |r: &Ring| {
            r.class
                .iter()
                .filter(|c| **c == EdgeClass::Portal(7))
                .count()
        };
        assert_eq!(portal(&exact), portal(&r));
    }

    #[test]
    fn shared_chains_stay_exact() {
        let r = ring(&staircase(6), EdgeClass::Shared);
        let s = simplify_ring(&r, 1.0, 100.0, false, &[]);
        assert_eq!(s.area2(), r.area2());
        assert_eq!(s.pts.len(), r.pts.len());
    }

    #[test]
    fn long_edges_are_split() {
        let pts: Vec<[i32; 2]> = (0..=10)
            .map(|x| [x, 0])
            .chain((0..=10).rev().map(|x| [x, 1]))
            .collect();
        let r = ring(&pts, EdgeClass::Shared);
        let s = simplify_ring(&r, 1.0, 3.0, false, &[]);
        assert!(s.pts.len() >= 8, "{:?}", s.pts);
        let n = s.pts.len();
        assert!((0..n).all(|i| dist2(s.pts[i], s.pts[(i + 1) % n]) <= 9.0));
    }

    #[test]
    fn a_hole_near_a_shaved_corner_forces_the_exact_outline() {
        // A square with a notch whose shortcut would cut off a hole's corner.
        let outer = ring(
            &[
                [0, 0],
                [10, 0],
                [10, 10],
                [5, 10],
                [5, 9],
                [4, 9],
                [4, 8],
                [3, 8],
                [3, 7],
                [0, 7],
            ],
            EdgeClass::Obstacle,
        );
        let hole = ring(&[[3, 6], [3, 5], [2, 5], [2, 6]], EdgeClass::Obstacle);
        assert!(hole.area2() < 0);
        let region = Region {
            pass: 0,
            label: 1,
            stance: navscope_core::Stance::Stand,
            spans: 0,
            border_spans: 0,
            rings: vec![outer, hole],
            water: None,
            area: 0,
        };
        let s = simplify_region(&region, 3.0, 100.0, &[]);
        for (i, r) in s.rings.iter().enumerate() {
            assert!(r.area2().signum() == region.rings[i].area2().signum());
        }
        assert!(find_bad(&region.rings, &s.rings).is_empty());
    }

    #[test]
    fn conflicts_are_exact() {
        assert!(!conflict([0, 0], [2, 0], [2, 0], [2, 2]));
        assert!(conflict([0, 0], [2, 0], [1, 0], [1, 2]));
        assert!(conflict([0, 0], [2, 0], [1, -1], [1, 1]));
        assert!(conflict([0, 0], [2, 0], [2, 0], [1, 0]));
        assert!(!conflict([0, 0], [2, 0], [3, 0], [4, 0]));
    }

    /// [`douglas_peucker`] over the chain `pts`.
    fn bends_douglas_peucker(pts: &[[i32; 2]], max_error: f64) -> Vec<usize> {
        douglas_peucker(pts.len(), |i| pts[i], max_error, &mut vec![7])
    }

    /// The regions of the sidestep pass on a floor of the 0.5 m cells of an
    /// 8 by 8 grid whose bits are set (none when no bit is), and default
    /// settings with `max_error` cells of error.
    pub(crate) fn cell_regions(
        bits: &[bool],
        max_error: f64,
    ) -> Option<(Grid, Vec<Region>, Settings)> {
        use crate::heightfield::tests::boxes;
        let mut bs = Vec::new();
        for (i, b) in bits.iter().enumerate() {
            if *b {
                let (x, z) = ((i % 8) as f32 * 0.5, (i / 8) as f32 * 0.5);
                bs.push(([x, -0.1, z], [x + 0.5, 0.0, z + 0.5]));
            }
        }
        if bs.is_empty() {
            return None;
        }
        let (g, hf, f) = crate::flags::tests::build(&boxes(&bs), "sidestep");
        let regions = crate::contour::tests::regions_of(&hf, &g, &f);
        let mut settings = Settings::from_params(&navscope_core::ParamValues::defaults(
            &crate::settings::specs(),
        ))
        .unwrap();
        settings.max_error = max_error * g.cs;
        Some((g, regions, settings))
    }

    #[test]
    fn douglas_peucker_of_degenerate_chains() {
        // Two points, a straight run, a run doubling back on itself, a
        // repeated point: as the reference.
        for pts in [
            vec![[0, 0], [5, 0]],
            vec![[0, 0], [1, 0], [2, 0], [3, 0]],
            vec![[0, 0], [4, 0], [2, 0], [2, 3]],
            vec![[0, 0], [1, 1], [1, 1], [3, 0], [3, 0]],
        ] {
            for err in [0.0, 0.5, 2.0] {
                assert_eq!(
                    bends_douglas_peucker(&pts, err),
                    reference_douglas_peucker(&pts, err),
                    "{pts:?} {err}"
                );
            }
        }
    }

    proptest! {
        /// Random chains of grid steps (straight runs, turns, steps back,
        /// repeated points) at random error bounds: the bends-only
        /// Douglas-Peucker keeps the vertices the reference keeps.
        #[test]
        fn douglas_peucker_keeps_what_it_kept(
            steps in proptest::collection::vec((0usize..6, 1i32..4), 1..60),
            err in 0.0f64..4.0,
        ) {
            const STEP: [[i32; 2]; 6] = [[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [0, 0]];
            let mut pts = vec![[0, 0]];
            for (d, k) in steps {
                for _ in 0..k {
                    let p = pts[pts.len() - 1];
                    pts.push([p[0] + STEP[d][0], p[1] + STEP[d][1]]);
                }
            }
            prop_assert_eq!(bends_douglas_peucker(&pts, err), reference_douglas_peucker(&pts, err));
        }

        /// Random cell sets: the simplified rings of every region stay valid,
        /// keep only exact vertices, stay within the error of the exact wall
        /// outline, and portals are simplified alike from both sides: their
        /// vertices are the same.
        #[test]
        fn simplification_stays_within_the_error(bits in proptest::collection::vec(any::<bool>(), 64), err in 0.0f64..3.0) {
            let cells = cell_regions(&bits, err);
            prop_assume!(cells.is_some());
            let (g, regions, mut settings) = cells.unwrap();
            settings.max_edge_len = 1000.0 * g.cs;
            let simplified = simplify_tile(&regions, &g, &settings);
            // Portal vertices by (this label, other label).
            let mut portal: std::collections::BTreeMap<(u32, u32), std::collections::BTreeSet<[i32; 2]>> =
                Default::default();
            for (region, s) in regions.iter().zip(&simplified) {
                prop_assert!(find_bad(&region.rings, &s.rings).is_empty());
                if s.fallbacks == 0 {
                    for (raw, simp) in region.rings.iter().zip(&s.rings) {
                        prop_assert!(wall_error(raw, simp) <= err.max(0.0) + 1e-9);
                    }
                }
                for r in &s.rings {
                    let n = r.pts.len();
                    for i in 0..n {
                        if let EdgeClass::Portal(l) = r.class[i] {
                            let e = portal.entry((region.label, l)).or_default();
                            e.insert(r.pts[i]);
                            e.insert(r.pts[(i + 1) % n]);
                        }
                    }
                }
                // Every simplified vertex is inside or on the exact outline.
                for r in &s.rings {
                    for p in &r.pts {
                        let inside = inside_rings(&region.rings, p[0] as f64 + 1e-3, p[1] as f64 + 1e-3)
                            || inside_rings(&region.rings, p[0] as f64 - 1e-3, p[1] as f64 - 1e-3)
                            || inside_rings(&region.rings, p[0] as f64 + 1e-3, p[1] as f64 - 1e-3)
                            || inside_rings(&region.rings, p[0] as f64 - 1e-3, p[1] as f64 + 1e-3);
                        prop_assert!(inside);
                    }
                }
            }
            for ((a, b), pts) in &portal {
                prop_assert_eq!(Some(pts), portal.get(&(*b, *a)), "portal {} / {}", a, b);
            }
        }
    }

    /// A region of label `label` and area `area` with one ring.
    fn region(label: u32, area: u8, pts: &[[i32; 2]], class: &[EdgeClass]) -> Region {
        Region {
            pass: 0,
            label,
            stance: Stance::Stand,
            spans: 0,
            border_spans: 0,
            rings: vec![Ring {
                pts: pts.to_vec(),
                h: vec![0.0; pts.len()],
                class: class.to_vec(),
            }],
            water: None,
            area,
        }
    }

    /// Region 1's simplified outline when its stepped portal to region 2
    /// lies between areas `a1` and `a2`.
    fn portal_outline(a1: u8, a2: u8) -> Vec<[i32; 2]> {
        let (wall, portal) = (EdgeClass::Obstacle, EdgeClass::Portal(2));
        let one = region(
            1,
            a1,
            &[[0, 0], [3, 0], [3, 1], [2, 1], [2, 2], [0, 2]],
            &[wall, portal, portal, portal, wall, wall],
        );
        let two = region(2, a2, &[[10, 0], [11, 0], [11, 1], [10, 1]], &[wall; 4]);
        let grid = Grid {
            origin: glam::DVec3::ZERO,
            cs: 1.0,
            ch: 0.1,
            width: 20,
            depth: 20,
        };
        let s = Settings::from_params(&ParamValues::defaults(&specs())).unwrap();
        simplify_tile(&[one, two], &grid, &s)[0].rings[0]
            .pts
            .clone()
    }

    #[test]
    fn a_portal_between_two_areas_stays_exact() {
        let steps = |pts: &[[i32; 2]]| pts.contains(&[3, 1]) && pts.contains(&[2, 1]);
        assert!(steps(&portal_outline(0, 1)), "the portal's steps kept");
        assert!(steps(&portal_outline(1, 0)), "either way");
        let one = portal_outline(1, 1);
        assert!(!steps(&one), "one area: the portal straight, {one:?}");
        assert!(one.contains(&[3, 0]) && one.contains(&[2, 2]));
    }
}
