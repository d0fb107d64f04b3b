//! The integer grid the Voronoi diagrams are computed on, and exact integer
//! segment arrangements.
//!
//! `boostvoronoi` (a port of Boost.Polygon's Voronoi) needs integer input
//! whose segments meet only at their endpoints. Plan coordinates (metres)
//! are snapped to a grid of `grid` metres (the `grid` parameter, 1 mm by
//! default): a point `p` becomes `round(p / grid)`. Coordinates must stay
//! within ±2²⁸ grid steps (±268 km on the 1 mm grid) so that, with room
//! to spare for crossings rounded to the grid, everything fits the 32-bit input
//! for which Boost's predicates are exact and fast.

use glam::DVec2;

/// An integer grid point.
pub type IPt = [i64; 2];

/// Largest absolute grid coordinate accepted.
pub const MAX_COORD: i64 = 1 << 28;

/// Converts between plan metres and grid integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Metres per grid step.
    pub step: f64,
}

impl Grid {
    /// The grid point nearest `p`, or `None` when `p` is not finite or too
    /// far from the origin for this grid.
    pub fn snap(&self, p: DVec2) -> Option<IPt> {
        let x = (p.x / self.step).round();
        let y = (p.y / self.step).round();
        let lim = MAX_COORD as f64;
        (x.is_finite() && y.is_finite() && x.abs() <= lim && y.abs() <= lim)
            .then_some([x as i64, y as i64])
    }

    /// Plan position of a grid point.
    pub fn plan(&self, p: IPt) -> DVec2 {
        DVec2::new(p[0] as f64 * self.step, p[1] as f64 * self.step)
    }
}

/// Exact orientation of `c` relative to `a -> b`: positive when `c` is to
/// the left.
pub fn orient_i(a: IPt, b: IPt, c: IPt) -> i128 {
    let (ax, ay) = ((b[0] - a[0]) as i128, (b[1] - a[1]) as i128);
    let (bx, by) = ((c[0] - a[0]) as i128, (c[1] - a[1]) as i128);
    ax * by - ay * bx
}

/// True when `p` lies on segment `a b` strictly between its endpoints.
pub fn strictly_inside(a: IPt, b: IPt, p: IPt) -> bool {
    orient_i(a, b, p) == 0
        && p != a
        && p != b
        && p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// The crossing point of segments that properly cross, rounded to the grid.
fn crossing(a: IPt, b: IPt, c: IPt, d: IPt) -> Option<IPt> {
    let (o1, o2) = (orient_i(a, b, c), orient_i(a, b, d));
    let (o3, o4) = (orient_i(c, d, a), orient_i(c, d, b));
    if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 || (o1 > 0) == (o2 > 0) || (o3 > 0) == (o4 > 0) {
        return None;
    }
    // a + t (b - a), t = o3 / (o3 - o4).
    let den = (o3 - o4) as f64;
    let t = o3 as f64 / den;
    let x = a[0] as f64 + t * (b[0] - a[0]) as f64;
    let y = a[1] as f64 + t * (b[1] - a[1]) as f64;
    Some([x.round() as i64, y.round() as i64])
}

/// One piece of an arrangement: a segment in canonical direction
/// (lexicographically smaller endpoint first) and the input segments that
/// cover it, each with whether it runs the same way as the piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// Canonical start.
    pub a: IPt,
    /// Canonical end.
    pub b: IPt,
    /// `(input index, same direction)` of every input segment covering it.
    pub sources: Vec<(usize, bool)>,
}

