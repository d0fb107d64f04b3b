//! Stage 5b, simplification: Douglas-Peucker on every contour ring with a
//! tolerance in metres, one-sided so that it never cuts into blocked space,
//! repaired until the rings are again a valid polygon set with the same
//! nesting.
//!
//! **One-sided.** Rings keep free space on their left, so a segment that
//! replaces a span of the ring may only pass on the free side of the
//! span's vertices: every dropped vertex lies on the segment or to its
//! right. Douglas-Peucker splits a span first at its vertex farthest to
//! the left of the segment (if any), then, as usual, at its farthest
//! vertex when that is beyond the tolerance. The simplified free space is
//! then a subset of the free pixels, and keeps the agent radius from every
//! obstacle exactly as the dilated image does (see [`crate::binary`]); it
//! loses at most the tolerance along the boundary.
//!
//! Plain Douglas-Peucker may make a ring cross itself or another ring, or
//! cut a small ring off to the wrong side. After the first pass:
//! 1. every simplified segment that meets another (other than two
//!    consecutive segments at their shared vertex) gets back the original
//!    vertex of its span farthest from it;
//! 2. when no segment conflicts, the first vertex of every ring is tested
//!    against every other ring, original and simplified (ray parity); a ring
//!    whose inside/outside answer changed is restored whole;
//!
//! 3. a segment that a repair left with a vertex of its span on its left
//!    gets that vertex back (one-sidedness again);
//! 4. a ring whose area changed sign (a strip thinner than the tolerance
//!    collapsed) is restored whole;
//!
//! and all are repeated until nothing changes. Every step only adds
//! original vertices back, and the original rings are valid, so the loop
//! ends. Coordinates stay on the pixel-corner grid until the result is
//! scaled to metres.

use glam::DVec2;
use serde::Serialize;

use navscope_core::geom::{Orientation, orient, ray_crosses_edge};

use crate::contours::{Contours, corner_to_plan};
use crate::walls::Walls;

/// The simplified rings.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Simplified {
    /// Rings in plan metres, free space on the left; `rings[k]` simplifies
    /// contour `k`.
    pub rings: Vec<Vec<DVec2>>,
    /// Vertices before simplification.
    pub vertices_before: u64,
    /// Repair rounds that found a conflict.
    pub repair_rounds: u32,
    /// Rings restored whole by the nesting check.
    pub restored_rings: u32,
    /// Vertices after the first, one-sided Douglas-Peucker pass.
    pub first_pass_vertices: u64,
    /// Every repair, in order (the sub-steps of the stage).
    pub repairs: Vec<Repair>,
}

/// Why a repair gave a vertex (or a whole ring) back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RepairKind {
    /// A segment met another segment: its farthest dropped vertex returns.
    Crossing,
    /// A segment had a dropped vertex on its free side (after an earlier
    /// repair): that vertex returns.
    OneSided,
    /// The ring turned over: restored whole.
    Flipped,
    /// A ring's first vertex changed sides of this ring: restored whole.
    Nesting,
}

/// One repair of the simplification.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Repair {
    /// Repair round, from 1.
    pub round: u32,
    /// Ring index.
    pub ring: u32,
    /// The vertex given back (for a whole ring, its first vertex), metres.
    pub at: DVec2,
    /// Why.
    pub why: RepairKind,
}

