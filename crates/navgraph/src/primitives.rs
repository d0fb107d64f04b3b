//! Stage 1, inflated blocking primitives: boxes and cylinders grown by the
//! agent radius, so the agent can be treated as a point.
//!
//! The inflation is the exact Minkowski sum with a disk: a cylinder's
//! radius grows by `r`, a box becomes a rounded box (all points within `r`
//! of it). The article's figure grows boxes "by R on each side along each
//! dimension", a plain bigger box; that over-blocks the corners by up to
//! `(sqrt 2 - 1) r`, so navscope keeps the rounded corners. Tests against an
//! inflated primitive are distance tests against the original:
//! a point or segment hits it when it comes closer than `r`. Outlines (for
//! drawing and for the Voronoi check) are polygons whose arcs have
//! [`ARC_SEGMENTS`] segments per full turn, drawn through the arc's
//! vertices (inscribed).

use glam::DVec2;
use navscope_core::geom::{SegmentHit, point_segment_distance, segment_intersection};
use navscope_core::level::Blocker;

/// Segments per full turn of an arc in outlines.
pub const ARC_SEGMENTS: usize = 32;

/// Corners of a box, counter-clockwise.
pub fn box_corners(center: DVec2, half: DVec2, angle: f64) -> [DVec2; 4] {
    let (s, c) = angle.sin_cos();
    let rot = |x: f64, y: f64| center + DVec2::new(c * x - s * y, s * x + c * y);
    [
        rot(-half.x, -half.y),
        rot(half.x, -half.y),
        rot(half.x, half.y),
        rot(-half.x, half.y),
    ]
}

/// Distance between two closed segments (0 when they meet).
pub fn segment_distance(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    if segment_intersection(a, b, c, d) != SegmentHit::None {
        return 0.0;
    }
    point_segment_distance(c, d, a)
        .min(point_segment_distance(c, d, b))
        .min(point_segment_distance(a, b, c))
        .min(point_segment_distance(a, b, d))
}

/// Distance from the segment `ab` to the (uninflated) blocker; 0 when they
/// meet.
pub fn blocker_distance(blocker: &Blocker, a: DVec2, b: DVec2) -> f64 {
    match *blocker {
        Blocker::Cylinder { center, radius } => {
            (point_segment_distance(a, b, center) - radius).max(0.0)
        }
        Blocker::Box {
            center,
            half,
            angle,
        } => {
            let (s, c) = angle.sin_cos();
            let local = |p: DVec2| {
                let q = p - center;
                DVec2::new(c * q.x + s * q.y, -s * q.x + c * q.y)
            };
            let inside = |p: DVec2| {
                let l = local(p);
                l.x.abs() <= half.x && l.y.abs() <= half.y
            };
            if inside(a) || inside(b) {
                return 0.0;
            }
            let k = box_corners(center, half, angle);
            (0..4)
                .map(|i| segment_distance(a, b, k[i], k[(i + 1) % 4]))
                .fold(f64::INFINITY, f64::min)
        }
    }
}

/// Outline of the blocker grown by `grow` (a polygon, counter-clockwise).
pub fn outline(blocker: &Blocker, grow: f64) -> Vec<DVec2> {
    let arc = |centre: DVec2, r: f64, from: f64, steps: usize| -> Vec<DVec2> {
        (0..=steps)
            .map(|k| {
                centre
                    + r * DVec2::from_angle(
                        from + std::f64::consts::TAU * k as f64 / ARC_SEGMENTS as f64,
                    )
            })
            .collect()
    };
    match *blocker {
        Blocker::Cylinder { center, radius } => {
            let r = radius + grow;
            (0..ARC_SEGMENTS)
                .map(|k| {
                    center
                        + r * DVec2::from_angle(
                            std::f64::consts::TAU * k as f64 / ARC_SEGMENTS as f64,
                        )
                })
                .collect()
        }
        Blocker::Box {
            center,
            half,
            angle,
        } => {
            let k = box_corners(center, half, angle);
            if grow <= 0.0 {
                return k.to_vec();
            }
            let quarter = ARC_SEGMENTS / 4;
            let mut out = Vec::new();
            // Corner i turns from the normal of edge i-1 to the normal of edge i.
            for (i, corner) in k.iter().enumerate() {
                let start = angle + std::f64::consts::FRAC_PI_2 * (i as f64 + 2.0);
                out.extend(arc(*corner, grow, start, quarter));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_to_a_rotated_box() {
        let b = Blocker::Box {
            center: DVec2::ZERO,
            half: DVec2::new(2.0, 1.0),
            angle: std::f64::consts::FRAC_PI_2,
        };
        // Rotated a quarter turn: 1 wide in x, 2 tall in y.
        assert_eq!(
            blocker_distance(&b, DVec2::new(-5., 0.), DVec2::new(5., 0.)),
            0.0
        );
        assert!(
            (blocker_distance(&b, DVec2::new(-5., 3.), DVec2::new(5., 3.)) - 1.0).abs() < 1e-12
        );
        assert!(
            (blocker_distance(&b, DVec2::new(3., -5.), DVec2::new(3., 5.)) - 2.0).abs() < 1e-12
        );
        // A segment fully inside.
        assert_eq!(
            blocker_distance(&b, DVec2::new(0., 0.), DVec2::new(0.1, 0.1)),
            0.0
        );
        // Diagonal off a corner: the rounded inflation keeps the corner free.
        let d = blocker_distance(&b, DVec2::new(1.0, 3.0), DVec2::new(3.0, 1.0));
        assert!((d - 0.5f64.sqrt()).abs() < 1e-12, "{d}");
    }

    #[test]
    fn outlines_are_counter_clockwise_and_at_the_right_distance() {
        for b in [
            Blocker::Cylinder {
                center: DVec2::new(3., 4.),
                radius: 1.0,
            },
            Blocker::Box {
                center: DVec2::new(-1., 2.),
                half: DVec2::new(1.5, 0.5),
                angle: 0.4,
            },
        ] {
            let o = outline(&b, 0.5);
            let area: f64 = (0..o.len())
                .map(|i| o[i].perp_dot(o[(i + 1) % o.len()]))
                .sum();
            assert!(area > 0.0);
            for p in &o {
                let d = blocker_distance(&b, *p, *p);
                assert!((d - 0.5).abs() < 1e-9, "{d}");
            }
        }
    }
}
