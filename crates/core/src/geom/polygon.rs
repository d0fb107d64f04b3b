//! Simple polygons and polygons with holes in plan coordinates.

use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::predicates::{Orientation, on_segment, orient, point_segment_distance};

/// A closed ring of plan points; the last point connects back to the first
/// (it is not repeated).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Polygon {
    /// The ring's vertices in order.
    pub points: Vec<DVec2>,
}

impl Polygon {
    /// A ring from its vertices.
    pub fn new(points: Vec<DVec2>) -> Self {
        Self { points }
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True for a ring without vertices.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Signed area: positive when counter-clockwise (seen from above).
    pub fn signed_area(&self) -> f64 {
        let n = self.points.len();
        if n < 3 {
            return 0.0;
        }
        // Shift to the first vertex to keep the sum well conditioned at huge
        // coordinates.
        let o = self.points[0];
        let mut s = 0.0;
        for i in 1..n - 1 {
            s += (self.points[i] - o).perp_dot(self.points[i + 1] - o);
        }
        s * 0.5
    }

    /// Absolute area.
    pub fn area(&self) -> f64 {
        self.signed_area().abs()
    }

    /// True when the ring winds counter-clockwise.
    pub fn is_ccw(&self) -> bool {
        self.signed_area() > 0.0
    }

    /// The edges `(i, a, b)` with `b` the vertex after `a`.
    pub fn edges(&self) -> impl Iterator<Item = (usize, DVec2, DVec2)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (i, self.points[i], self.points[(i + 1) % n]))
    }

    /// Vertex `i` taken cyclically (negative and overflowing indices wrap).
    pub fn at(&self, i: isize) -> DVec2 {
        let n = self.points.len() as isize;
        self.points[i.rem_euclid(n) as usize]
    }

    /// Reverses the winding in place.
    pub fn reverse(&mut self) {
        self.points.reverse();
    }

    /// Makes the ring wind counter-clockwise (`ccw = true`) or clockwise.
    pub fn set_winding(&mut self, ccw: bool) {
        if self.is_ccw() != ccw {
            self.reverse();
        }
    }

    /// Drops consecutive duplicate vertices (including last == first).
    pub fn dedup(&mut self) {
        self.points.dedup();
        while self.points.len() > 1 && self.points.first() == self.points.last() {
            self.points.pop();
        }
    }

    /// Drops vertices that lie exactly on the line through their neighbours
    /// (exact test), which also removes spikes. Returns how many went.
    pub fn remove_collinear(&mut self) -> usize {
        let before = self.points.len();
        let mut changed = true;
        while changed && self.points.len() >= 3 {
            changed = false;
            let n = self.points.len();
            for i in 0..n {
                let a = self.points[(i + n - 1) % n];
                let b = self.points[i];
                let c = self.points[(i + 1) % n];
                if a == b || orient(a, b, c) == Orientation::Collinear {
                    self.points.remove(i);
                    changed = true;
                    break;
                }
            }
        }
        before - self.points.len()
    }

    /// Point-in-polygon by crossing number. Points on the boundary count as
    /// inside when `boundary_inside` is set.
    pub fn contains(&self, p: DVec2, boundary_inside: bool) -> bool {
        ring_side(&self.points, p).unwrap_or(boundary_inside)
    }

    /// True when `p` lies exactly on an edge.
    pub fn on_boundary(&self, p: DVec2) -> bool {
        self.edges().any(|(_, a, b)| on_segment(a, b, p))
    }

    /// Distance from `p` to the ring's boundary.
    pub fn boundary_distance(&self, p: DVec2) -> f64 {
        self.edges()
            .map(|(_, a, b)| point_segment_distance(a, b, p))
            .fold(f64::INFINITY, f64::min)
    }

    /// Area-weighted centroid (vertex mean for a degenerate ring).
    pub fn centroid(&self) -> DVec2 {
        let a = self.signed_area();
        if a.abs() < 1e-300 || self.points.len() < 3 {
            return self.points.iter().copied().sum::<DVec2>() / self.points.len().max(1) as f64;
        }
        let o = self.points[0];
        let mut c = DVec2::ZERO;
        for i in 1..self.points.len() - 1 {
            let p = self.points[i] - o;
            let q = self.points[i + 1] - o;
            let w = p.perp_dot(q);
            c += (p + q) * w;
        }
        o + c / (6.0 * a)
    }

    /// Axis-aligned bounds `(min, max)`; zeros for an empty ring.
    pub fn bounds(&self) -> (DVec2, DVec2) {
        if self.points.is_empty() {
            return (DVec2::ZERO, DVec2::ZERO);
        }
        self.points.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        )
    }

    /// True when every turn is a left turn or straight (exact test); the ring
    /// must be counter-clockwise.
    pub fn is_convex(&self) -> bool {
        let n = self.points.len();
        n >= 3
            && (0..n).all(|i| {
                orient(
                    self.at(i as isize - 1),
                    self.points[i],
                    self.at(i as isize + 1),
                ) != Orientation::Clockwise
            })
    }

    /// Smallest interior angle in radians (counter-clockwise ring).
    pub fn min_interior_angle(&self) -> f64 {
        let n = self.points.len();
        (0..n)
            .map(|i| {
                interior_angle(
                    self.at(i as isize - 1),
                    self.points[i],
                    self.at(i as isize + 1),
                )
            })
            .fold(std::f64::consts::TAU, f64::min)
    }
}