/// Simplifies the contours with tolerance `tol` (metres).
pub fn simplify(contours: &Contours, tol: f64, metres_per_pixel: f64) -> Simplified {
    let tol = tol / metres_per_pixel;
    let pts: Vec<Vec<DVec2>> = contours
        .rings
        .iter()
        .map(|r| r.corners.iter().map(|&c| corner_to_plan(c, 1.0)).collect())
        .collect();
    let mut keep: Vec<Vec<bool>> = pts.iter().map(|p| douglas_peucker(p, tol)).collect();
    let mut repair_rounds = 0;
    let mut restored_rings = 0;
    let first_pass_vertices = keep.iter().flatten().filter(|&&k| k).count() as u64;
    let mut repairs = Vec::new();
    loop {
        let mut note = |ring: usize, at: DVec2, why: RepairKind| {
            repairs.push(Repair {
                round: repair_rounds + 1,
                ring: ring as u32,
                at: at * metres_per_pixel,
                why,
            })
        };
        let kept: Vec<Vec<usize>> = keep
            .iter()
            .map(|k| (0..k.len()).filter(|&i| k[i]).collect())
            .collect();
        let walls = Walls::new(
            kept.iter()
                .zip(&pts)
                .map(|(k, p)| k.iter().map(|&i| p[i]).collect())
                .collect(),
        );
        let bad = walls.conflicts();
        let mut changed = false;
        for (r, k) in kept.iter().enumerate() {
            for s in 0..k.len() {
                if let Some(i) = leftmost(&pts[r], k[s], k[(s + 1) % k.len()]) {
                    keep[r][i] = true;
                    note(r, pts[r][i], RepairKind::OneSided);
                    changed = true;
                }
            }
        }
        for (r, s) in bad {
            let (r, s) = (r as usize, s as usize);
            let k = &kept[r];
            let (a, b) = (k[s], k[(s + 1) % k.len()]);
            if let Some(i) = farthest(&pts[r], a, b) {
                if !keep[r][i] {
                    note(r, pts[r][i], RepairKind::Crossing);
                }
                keep[r][i] = true;
                changed = true;
            }
        }
        if !changed {
            // A ring collapsed until it turned over (a strip thinner than
            // the tolerance) is restored whole.
            for (r, k) in kept.iter().enumerate() {
                let area = |q: &mut dyn Iterator<Item = DVec2>| -> f64 {
                    let q: Vec<DVec2> = q.collect();
                    (0..q.len())
                        .map(|i| q[i].perp_dot(q[(i + 1) % q.len()]))
                        .sum()
                };
                let before = area(&mut pts[r].iter().copied());
                let after = area(&mut k.iter().map(|&i| pts[r][i]));
                if after * before <= 0.0 && k.len() < pts[r].len() {
                    keep[r].iter_mut().for_each(|k| *k = true);
                    note(r, pts[r][0], RepairKind::Flipped);
                    restored_rings += 1;
                    changed = true;
                }
            }
        }
        if !changed {
            for (_, s) in nesting_flips(&pts, &kept) {
                let s = s as usize;
                if keep[s].iter().any(|k| !k) {
                    keep[s].iter_mut().for_each(|k| *k = true);
                    note(s, pts[s][0], RepairKind::Nesting);
                    restored_rings += 1;
                    changed = true;
                }
            }
        }
        if !changed {
            let rings = kept
                .iter()
                .zip(&pts)
                .map(|(k, p)| k.iter().map(|&i| p[i] * metres_per_pixel).collect())
                .collect();
            return Simplified {
                rings,
                vertices_before: pts.iter().map(|p| p.len() as u64).sum(),
                repair_rounds,
                restored_rings,
                first_pass_vertices,
                repairs,
            };
        }
        repair_rounds += 1;
    }
}