/// Splits `segs` at every point where one touches, overlaps or crosses
/// another and merges identical pieces, so that the pieces meet only at
/// their endpoints (what `boostvoronoi` needs). Zero-length inputs are
/// dropped. Crossing points are rounded to the grid; touching and
/// collinear overlaps are split exactly. Output order is deterministic.
pub fn arrange(segs: &[(IPt, IPt)]) -> Vec<Piece> {
    let n = segs.len();
    let mut order: Vec<usize> = (0..n).filter(|&i| segs[i].0 != segs[i].1).collect();
    let lo = |i: usize| segs[i].0[0].min(segs[i].1[0]);
    let hi = |i: usize| segs[i].0[0].max(segs[i].1[0]);
    order.sort_by_key(|&i| (lo(i), i));
    let mut cuts: Vec<Vec<IPt>> = (0..n).map(|i| vec![segs[i].0, segs[i].1]).collect();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if lo(j) > hi(i) {
                break;
            }
            let (a, b) = segs[i];
            let (c, d) = segs[j];
            if a[1].max(b[1]) < c[1].min(d[1]) || c[1].max(d[1]) < a[1].min(b[1]) {
                continue;
            }
            for p in [c, d] {
                if strictly_inside(a, b, p) {
                    cuts[i].push(p);
                }
            }
            for p in [a, b] {
                if strictly_inside(c, d, p) {
                    cuts[j].push(p);
                }
            }
            if let Some(x) = crossing(a, b, c, d) {
                cuts[i].push(x);
                cuts[j].push(x);
            }
        }
    }
    let mut pieces: Vec<Piece> = Vec::new();
    let mut index: std::collections::HashMap<(IPt, IPt), usize> = std::collections::HashMap::new();
    for i in 0..n {
        let (a, b) = segs[i];
        if a == b {
            continue;
        }
        let d = [(b[0] - a[0]) as i128, (b[1] - a[1]) as i128];
        let key = |p: &IPt| (p[0] - a[0]) as i128 * d[0] + (p[1] - a[1]) as i128 * d[1];
        let mut pts = std::mem::take(&mut cuts[i]);
        pts.sort_by_key(key);
        pts.dedup();
        for w in pts.windows(2) {
            let (p, q) = (w[0], w[1]);
            let same = p < q;
            let (ca, cb) = if same { (p, q) } else { (q, p) };
            let at = *index.entry((ca, cb)).or_insert_with(|| {
                pieces.push(Piece {
                    a: ca,
                    b: cb,
                    sources: Vec::new(),
                });
                pieces.len() - 1
            });
            pieces[at].sources.push((i, same));
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn collinear_overlaps_and_touches_are_split_exactly() {
        let segs = [([0, 0], [10, 0]), ([4, 0], [14, 0]), ([5, 0], [5, 5])];
        let p = arrange(&segs);
        let ends: Vec<_> = p.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(
            ends,
            vec![
                ([0, 0], [4, 0]),
                ([4, 0], [5, 0]),
                ([5, 0], [10, 0]),
                ([10, 0], [14, 0]),
                ([5, 0], [5, 5])
            ]
        );
        assert_eq!(p[1].sources, vec![(0, true), (1, true)]);
    }

    #[test]
    fn reversed_duplicates_merge_with_direction_flags() {
        let p = arrange(&[([3, 3], [0, 0]), ([0, 0], [3, 3]), ([1, 1], [1, 1])]);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].sources, vec![(0, false), (1, true)]);
    }

    #[test]
    fn crossings_are_rounded_to_the_grid() {
        let p = arrange(&[([0, 0], [10, 10]), ([0, 10], [10, 0])]);
        assert_eq!(p.len(), 4);
        assert!(p.iter().all(|p| p.a == [5, 5] || p.b == [5, 5]));
    }

    #[test]
    fn snapping_refuses_huge_and_non_finite_coordinates() {
        let g = Grid { step: 0.001 };
        assert_eq!(g.snap(DVec2::new(1.2344, -2.0)), Some([1234, -2000]));
        assert_eq!(g.snap(DVec2::new(1e12, 0.0)), None);
        assert_eq!(g.snap(DVec2::new(f64::NAN, 0.0)), None);
    }

    /// True when two pieces cross at a point interior to both.
    pub(super) fn proper(p: &Piece, q: &Piece) -> bool {
        let (o1, o2) = (orient_i(p.a, p.b, q.a), orient_i(p.a, p.b, q.b));
        let (o3, o4) = (orient_i(q.a, q.b, p.a), orient_i(q.a, q.b, p.b));
        o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0 && (o1 > 0) != (o2 > 0) && (o3 > 0) != (o4 > 0)
    }

    proptest! {
        #[test]
        fn pieces_never_cross_or_overlap(segs in proptest::collection::vec((0i64..20, 0i64..20, 0i64..20, any::<bool>()), 1..10)) {
            // Axis-parallel inputs on a small grid: many touches, overlaps
            // and crossings, all at grid points, so the split is exact.
            let segs: Vec<(IPt, IPt)> = segs.into_iter().map(|(a, b, c, horizontal)| if horizontal { ([a, b], [c, b]) } else { ([a, b], [a, c]) }).collect();
            let pieces = arrange(&segs);
            for (i, p) in pieces.iter().enumerate() {
                for q in &pieces[i + 1..] {
                    prop_assert!((p.a, p.b) != (q.a, q.b));
                    prop_assert!(!crate::grid::tests::proper(p, q));
                    // Collinear pieces may only share endpoints.
                    if orient_i(p.a, p.b, q.a) == 0 && orient_i(p.a, p.b, q.b) == 0 {
                        prop_assert!(!strictly_inside(p.a, p.b, q.a) && !strictly_inside(p.a, p.b, q.b));
                        prop_assert!(!strictly_inside(q.a, q.b, p.a) && !strictly_inside(q.a, q.b, p.b));
                    }
                }
            }
        }
    }
}
