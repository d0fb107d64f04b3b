//! Reference implementations the tests check optimised code against: the
//! plain, quadratic way to the same answer.

use glam::DVec2;

use crate::geom::{Polygon, PolygonWithHoles, SegmentHit, segment_intersection};

/// The pairs of segments that meet (cross, touch or overlap), by testing
/// every pair: the reference for [`crate::geom::pairs`]'s sweep.
pub fn reference_meeting(segs: &[(DVec2, DVec2)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..segs.len() {
        for j in i + 1..segs.len() {
            let (a, b) = segs[i];
            let (c, d) = segs[j];
            if segment_intersection(a, b, c, d) != SegmentHit::None {
                out.push((i, j));
            }
        }
    }
    out
}

/// Whether a polygon with holes is valid, by the quadratic reference for
/// [`crate::geom::validate`]'s sweep: every pair of edges, then every hole
/// against every ring by crossing number. Only says valid or not.
pub fn reference_valid(pwh: &PolygonWithHoles) -> bool {
    let rings: Vec<&Polygon> = pwh.rings().collect();
    if rings.iter().any(|p| {
        let mut d = p.points.clone();
        d.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        d.dedup();
        d.len() < 3 || p.signed_area() == 0.0
    }) {
        return false;
    }
    let mut segs = Vec::new();
    for (ri, p) in rings.iter().enumerate() {
        for (ei, a, b) in p.edges() {
            segs.push((ri, ei, p.len(), a, b));
        }
    }
    for (i, &(ri, ei, n, a, b)) in segs.iter().enumerate() {
        for &(rj, ej, _, c, d) in &segs[i + 1..] {
            let hit = segment_intersection(a, b, c, d);
            if hit == SegmentHit::None {
                continue;
            }
            if ri == rj && ((ei + 1) % n == ej || (ej + 1) % n == ei) {
                let shared = if (ei + 1) % n == ej { b } else { a };
                if hit == SegmentHit::Point(shared) {
                    continue;
                }
            }
            return false;
        }
    }
    pwh.holes.iter().enumerate().all(|(hi, h)| {
        let v = h.points[0];
        pwh.outer.contains(v, false)
            && pwh
                .holes
                .iter()
                .enumerate()
                .all(|(hj, o)| hj == hi || !o.contains(v, false))
    })
}