/// The pairs `(r, s)`, sorted, where simplifying ring `s` (original
/// points `pts[s]`, kept indices `kept[s]`) moved the first vertex of ring
/// `r` across it: the crossing parity of the ray from `pts[r][0]` towards
/// +x against ring `s` differs between the original and the simplified
/// ring.
///
/// The two rings share every kept segment, so the parities differ exactly
/// when the ray crosses the *pockets* an odd number of times: the closed
/// cycles of a dropped span and the segment replacing it. A cycle's
/// crossing parity is zero outside its bounding box, so only the first
/// vertices inside a pocket's box (found in a uniform grid) are tested
/// against its edges: the cost follows the dropped vertices and what lies
/// near them, not rings × rings, and a ring nothing was dropped from
/// costs nothing. The per-edge crossing rule is
/// [`ray_crosses_edge`]'s, so the answer equals comparing whole-ring ray
/// parities, also for a point on a ring.
fn nesting_flips(pts: &[Vec<DVec2>], kept: &[Vec<usize>]) -> Vec<(u32, u32)> {
    let firsts: Vec<DVec2> = pts.iter().map(|p| p[0]).collect();
    let grid = PointGrid::new(&firsts);
    let mut hits = Vec::new();
    let mut candidates = Vec::new();
    for (s, (p, k)) in pts.iter().zip(kept).enumerate() {
        let n = p.len();
        if k.len() == n {
            continue;
        }
        for j in 0..k.len() {
            let (a, b) = (k[j], k[(j + 1) % k.len()]);
            let span = match (b + n - a) % n {
                0 => n,
                d => d,
            };
            if span <= 1 {
                continue;
            }
            let cycle = || (0..=span).map(|i| p[(a + i) % n]);
            let (lo, hi) = cycle().fold(
                (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
                |(lo, hi), q| (lo.min(q), hi.max(q)),
            );
            candidates.clear();
            grid.within(lo, hi, &mut candidates);
            for &r in &candidates {
                let q = firsts[r as usize];
                // Span edges a -> b, then the closing edge b -> a.
                let odd = (0..span)
                    .map(|i| (p[(a + i) % n], p[(a + i + 1) % n]))
                    .chain(std::iter::once((p[b], p[a])))
                    .filter(|&(u, v)| ray_crosses_edge(u, v, q))
                    .count()
                    % 2
                    == 1;
                if odd {
                    hits.push((r, s as u32));
                }
            }
        }
    }
    hits.sort_unstable();
    // A pair crossed by an even number of pockets did not change.
    let mut out = Vec::new();
    let mut i = 0;
    while i < hits.len() {
        let mut j = i;
        while j < hits.len() && hits[j] == hits[i] {
            j += 1;
        }
        if (j - i) % 2 == 1 {
            out.push(hits[i]);
        }
        i = j;
    }
    out
}

/// Points in a uniform grid of about one point per cell, for box queries.
struct PointGrid {
    lo: DVec2,
    cell: f64,
    nx: usize,
    ny: usize,
    /// Cell `c` holds `items[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
    points: Vec<DVec2>,
}

impl PointGrid {
    fn new(points: &[DVec2]) -> Self {
        let (lo, hi) = points.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), q| (lo.min(*q), hi.max(*q)),
        );
        let side = (points.len() as f64).sqrt().ceil().max(1.0);
        let extent = if points.is_empty() {
            DVec2::ONE
        } else {
            (hi - lo).max(DVec2::splat(1e-9))
        };
        let cell = (extent.x.max(extent.y) / side).max(1e-9);
        let nx = ((extent.x / cell) as usize + 1).min(side as usize + 1);
        let ny = ((extent.y / cell) as usize + 1).min(side as usize + 1);
        let mut grid = Self {
            lo: if points.is_empty() { DVec2::ZERO } else { lo },
            cell,
            nx,
            ny,
            start: vec![0; nx * ny + 1],
            items: vec![0; points.len()],
            points: points.to_vec(),
        };
        let cells: Vec<usize> = points.iter().map(|&q| grid.cell_of(q)).collect();
        for &c in &cells {
            grid.start[c + 1] += 1;
        }
        for c in 0..nx * ny {
            grid.start[c + 1] += grid.start[c];
        }
        let mut fill = grid.start.clone();
        for (i, &c) in cells.iter().enumerate() {
            grid.items[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        grid
    }

    fn cell_xy(&self, q: DVec2) -> (usize, usize) {
        let cx = ((q.x - self.lo.x) / self.cell).floor();
        let cy = ((q.y - self.lo.y) / self.cell).floor();
        (
            cx.clamp(0.0, (self.nx - 1) as f64) as usize,
            cy.clamp(0.0, (self.ny - 1) as f64) as usize,
        )
    }

    fn cell_of(&self, q: DVec2) -> usize {
        let (x, y) = self.cell_xy(q);
        y * self.nx + x
    }

    /// Pushes the index of every point in the closed box `lo..hi`.
    fn within(&self, lo: DVec2, hi: DVec2, out: &mut Vec<u32>) {
        let (x0, y0) = self.cell_xy(lo);
        let (x1, y1) = self.cell_xy(hi);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.nx + x;
                for &i in &self.items[self.start[c] as usize..self.start[c + 1] as usize] {
                    let q = self.points[i as usize];
                    if q.x >= lo.x && q.x <= hi.x && q.y >= lo.y && q.y <= hi.y {
                        out.push(i);
                    }
                }
            }
        }
    }
}

/// Index of the vertex strictly inside the cyclic span `a -> b` of `p`
/// farthest from the segment `p[a] p[b]` (`None` when the span has none).
fn farthest(p: &[DVec2], a: usize, b: usize) -> Option<usize> {
    let n = p.len();
    let end = if b > a { b } else { b + n };
    let (pa, pb) = (p[a], p[b % n]);
    let mut best: Option<(f64, usize)> = None;
    for k in a + 1..end {
        let d = navscope_core::geom::point_segment_distance(pa, pb, p[k % n]);
        if best.is_none_or(|(bd, _)| d > bd) {
            best = Some((d, k % n));
        }
    }
    best.map(|(_, i)| i)
}

