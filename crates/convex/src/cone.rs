//! The area of interest `I_i` of a notch (Oliva & Pelechano §3.1, §3.3): the
//! wedge between the prolongations of the notch's two edges, widened by
//! `tau` for tau-convexity, and the search for the closest point of a segment
//! inside it.
//!
//! A wedge is the intersection of two closed half-planes through its apex.
//! With `tau = 0` the half-planes are given by the notch's own edges, so
//! "is `p` in `I_i`" is two exact orientation tests. With `tau > 0` the
//! boundary lines are rotated outwards by `tau / 2` each (the wedge's angle
//! grows from `alpha` to `alpha + tau`); the rotated lines are computed in
//! f64 and the tests stay exact with respect to those lines.

use glam::DVec2;
use navscope_core::geom::{orient_value, project_on_segment};
use serde::Serialize;

/// The wedge-shaped area of interest of one corner.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cone {
    /// The notch.
    pub apex: DVec2,
    /// First half-plane: `p` is inside when `orient(h1[0], h1[1], p) >= 0`.
    /// Its boundary ray is the prolongation of the incoming edge.
    pub h1: [DVec2; 2],
    /// Second half-plane, bounded by the backward prolongation of the
    /// outgoing edge.
    pub h2: [DVec2; 2],
    /// Unit direction of the prolonged incoming edge (where `q_l` lies).
    pub ray_l: DVec2,
    /// Unit direction of the backward-prolonged outgoing edge (where `q_r`
    /// lies).
    pub ray_r: DVec2,
    /// Opening angle in radians (`alpha + widen`), always below pi.
    pub angle: f64,
}

/// Where the closest point of a segment inside a cone lies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Near {
    /// At the segment's first endpoint.
    A,
    /// At the segment's second endpoint.
    B,
    /// Strictly inside the segment, at parameter `t`.
    Inside {
        /// Parameter along the segment.
        t: f64,
        /// Why this point: the projection of the apex, or a crossing with
        /// one of the wedge's rays.
        how: How,
    },
}

/// How an interior closest point was found (paper §3.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum How {
    /// The orthogonal projection of the notch onto the segment.
    Projection,
    /// `q_l`: the crossing with the prolonged incoming edge.
    Ql,
    /// `q_r`: the crossing with the backward-prolonged outgoing edge.
    Qr,
}

fn rotate(d: DVec2, angle: f64) -> DVec2 {
    let (s, c) = angle.sin_cos();
    DVec2::new(d.x * c - d.y * s, d.x * s + d.y * c)
}

impl Cone {
    /// The area of interest of the reflex corner `prev -> v -> next` (free
    /// space on the left), widened by `widen` radians in total. The corner's
    /// interior angle must exceed `pi + widen`, which keeps the opening angle
    /// `alpha + widen` below pi (§3.3).
    pub fn of_corner(prev: DVec2, v: DVec2, next: DVec2, widen: f64) -> Self {
        let din = v - prev;
        let dout = next - v;
        let (h1, h2, ray_l, ray_r) = if widen > 0.0 {
            let l = rotate(din, -widen * 0.5);
            let o = rotate(dout, widen * 0.5);
            (
                [v, v + l],
                [v, v + o],
                l.normalize_or_zero(),
                (-o).normalize_or_zero(),
            )
        } else {
            (
                [prev, v],
                [v, next],
                din.normalize_or_zero(),
                (-dout).normalize_or_zero(),
            )
        };
        let angle = ray_l.perp_dot(ray_r).atan2(ray_l.dot(ray_r)).abs();
        Self {
            apex: v,
            h1,
            h2,
            ray_l,
            ray_r,
            angle,
        }
    }

    /// True when `p` lies in the closed wedge.
    pub fn contains(&self, p: DVec2) -> bool {
        orient_value(self.h1[0], self.h1[1], p) >= 0.0
            && orient_value(self.h2[0], self.h2[1], p) >= 0.0
    }

