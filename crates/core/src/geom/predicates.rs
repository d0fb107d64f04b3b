//! Exact orientation and segment predicates.

use glam::DVec2;

/// Turn direction of three plan points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// `c` lies to the left of `a -> b` (a counter-clockwise turn).
    CounterClockwise,
    /// `c` lies to the right of `a -> b`.
    Clockwise,
    /// The three points are exactly collinear.
    Collinear,
}

/// Twice the signed area of `abc`, computed with Shewchuk's adaptive exact
/// arithmetic: its sign is always right, whatever the magnitudes.
/// Inlined: the path searches call it in their inner loops.
#[inline]
pub fn orient_value(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// Exact orientation of `abc`, for any finite coordinates: when the
/// products overflow (coordinates beyond about 1e150), the three points are
/// scaled by one power of two, which changes no sign and loses nothing
/// unless other coordinates are so small that they underflow.
pub fn orient(a: DVec2, b: DVec2, c: DVec2) -> Orientation {
    let mut v = orient_value(a, b, c);
    if !v.is_finite() {
        let m = a.abs().max(b.abs()).max(c.abs()).max_element();
        if m.is_finite() && m > 0.0 {
            // The largest coordinate becomes about 2^480, so differences and
            // their products stay below f64::MAX.
            let e = m.log2().floor() as i32;
            let s = 2f64.powi(480 - e.max(480));
            v = orient_value(a * s, b * s, c * s);
        }
    }
    if v > 0.0 {
        Orientation::CounterClockwise
    } else if v < 0.0 {
        Orientation::Clockwise
    } else {
        Orientation::Collinear
    }
}

/// How two closed segments meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SegmentHit {
    /// They share no point.
    None,
    /// They meet in exactly one point.
    Point(DVec2),
    /// They are collinear and share the sub-segment between these points.
    Overlap(DVec2, DVec2),
}

/// True when `p` lies in the box spanned by `a` and `b` (for a point already
/// known to be collinear with them: on the segment).
fn in_box(a: DVec2, b: DVec2, p: DVec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// True when `p` lies exactly on the closed segment `a b` (exact `orient`,
/// then the segment's box).
pub fn on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    orient(a, b, p) == Orientation::Collinear && in_box(a, b, p)
}

/// Where the closed segments `ab` and `cd` meet. The decision (meet or not)
/// is exact; the returned point is computed in f64.
pub fn segment_intersection(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> SegmentHit {
    // Degenerate segments are points.
    if a == b || c == d {
        let (p, q0, q1) = if a == b { (a, c, d) } else { (c, a, b) };
        let hit = if q0 == q1 {
            p == q0
        } else {
            on_segment(q0, q1, p)
        };
        return if hit {
            SegmentHit::Point(p)
        } else {
            SegmentHit::None
        };
    }
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    use Orientation::Collinear as Col;
    if o1 == Col && o2 == Col {
        // Collinear: project on the dominant axis.
        let axis = if (b - a).x.abs() >= (b - a).y.abs() {
            0
        } else {
            1
        };
        let key = |p: DVec2| if axis == 0 { p.x } else { p.y };
        let (mut s0, mut s1) = (a, b);
        if key(s0) > key(s1) {
            std::mem::swap(&mut s0, &mut s1);
        }
        let (mut t0, mut t1) = (c, d);
        if key(t0) > key(t1) {
            std::mem::swap(&mut t0, &mut t1);
        }
        let lo = if key(s0) >= key(t0) { s0 } else { t0 };
        let hi = if key(s1) <= key(t1) { s1 } else { t1 };
        return if key(lo) < key(hi) {
            SegmentHit::Overlap(lo, hi)
        } else if key(lo) == key(hi) {
            SegmentHit::Point(lo)
        } else {
            SegmentHit::None
        };
    }
    let straddle1 = o1 != o2 || o1 == Col || o2 == Col;
    let straddle2 = o3 != o4 || o3 == Col || o4 == Col;
    if !(straddle1 && straddle2) {
        return SegmentHit::None;
    }
    // Touching cases: an endpoint lies on the other segment.
    for (p, q0, q1, o) in [(c, a, b, o1), (d, a, b, o2), (a, c, d, o3), (b, c, d, o4)] {
        if o == Col {
            return if in_box(q0, q1, p) {
                SegmentHit::Point(p)
            } else {
                SegmentHit::None
            };
        }
    }
    if o1 == o2 || o3 == o4 {
        return SegmentHit::None;
    }
    let r = b - a;
    let s = d - c;
    let t = (c - a).perp_dot(s) / r.perp_dot(s);
    SegmentHit::Point(a + r * t.clamp(0.0, 1.0))
}

/// True when `ab` and `cd` cross at a single point interior to both.
pub fn segments_properly_cross(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    use Orientation::Collinear as Col;
    o1 != Col && o2 != Col && o3 != Col && o4 != Col && o1 != o2 && o3 != o4
}

/// Parameter `t` (unclamped) of the projection of `p` on the line `ab`;
/// `0.5` for a degenerate segment.
pub fn project_on_segment(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        0.5
    } else {
        (p - a).dot(ab) / len2
    }
}