/// Interior angle at `b` of a counter-clockwise ring `a, b, c`, in radians
/// in `[0, 2 pi)`: below pi for a convex corner, above pi for a reflex one.
pub fn interior_angle(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    let u = a - b;
    let w = c - b;
    // Angle swept from (c - b) to (a - b), counter-clockwise.
    let ang = w.perp_dot(u).atan2(w.dot(u));
    if ang < 0.0 {
        ang + std::f64::consts::TAU
    } else {
        ang
    }
}

/// An outer boundary with holes. After [`PolygonWithHoles::normalise`] the
/// outer ring is counter-clockwise and every hole clockwise.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PolygonWithHoles {
    /// The outer boundary.
    pub outer: Polygon,
    /// The holes (obstacles) inside it.
    pub holes: Vec<Polygon>,
}

impl PolygonWithHoles {
    /// A polygon with holes, as given.
    pub fn new(outer: Polygon, holes: Vec<Polygon>) -> Self {
        Self { outer, holes }
    }

    /// Removes duplicate vertices and orients the rings (outer
    /// counter-clockwise, holes clockwise).
    pub fn normalise(&mut self) {
        self.outer.dedup();
        self.outer.set_winding(true);
        for h in &mut self.holes {
            h.dedup();
            h.set_winding(false);
        }
    }

    /// Free area: outer area less the holes'.
    pub fn area(&self) -> f64 {
        self.outer.area() - self.holes.iter().map(Polygon::area).sum::<f64>()
    }

    /// Every ring, outer first.
    pub fn rings(&self) -> impl Iterator<Item = &Polygon> {
        std::iter::once(&self.outer).chain(self.holes.iter())
    }

    /// Total vertex count.
    pub fn vertex_count(&self) -> usize {
        self.rings().map(Polygon::len).sum()
    }

    /// True when `p` lies in the free space (boundary counts as free).
    pub fn contains(&self, p: DVec2) -> bool {
        self.outer.contains(p, true) && self.holes.iter().all(|h| !h.contains(p, false))
    }

    /// Bounds of the outer ring.
    pub fn bounds(&self) -> (DVec2, DVec2) {
        self.outer.bounds()
    }
}

/// One step of the crossing-number test: true when the edge `a b` crosses
/// the ray from `p` towards +x. The edge must span `p.y` half-open (exactly
/// one end above it) and `p` must lie strictly left of an upward edge or
/// right of a downward one, decided by the exact `orient` instead of an
/// interpolated x.
pub fn ray_crosses_edge(a: DVec2, b: DVec2, p: DVec2) -> bool {
    if (a.y > p.y) == (b.y > p.y) {
        return false;
    }
    let o = orient(a, b, p);
    if b.y > a.y {
        o == Orientation::CounterClockwise
    } else {
        o == Orientation::Clockwise
    }
}