    /// False only when the axis-aligned box `lo..hi` certainly misses the
    /// wedge (all its corners outside one half-plane). Used to prune the
    /// grid search.
    pub fn may_touch_box(&self, lo: DVec2, hi: DVec2) -> bool {
        let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
        for h in [self.h1, self.h2] {
            if corners.iter().all(|c| orient_value(h[0], h[1], *c) < 0.0) {
                return false;
            }
        }
        true
    }

    /// Orientation value of `p` against half-plane `h`, with points within
    /// 1e-10 rad of its boundary line counted as on it (value 0): a vertex
    /// that the exact test would put a rounding error outside the wedge
    /// (two collinear edges rotated into f64) is then found as the vertex it
    /// is, not as an ill-conditioned crossing of nearly parallel lines.
    fn side(h: [DVec2; 2], p: DVec2) -> f64 {
        let f = orient_value(h[0], h[1], p);
        let scale = h[0].distance(h[1]) * (h[0].distance(p) + h[0].distance(h[1]));
        if f < 0.0 && -f <= 1e-10 * scale {
            0.0
        } else {
            f
        }
    }

    /// True when `p` lies in the closed wedge up to the 1e-10 rad tolerance
    /// of [`Cone::nearest_on_segment`].
    pub fn nearly_contains(&self, p: DVec2) -> bool {
        Self::side(self.h1, p) >= 0.0 && Self::side(self.h2, p) >= 0.0
    }

    /// The closest point to the apex of the segment `a b` clipped to the
    /// wedge, or `None` when the segment misses the wedge. The apex itself
    /// must not lie on the segment.
    ///
    /// Points within 1e-10 rad of a boundary ray count as inside, and
    /// interior points within `1e-9` of the segment's length from an
    /// endpoint snap to that endpoint, so no near-duplicate vertex is ever
    /// created.
    pub fn nearest_on_segment(&self, a: DVec2, b: DVec2) -> Option<Near> {
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let (mut lo_by, mut hi_by) = (None, None);
        for (h, how) in [(self.h1, How::Ql), (self.h2, How::Qr)] {
            let fa = Self::side(h, a);
            let fb = Self::side(h, b);
            match (fa >= 0.0, fb >= 0.0) {
                (true, true) => {}
                (false, false) => return None,
                (false, true) => {
                    let t = fa / (fa - fb);
                    if t > t0 {
                        t0 = t;
                        lo_by = Some(how);
                    }
                }
                (true, false) => {
                    let t = fa / (fa - fb);
                    if t < t1 {
                        t1 = t;
                        hi_by = Some(how);
                    }
                }
            }
        }
        if t0 > t1 {
            return None;
        }
        let tp = project_on_segment(a, b, self.apex);
        let (t, how) = if tp < t0 {
            (t0, lo_by)
        } else if tp > t1 {
            (t1, hi_by)
        } else {
            (tp, Some(How::Projection))
        };
        if t <= 0.0 {
            return Some(Near::A);
        }
        if t >= 1.0 {
            return Some(Near::B);
        }
        // Snap interior points that are numerically at an endpoint.
        let len = a.distance(b);
        let p = a + (b - a) * t;
        if p.distance(a) <= 1e-9 * len && self.nearly_contains(a) {
            return Some(Near::A);
        }
        if p.distance(b) <= 1e-9 * len && self.nearly_contains(b) {
            return Some(Near::B);
        }
        Some(Near::Inside {
            t,
            how: how.unwrap_or(How::Projection),
        })
    }

    /// The wedge as a triangle of the given leg length, for drawing.
    pub fn triangle(&self, length: f64) -> [DVec2; 3] {
        [
            self.apex,
            self.apex + self.ray_l * length,
            self.apex + self.ray_r * length,
        ]
    }
}

