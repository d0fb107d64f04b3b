//! Candidate pairs of segments that may meet, by an adaptive quadtree.
//!
//! Every validity check and intersection search asks the same question:
//! which pairs of segments could touch? Pairs whose bounding boxes overlap
//! are not a good answer: the boxes of a star's long, thin spikes all
//! overlap each other, so a 100,000-vertex star has billions of them. The
//! quadtree here splits a cell while it holds more than [`LEAF`] segments and
//! hands each segment only to the child cells its *line* passes through (not
//! its box), so thin neighbouring spikes part after a few levels. A pair is
//! a candidate when both segments meet a common leaf and their boxes
//! overlap; two segments that share a point share the leaf holding it, so
//! the candidates are a superset of the meeting pairs. The work is about
//! the number of segment–leaf incidences: near-linear for the inputs a
//! level holds (`O(n log n)` for a star), quadratic only when many segments
//! really pass through one point.

use glam::DVec2;

/// Most segments a cell holds before it splits.
const LEAF: usize = 8;
/// Deepest split (cells of 2⁻²⁴ of the extent); below that segments are
/// closer than the margin and a leaf keeps all of them.
const MAX_DEPTH: u32 = 24;

/// Pairs of segments (indices into `segs`) that may meet: every pair that
/// shares a point is listed, each pair once, `i < j`, sorted. Non-finite
/// segments are never paired.
pub fn candidate_segment_pairs(segs: &[(DVec2, DVec2)]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for_each_leaf(segs, |leaf| {
        for (k, &i) in leaf.iter().enumerate() {
            for &j in &leaf[k + 1..] {
                let (i, j) = (i.min(j) as usize, i.max(j) as usize);
                if boxes_overlap(segs[i], segs[j]) {
                    pairs.push((i, j));
                }
            }
        }
    });
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

fn boxes_overlap((a, b): (DVec2, DVec2), (c, d): (DVec2, DVec2)) -> bool {
    a.min(b).cmple(c.max(d)).all() && c.min(d).cmple(a.max(b)).all()
}

/// Calls `leaf` with the segment ids of every leaf cell of the quadtree.
fn for_each_leaf(segs: &[(DVec2, DVec2)], mut leaf: impl FnMut(&[u32])) {
    let ids: Vec<u32> = (0..segs.len() as u32)
        .filter(|&i| segs[i as usize].0.is_finite() && segs[i as usize].1.is_finite())
        .collect();
    if ids.len() < 2 {
        return;
    }
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for &i in &ids {
        let (a, b) = segs[i as usize];
        lo = lo.min(a.min(b));
        hi = hi.max(a.max(b));
    }
    // A margin far above the rounding error of the side tests keeps them
    // conservative: a segment that touches a cell always meets its widened
    // box.
    let scale = (hi - lo)
        .max_element()
        .max(lo.abs().max_element())
        .max(hi.abs().max_element());
    let margin = (scale * 1e-9).max(f64::MIN_POSITIVE);
    let mut stack = vec![(lo, hi, 0u32, ids)];
    while let Some((lo, hi, depth, ids)) = stack.pop() {
        if ids.len() <= LEAF || depth >= MAX_DEPTH {
            leaf(&ids);
            continue;
        }
        let mid = (lo + hi) * 0.5;
        let quads = [
            (lo, mid),
            (DVec2::new(mid.x, lo.y), DVec2::new(hi.x, mid.y)),
            (DVec2::new(lo.x, mid.y), DVec2::new(mid.x, hi.y)),
            (mid, hi),
        ];
        for (qlo, qhi) in quads {
            let (wlo, whi) = (qlo - margin, qhi + margin);
            let inside: Vec<u32> = ids
                .iter()
                .copied()
                .filter(|&i| segment_meets_box(segs[i as usize], wlo, whi))
                .collect();
            if inside.len() >= 2 {
                stack.push((qlo, qhi, depth + 1, inside));
            }
        }
    }
}

/// True when the segment `ab` may meet the closed box `lo..hi`: the boxes
/// overlap and the box's corners are not all strictly on one side of the
/// line.
fn segment_meets_box((a, b): (DVec2, DVec2), lo: DVec2, hi: DVec2) -> bool {
    if !boxes_overlap((a, b), (lo, hi)) {
        return false;
    }
    let d = b - a;
    let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    let side = |p: DVec2| d.perp_dot(p - a);
    let s: [f64; 4] = corners.map(side);
    !(s.iter().all(|&v| v > 0.0) || s.iter().all(|&v| v < 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{SegmentHit, segment_intersection};
    use crate::test_support::reference_meeting;
    use proptest::prelude::*;

    fn meeting(segs: &[(DVec2, DVec2)]) -> Vec<(usize, usize)> {
        candidate_segment_pairs(segs)
            .into_iter()
            .filter(|&(i, j)| {
                segment_intersection(segs[i].0, segs[i].1, segs[j].0, segs[j].1) != SegmentHit::None
            })
            .collect()
    }

    #[test]
    fn a_star_has_few_candidates() {
        // 2,000 spikes whose boxes overlap by the million.
        let k = 1_000;
        let pts: Vec<DVec2> = (0..2 * k)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / (2 * k) as f64;
                let r = if i % 2 == 0 { 100.0 } else { 50.0 };
                DVec2::new(a.cos(), a.sin()) * r
            })
            .collect();
        let segs: Vec<_> = (0..pts.len())
            .map(|i| (pts[i], pts[(i + 1) % pts.len()]))
            .collect();
        let pairs = candidate_segment_pairs(&segs);
        assert!(pairs.len() < 40 * segs.len(), "{} pairs", pairs.len());
        // The neighbours sharing a vertex are all there.
        assert_eq!(meeting(&segs).len(), segs.len());
    }

    #[test]
    fn crossings_of_a_grid_are_all_found() {
        let mut segs = Vec::new();
        for i in 0..20 {
            let t = i as f64;
            segs.push((DVec2::new(-1., t), DVec2::new(20., t)));
            segs.push((DVec2::new(t, -1.), DVec2::new(t, 20.)));
        }
        assert_eq!(meeting(&segs).len(), 400);
        assert_eq!(meeting(&segs), reference_meeting(&segs));
    }

    #[test]
    fn points_and_non_finite_segments() {
        let p = DVec2::new(1.0, 1.0);
        let segs = [
            (p, p),
            (DVec2::ZERO, DVec2::new(2.0, 2.0)),
            (DVec2::new(f64::NAN, 0.0), DVec2::ONE),
        ];
        assert_eq!(candidate_segment_pairs(&segs), vec![(0, 1)]);
    }

    fn coord() -> impl Strategy<Value = f64> {
        // Small integer grids give many touching and collinear cases.
        prop_oneof![(-8i32..8).prop_map(f64::from), -8.0..8.0f64]
    }

    fn segment() -> impl Strategy<Value = (DVec2, DVec2)> {
        (coord(), coord(), coord(), coord())
            .prop_map(|(a, b, c, d)| (DVec2::new(a, b), DVec2::new(c, d)))
    }

    proptest! {
        #[test]
        fn the_quadtree_finds_every_meeting_pair(
            segs in prop::collection::vec(segment(), 0..120),
            scale in prop_oneof![Just(1.0), Just(1e-6), Just(1e6)],
        ) {
            let segs: Vec<_> = segs.into_iter().map(|(a, b)| (a * scale, b * scale)).collect();
            prop_assert_eq!(meeting(&segs), reference_meeting(&segs));
        }
    }
}