/// Index of the vertex strictly inside the cyclic span `a -> b` of `p`
/// farthest to the left of the line `p[a] p[b]` (`None` when none is
/// strictly left: exact orientation test).
fn leftmost(p: &[DVec2], a: usize, b: usize) -> Option<usize> {
    let n = p.len();
    let end = if b > a { b } else { b + n };
    let (pa, pb) = (p[a], p[b % n]);
    let mut best: Option<(f64, usize)> = None;
    for k in a + 1..end {
        let q = p[k % n];
        if orient(pa, pb, q) == Orientation::CounterClockwise {
            let d = (pb - pa).perp_dot(q - pa);
            if best.is_none_or(|(bd, _)| d > bd) {
                best = Some((d, k % n));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// One-sided Douglas-Peucker on a closed ring (see the module docs):
/// which vertices to keep (at least three, vertex 0 always).
pub fn douglas_peucker(p: &[DVec2], tol: f64) -> Vec<bool> {
    let n = p.len();
    let mut keep = vec![false; n];
    if n <= 3 {
        return vec![true; n];
    }
    keep[0] = true;
    let f = (1..n)
        .max_by(|&a, &b| {
            p[0].distance_squared(p[a])
                .total_cmp(&p[0].distance_squared(p[b]))
                .then(b.cmp(&a))
        })
        .unwrap_or(1);
    keep[f] = true;
    let mut stack = vec![(0usize, f), (f, n)];
    while let Some((a, b)) = stack.pop() {
        let split = leftmost(p, a, b % n).or_else(|| {
            farthest(p, a, b % n).filter(|&i| {
                navscope_core::geom::point_segment_distance(p[a], p[b % n], p[i]) > tol
            })
        });
        if let Some(i) = split {
            keep[i] = true;
            let iu = if i < a { i + n } else { i };
            stack.push((a, iu));
            stack.push((iu % n, b));
        }
    }
    if keep.iter().filter(|&&k| k).count() < 3 {
        // The vertex farthest from the chord on the span back to vertex 0
        // keeps the ring's orientation (the span runs on the other side of
        // the chord than the first one).
        let back =
            farthest(p, f, 0).filter(|&i| orient(p[0], p[f], p[i]) != Orientation::Collinear);
        if let Some(i) = back.or_else(|| farthest(p, 0, f)) {
            keep[i] = true;
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::BinaryImage;
    use crate::contours::{doubled_area, trace};
    use proptest::prelude::*;

    fn symmetric_difference(a: &[u32], b: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = a
            .iter()
            .filter(|x| !b.contains(x))
            .chain(b.iter().filter(|x| !a.contains(x)))
            .copied()
            .collect();
        out.sort_unstable();
        out
    }

    fn ring_area(r: &[DVec2]) -> f64 {
        (0..r.len())
            .map(|i| r[i].perp_dot(r[(i + 1) % r.len()]))
            .sum::<f64>()
            / 2.0
    }

    #[test]
    fn a_staircase_becomes_a_diagonal() {
        // A triangle of free pixels with a staircase hypotenuse.
        let rows: Vec<String> = (0..20)
            .map(|y| (0..20).map(|x| if x <= y { '.' } else { '#' }).collect())
            .collect();
        let blocked = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| (b == b'#') as u8))
            .collect();
        let img = BinaryImage {
            width: 20,
            height: 20,
            metres_per_pixel: 0.5,
            blocked,
            ..Default::default()
        };
        let c = trace(&img);
        assert_eq!(c.rings.len(), 1);
        assert_eq!(c.rings[0].corners.len(), 2 * 20 + 2);
        let s = simplify(&c, 1.0, 0.5);
        assert!(s.rings[0].len() <= 4, "{:?}", s.rings[0]);
        // Area within tolerance x perimeter of the pixel area (in m^2).
        let pix = doubled_area(&c.rings[0].corners) as f64 / 32.0 * 0.25;
        assert!((ring_area(&s.rings[0]) - pix).abs() <= 1.0 * 0.5 * 60.0 * 0.5);
    }

    /// A round room with a small pillar near its wall: the wall's ring,
    /// simplified alone, cuts inward across the pillar; the repairs give
    /// vertices back (recorded, in rounds) until the rings are apart.
    #[test]
    fn a_pillar_near_a_round_wall_is_repaired_and_the_repairs_recorded() {
        let n = 24usize;
        let blocked = (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as f64 + 0.5, (i / n) as f64 + 0.5);
                let outside = (x - 12.0).hypot(y - 12.0) > 11.0;
                let pillar = (12.0..14.0).contains(&x) && (2.5..4.0).contains(&y);
                (outside || pillar) as u8
            })
            .collect();
        let img = BinaryImage {
            width: n as u32,
            height: n as u32,
            metres_per_pixel: 1.0,
            blocked,
            ..Default::default()
        };
        let c = trace(&img);
        assert_eq!(c.rings.len(), 2);
        let s = simplify(&c, 4.0, 1.0);
        assert!(s.repair_rounds >= 1, "{s:?}");
        assert!(!s.repairs.is_empty(), "{s:?}");
        assert!(Walls::new(s.rings.clone()).conflicts().is_empty());
    }

    #[test]
    fn dp_keeps_at_least_three_vertices() {
        let sq = [
            DVec2::new(0., 0.),
            DVec2::new(1., 0.),
            DVec2::new(1., 1.),
            DVec2::new(0., 1.),
        ];
        assert_eq!(
            douglas_peucker(&sq, 100.0).iter().filter(|&&k| k).count(),
            3
        );
        assert_eq!(douglas_peucker(&sq, 0.1), vec![true; 4]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Simplified rings never meet, keep their nesting and their orientation.
        #[test]
        /// The pocket test equals comparing whole-ring ray parities, for
        /// any choice of kept vertices (valid or not).
        #[test]
        fn nesting_flips_equal_the_whole_ring_comparison(w in 3usize..16, h in 3usize..16, bits in proptest::collection::vec(0u8..4, 256), drop in proptest::collection::vec(any::<bool>(), 1024)) {
            let blocked: Vec<u8> = (0..w * h).map(|i| (bits[i] == 0) as u8).collect();
            let img = BinaryImage { width: w as u32, height: h as u32, metres_per_pixel: 1.0, blocked, ..Default::default() };
            let c = trace(&img);
            let pts: Vec<Vec<DVec2>> = c.rings.iter().map(|r| r.corners.iter().map(|&k| corner_to_plan(k, 1.0)).collect()).collect();
            let mut d = drop.iter().cycle();
            let kept: Vec<Vec<usize>> = pts.iter().map(|p| {
                let k: Vec<usize> = (0..p.len()).filter(|&i| i == 0 || !*d.next().unwrap()).collect();
                if k.len() >= 3 { k } else { (0..p.len()).collect() }
            }).collect();
            let original = Walls::new(pts.clone());
            let simplified = Walls::new(kept.iter().zip(&pts).map(|(k, p)| k.iter().map(|&i| p[i]).collect()).collect());
            let mut brute = Vec::new();
            for (r, p) in pts.iter().enumerate() {
                for s in symmetric_difference(&original.odd_rings(p[0]), &simplified.odd_rings(p[0])) {
                    brute.push((r as u32, s));
                }
            }
            prop_assert_eq!(nesting_flips(&pts, &kept), brute);
        }

        fn simplified_rings_are_valid(w in 3usize..24, h in 3usize..24, bits in proptest::collection::vec(0u8..4, 576), tol in 0.5f64..4.0) {
            let blocked: Vec<u8> = (0..w * h).map(|i| (bits[i] == 0) as u8).collect();
            let img = BinaryImage { width: w as u32, height: h as u32, metres_per_pixel: 1.0, blocked, ..Default::default() };
            let c = trace(&img);
            let s = simplify(&c, tol, 1.0);
            let walls = Walls::new(s.rings.clone());
            prop_assert!(walls.conflicts().is_empty());
            let orig = Walls::new(c.rings.iter().map(|r| r.corners.iter().map(|&k| corner_to_plan(k, 1.0)).collect()).collect());
            // The repairs account for every vertex given back.
            let whole = s.repairs.iter().any(|r| matches!(r.why, RepairKind::Flipped | RepairKind::Nesting));
            let singles = s.repairs.iter().filter(|r| matches!(r.why, RepairKind::Crossing | RepairKind::OneSided)).count() as u64;
            let now: u64 = s.rings.iter().map(|r| r.len() as u64).sum();
            if !whole {
                prop_assert_eq!(now, s.first_pass_vertices + singles);
            }
            for rep in &s.repairs {
                prop_assert!(rep.round >= 1 && rep.round <= s.repair_rounds);
                prop_assert!(s.rings[rep.ring as usize].contains(&rep.at));
            }
            for (k, r) in s.rings.iter().enumerate() {
                prop_assert_eq!(walls.odd_rings(r[0]), orig.odd_rings(r[0]));
                prop_assert_eq!(ring_area(r) < 0.0, c.rings[k].hole, "ring {} flipped", k);
            }
        }
    }
}