/// The point of segment `a b` at `near`.
pub fn point_at(a: DVec2, b: DVec2, near: Near) -> DVec2 {
    match near {
        Near::A => a,
        Near::B => b,
        Near::Inside { t, .. } => a + (b - a) * t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// The reflex corner of an L-shaped room: free space where x < 1 or y < 1.
    fn l_corner(widen: f64) -> Cone {
        Cone::of_corner(v(2., 1.), v(1., 1.), v(1., 2.), widen)
    }

    #[test]
    fn the_wedge_is_the_quadrant_between_the_prolonged_edges() {
        let c = l_corner(0.0);
        assert!((c.angle - FRAC_PI_2).abs() < 1e-12);
        assert!(c.contains(v(0., 0.)));
        assert!(
            c.contains(v(0., 1.)),
            "the prolongation itself is inside (closed wedge)"
        );
        assert!(c.contains(v(1., 0.)));
        assert!(!c.contains(v(0., 1.5)));
        assert!(!c.contains(v(1.5, 0.)));
        assert!(!c.contains(v(2., 2.)));
    }

    #[test]
    fn widening_opens_the_wedge_by_tau_symmetrically() {
        let tau = 10f64.to_radians();
        let c = l_corner(tau);
        assert!((c.angle - (FRAC_PI_2 + tau)).abs() < 1e-12);
        // Just beyond each original ray, within tau / 2.
        let a = (PI - 0.04f64).sin_cos();
        assert!(c.contains(v(1. + a.1, 1. + a.0)));
        assert!(!l_corner(0.0).contains(v(1. + a.1, 1. + a.0)));
        let b = (-FRAC_PI_2 + 0.04f64).sin_cos();
        assert!(c.contains(v(1. + b.1, 1. + b.0)));
        let out = (PI - 0.1f64).sin_cos();
        assert!(!c.contains(v(1. + out.1, 1. + out.0)));
    }

    #[test]
    fn nearest_point_is_the_projection_or_a_ray_crossing_or_an_endpoint() {
        let c = l_corner(0.0);
        // A wall below, spanning the wedge: the projection.
        assert_eq!(
            c.nearest_on_segment(v(-5., -1.), v(5., -1.)),
            Some(Near::Inside {
                t: 0.6,
                how: How::Projection
            })
        );
        // A wall to the lower right whose projection falls outside the wedge:
        // the crossing with the backward prolongation of the outgoing edge (q_r).
        match c.nearest_on_segment(v(0., -3.), v(3., 0.)) {
            Some(Near::Inside { t, how: How::Qr }) => assert!((t - 1. / 3.).abs() < 1e-12),
            other => panic!("{other:?}"),
        }
        // One leaving the wedge across the prolonged incoming edge: q_l.
        match c.nearest_on_segment(v(0.5, 0.5), v(0.9, 3.)) {
            Some(Near::Inside { t, how: How::Ql }) => assert!((t - 0.2).abs() < 1e-12),
            other => panic!("{other:?}"),
        }
        // A segment pointing away: its inside endpoint.
        assert_eq!(
            c.nearest_on_segment(v(0.5, 0.5), v(-3., -3.)),
            Some(Near::A)
        );
        // A segment entirely outside.
        assert_eq!(c.nearest_on_segment(v(2., 0.), v(3., -2.)), None);
        assert_eq!(c.nearest_on_segment(v(-1., 2.), v(-3., 3.)), None);
    }

    #[test]
    fn near_endpoint_points_snap() {
        let c = l_corner(0.0);
        // The crossing with the incoming prolongation is at the endpoint (0, 1).
        assert_eq!(c.nearest_on_segment(v(0., 1.), v(0., 3.)), Some(Near::A));
    }

    #[test]
    fn a_vertex_a_rounding_error_outside_the_ray_is_found_as_the_vertex() {
        let c = l_corner(0.0);
        // The prolonged incoming edge is y = 1 towards -x; a wall starting a
        // hair below... above it (outside), running along it.
        let a = v(0.0, 1.0 + 1e-15);
        assert!(!c.contains(a));
        assert!(c.nearly_contains(a));
        assert_eq!(c.nearest_on_segment(a, v(-1.0, 1.0 - 1e-14)), Some(Near::A));
    }

    #[test]
    fn box_pruning_is_conservative() {
        let c = l_corner(0.0);
        assert!(c.may_touch_box(v(-1., -1.), v(0., 0.)));
        assert!(!c.may_touch_box(v(2., -3.), v(3., -2.)));
        assert!(
            c.may_touch_box(v(0.5, 0.5), v(1.5, 1.5)),
            "box around the apex"
        );
    }
}