/// Where `p` lies against the closed ring `ring` (its last point joins the
/// first, not repeated): `None` exactly on an edge, else `Some(true)` inside
/// (an odd crossing number) or `Some(false)` outside. Either winding.
pub fn ring_side(ring: &[DVec2], p: DVec2) -> Option<bool> {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if on_segment(a, b, p) {
            return None;
        }
        inside ^= ray_crosses_edge(a, b, p);
    }
    Some(inside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn square(x0: f64, y0: f64, s: f64) -> Polygon {
        Polygon::new(vec![
            DVec2::new(x0, y0),
            DVec2::new(x0 + s, y0),
            DVec2::new(x0 + s, y0 + s),
            DVec2::new(x0, y0 + s),
        ])
    }

    #[test]
    fn a_point_inside_a_square_of_side_1e200_is_inside() {
        let s = square(-1e200, -1e200, 2e200);
        assert_eq!(ring_side(&s.points, DVec2::new(1.0, 2.0)), Some(true));
        assert_eq!(ring_side(&s.points, DVec2::new(3e200, 0.0)), Some(false));
    }

    #[test]
    fn area_winding_and_normalisation() {
        let mut p = square(0., 0., 2.);
        assert_eq!(p.signed_area(), 4.0);
        p.reverse();
        assert_eq!(p.signed_area(), -4.0);
        let mut pwh = PolygonWithHoles::new(p, vec![square(0.5, 0.5, 1.0)]);
        pwh.normalise();
        assert!(pwh.outer.is_ccw());
        assert!(!pwh.holes[0].is_ccw());
        assert_eq!(pwh.area(), 3.0);
        assert!(pwh.contains(DVec2::new(0.25, 0.25)));
        assert!(!pwh.contains(DVec2::new(1.0, 1.0)));
        assert!(
            pwh.contains(DVec2::new(0.5, 1.0)),
            "hole boundary is free space"
        );
    }

    #[test]
    fn collinear_and_duplicate_vertices_are_removed() {
        let mut p = Polygon::new(vec![
            DVec2::new(0., 0.),
            DVec2::new(1., 0.),
            DVec2::new(1., 0.),
            DVec2::new(2., 0.),
            DVec2::new(2., 2.),
            DVec2::new(0., 2.),
            DVec2::new(0., 0.),
        ]);
        p.dedup();
        assert_eq!(p.len(), 5, "repeated vertex and closing vertex dropped");
        assert_eq!(p.remove_collinear(), 1);
        assert_eq!(p.len(), 4);
        assert!(p.is_convex());
    }

    #[test]
    fn interior_angles() {
        let sq = square(0., 0., 1.);
        assert!((sq.min_interior_angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        let reflex = interior_angle(DVec2::new(1., 0.), DVec2::ZERO, DVec2::new(0., 1.));
        let convex = interior_angle(DVec2::new(1., 0.), DVec2::ZERO, DVec2::new(0., -1.));
        assert!((convex - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!((reflex - 1.5 * std::f64::consts::PI).abs() < 1e-12);
    }

    #[test]
    fn zero_area_ring() {
        let p = Polygon::new(vec![DVec2::ZERO, DVec2::X, DVec2::new(2., 0.)]);
        assert_eq!(p.area(), 0.0);
        assert!(!p.contains(DVec2::new(0.5, 0.1), true));
        assert!(p.contains(DVec2::new(0.5, 0.0), true));
    }

    #[test]
    fn ring_side_is_exact_on_edges_and_either_winding() {
        let v = DVec2::new;
        let ccw = [v(0., 0.), v(2., 0.), v(2., 2.), v(0., 2.)];
        let mut cw = ccw;
        cw.reverse();
        for ring in [&ccw[..], &cw[..]] {
            assert_eq!(ring_side(ring, v(1., 1.)), Some(true));
            assert_eq!(ring_side(ring, v(3., 1.)), Some(false));
            assert_eq!(ring_side(ring, v(-1e-12, 1.)), Some(false));
            assert_eq!(ring_side(ring, v(2., 1.)), None, "on an edge");
            assert_eq!(ring_side(ring, v(0., 2.)), None, "on a vertex");
            // Level with a vertex: the half-open rule counts it once.
            assert_eq!(ring_side(ring, v(1., 0.)), None);
            assert_eq!(ring_side(ring, v(-1., 2.)), Some(false));
        }
        assert_eq!(ring_side(&[], v(0., 0.)), Some(false));
        assert!(on_segment(v(0., 0.), v(2., 2.), v(1., 1.)));
        assert!(!on_segment(v(0., 0.), v(2., 2.), v(3., 3.)));
        assert!(ray_crosses_edge(v(1., -1.), v(1., 1.), v(0., 0.)));
        assert!(!ray_crosses_edge(v(1., -1.), v(1., 1.), v(2., 0.)));
        assert!(!ray_crosses_edge(v(1., 0.5), v(1., 1.), v(0., 0.)));
    }

    proptest! {
        #[test]
        fn centroid_of_translated_square_is_its_centre(x in -1e6f64..1e6, y in -1e6f64..1e6, s in 0.01f64..100.0) {
            let c = square(x, y, s).centroid();
            prop_assert!((c - DVec2::new(x + s / 2.0, y + s / 2.0)).length() < 1e-6 * (1.0 + x.abs() + y.abs()));
        }

        #[test]
        fn reversing_flips_the_sign_of_the_area(pts in proptest::collection::vec((-100f64..100.0, -100f64..100.0), 3..12)) {
            let mut p = Polygon::new(pts.into_iter().map(|(x, y)| DVec2::new(x, y)).collect());
            let a = p.signed_area();
            p.reverse();
            prop_assert!((a + p.signed_area()).abs() <= 1e-9 * (1.0 + a.abs()));
        }
    }
}