/// Distance from `p` to the closed segment `ab`.
pub fn point_segment_distance(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let t = project_on_segment(a, b, p).clamp(0.0, 1.0);
    (a + (b - a) * t).distance(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn orientation_is_exact_for_nearly_collinear_points() {
        // A classic failure case of naive floating point.
        let a = v(0.5, 0.5);
        let b = v(12.0, 12.0);
        let c = v(24.0, 24.0);
        assert_eq!(orient(a, b, c), Orientation::Collinear);
        let c2 = v(24.0, 24.000000000000004);
        assert_eq!(orient(a, b, c2), Orientation::CounterClockwise);
    }

    #[test]
    fn huge_coordinates_keep_their_sign() {
        let a = v(1e15, 1e15);
        let b = v(1e15 + 1.0, 1e15);
        let c = v(1e15, 1e15 + 1.0);
        assert_eq!(orient(a, b, c), Orientation::CounterClockwise);
    }

    #[test]
    fn coordinates_whose_products_overflow_keep_their_sign() {
        let big = 1e200;
        assert!(!orient_value(v(-big, -big), v(big, -big), v(0.0, 1.0)).is_finite());
        assert_eq!(
            orient(v(-big, -big), v(big, -big), v(0.0, 1.0)),
            Orientation::CounterClockwise
        );
        assert_eq!(
            orient(v(-big, -big), v(big, big), v(1.0, 1.0)),
            Orientation::Collinear
        );
        assert_eq!(
            orient(v(f64::MAX, 0.0), v(0.0, f64::MAX), v(0.0, 0.0)),
            Orientation::CounterClockwise
        );
    }

    #[test]
    fn crossing_touching_overlapping_and_apart() {
        assert_eq!(
            segment_intersection(v(0., 0.), v(2., 2.), v(0., 2.), v(2., 0.)),
            SegmentHit::Point(v(1., 1.))
        );
        assert_eq!(
            segment_intersection(v(0., 0.), v(2., 0.), v(1., 0.), v(1., 5.)),
            SegmentHit::Point(v(1., 0.))
        );
        assert_eq!(
            segment_intersection(v(0., 0.), v(2., 0.), v(1., 0.), v(3., 0.)),
            SegmentHit::Overlap(v(1., 0.), v(2., 0.))
        );
        assert_eq!(
            segment_intersection(v(0., 0.), v(2., 0.), v(2., 0.), v(3., 0.)),
            SegmentHit::Point(v(2., 0.))
        );
        assert_eq!(
            segment_intersection(v(0., 0.), v(1., 0.), v(2., 0.), v(3., 0.)),
            SegmentHit::None
        );
        assert_eq!(
            segment_intersection(v(0., 0.), v(1., 1.), v(0., 1.), v(0.4, 0.6)),
            SegmentHit::None
        );
        assert!(!segments_properly_cross(
            v(0., 0.),
            v(2., 0.),
            v(1., 0.),
            v(1., 5.)
        ));
        assert!(segments_properly_cross(
            v(0., 0.),
            v(2., 2.),
            v(0., 2.),
            v(2., 0.)
        ));
    }

    proptest! {
        #[test]
        fn intersection_is_symmetric_in_its_answer(
            ax in -10i32..10, ay in -10i32..10, bx in -10i32..10, by in -10i32..10,
            cx in -10i32..10, cy in -10i32..10, dx in -10i32..10, dy in -10i32..10,
        ) {
            let (a, b, c, d) = (v(ax as f64, ay as f64), v(bx as f64, by as f64), v(cx as f64, cy as f64), v(dx as f64, dy as f64));
            let h1 = segment_intersection(a, b, c, d);
            let h2 = segment_intersection(c, d, a, b);
            prop_assert_eq!(h1 == SegmentHit::None, h2 == SegmentHit::None);
            if let SegmentHit::Point(p) = h1 {
                prop_assert!(point_segment_distance(a, b, p) < 1e-9);
                prop_assert!(point_segment_distance(c, d, p) < 1e-9);
            }
        }
    }
}
