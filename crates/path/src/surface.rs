//! Small pieces of 3D geometry on node polygons: heights seen from above,
//! closest points and portal interpolation.

use glam::DVec3;
use navscope_core::geom::{Polygon, world_to_plan};

use crate::detail::Detail;
use crate::num::positive;

/// The plan ring of a node polygon.
pub(crate) fn plan_ring(polygon: &[DVec3]) -> Polygon {
    Polygon::new(polygon.iter().map(|p| world_to_plan(*p)).collect())
}

/// Newell normal of a (planar) 3D polygon; zero for a degenerate one.
fn newell_normal(polygon: &[DVec3]) -> DVec3 {
    let n = polygon.len();
    let mut normal = DVec3::ZERO;
    for i in 0..n {
        let a = polygon[i];
        let b = polygon[(i + 1) % n];
        normal.x += (a.y - b.y) * (a.z + b.z);
        normal.y += (a.z - b.z) * (a.x + b.x);
        normal.z += (a.x - b.x) * (a.y + b.y);
    }
    normal
}

/// Height of the polygon's plane above the world point `(x, _, z)`.
///
/// Polygons are planar but may slope (ramps, stairs smoothed into a plane).
/// The plane through the vertex mean with the Newell normal is used; a
/// polygon seen edge-on from above (normal nearly horizontal) has no height
/// as a function of `(x, z)`, so the mean vertex height is returned.
pub(crate) fn height_at(polygon: &[DVec3], x: f64, z: f64) -> f64 {
    if polygon.is_empty() {
        return 0.0;
    }
    let mean = polygon.iter().copied().sum::<DVec3>() / polygon.len() as f64;
    let n = newell_normal(polygon);
    let len = n.length();
    if !positive(len) || n.y.abs() < 1e-9 * len {
        return mean.y;
    }
    mean.y - (n.x * (x - mean.x) + n.z * (z - mean.z)) / n.y
}

/// Closest point to `p` on the 3D segment `ab`.
pub(crate) fn closest_on_segment(a: DVec3, b: DVec3, p: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if !positive(len2) {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Where `p` lands on a node polygon, and how far it is from it.
///
/// When `p` lies inside the polygon seen from above (boundary included) it
/// is dropped vertically onto the polygon's plane and the distance is the
/// height difference; otherwise the closest point of the polygon's boundary
/// is taken, with the 3D distance to it.
pub(crate) fn snap_to_polygon(polygon: &[DVec3], ring: &Polygon, p: DVec3) -> (DVec3, f64, bool) {
    if ring.contains(world_to_plan(p), true) {
        return snap_inside(polygon, None, p);
    }
    let (q, d) = snap_to_boundary(polygon, p);
    (q, d, false)
}

/// The closest point of the polygon's boundary to `p` and the 3D distance
/// to it.
fn snap_to_boundary(polygon: &[DVec3], p: DVec3) -> (DVec3, f64) {
    let n = polygon.len();
    let mut best = (polygon[0], f64::INFINITY);
    for i in 0..n {
        let q = closest_on_segment(polygon[i], polygon[(i + 1) % n], p);
        let d = q.distance(p);
        if d < best.1 {
            best = (q, d);
        }
    }
    best
}

/// [`snap_to_polygon`] onto the node's surface: with `detail` the snapped
/// point (dropped inside, the closest boundary point outside) takes the
/// detail height at its `(x, z)`, and the distance is measured to that
/// point; without, the polygon's plane as in [`snap_to_polygon`].
pub(crate) fn snap_to_surface(
    polygon: &[DVec3],
    ring: &Polygon,
    detail: Option<&Detail>,
    p: DVec3,
) -> (DVec3, f64, bool) {
    match detail {
        None => snap_to_polygon(polygon, ring, p),
        Some(_) if ring.contains(world_to_plan(p), true) => snap_inside(polygon, detail, p),
        Some(detail) => {
            // Outside: the closest boundary point, lifted onto the detail.
            let (q, _) = snap_to_boundary(polygon, p);
            let q = DVec3::new(q.x, detail.height(world_to_plan(q)), q.z);
            (q, q.distance(p), false)
        }
    }
}

/// [`snap_to_surface`] of a point `p` the caller knows to lie inside the
/// polygon seen from above (the locator tests that first): dropped onto
/// the detail surface, or without detail onto the polygon's plane (whose
/// height a node with detail never needs).
pub(crate) fn snap_inside(
    polygon: &[DVec3],
    detail: Option<&Detail>,
    p: DVec3,
) -> (DVec3, f64, bool) {
    match detail {
        Some(detail) => {
            let q = DVec3::new(p.x, detail.height(world_to_plan(p)), p.z);
            (q, q.distance(p), true)
        }
        None => {
            let h = height_at(polygon, p.x, p.z);
            (DVec3::new(p.x, h, p.z), (p.y - h).abs(), true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp() -> Vec<DVec3> {
        // Rises 1 m over 2 m along +x, CCW seen from above.
        vec![
            DVec3::new(0., 0., 1.),
            DVec3::new(2., 1., 1.),
            DVec3::new(2., 1., 0.),
            DVec3::new(0., 0., 0.),
        ]
    }

    #[test]
    fn heights_interpolate_on_a_sloped_polygon() {
        let r = ramp();
        assert!((height_at(&r, 1.0, 0.5) - 0.5).abs() < 1e-12);
        assert!((height_at(&r, 0.5, 0.2) - 0.25).abs() < 1e-12);
        // Winding does not matter for the height.
        let mut rev = r.clone();
        rev.reverse();
        assert!((height_at(&rev, 1.5, 0.5) - 0.75).abs() < 1e-12);
    }

    #[test]
    fn vertical_polygon_falls_back_to_mean_height() {
        let wall = vec![
            DVec3::new(0., 0., 0.),
            DVec3::new(1., 0., 0.),
            DVec3::new(1., 2., 0.),
            DVec3::new(0., 2., 0.),
        ];
        assert_eq!(height_at(&wall, 0.5, 0.0), 1.0);
    }

    #[test]
    fn snapping_inside_drops_vertically_and_outside_goes_to_the_boundary() {
        let r = ramp();
        let ring = plan_ring(&r);
        let (q, d, inside) = snap_to_polygon(&r, &ring, DVec3::new(1.0, 2.0, 0.5));
        assert!(inside);
        assert!((q - DVec3::new(1.0, 0.5, 0.5)).length() < 1e-12);
        assert!((d - 1.5).abs() < 1e-12);
        let (q, d, inside) = snap_to_polygon(&r, &ring, DVec3::new(1.0, 0.5, 3.0));
        assert!(!inside);
        assert!((q - DVec3::new(1.0, 0.5, 1.0)).length() < 1e-12);
        assert!((d - 2.0).abs() < 1e-12);
    }

    #[test]
    fn snapping_onto_detail_takes_its_height_inside_and_on_the_boundary() {
        let r = ramp();
        let ring = plan_ring(&r);
        // A flat detail surface at 3 m over the ramp's plan.
        let flat = Detail::new(&[
            [r[0].with_y(3.), r[1].with_y(3.), r[2].with_y(3.)],
            [r[0].with_y(3.), r[2].with_y(3.), r[3].with_y(3.)],
        ])
        .unwrap();
        let (q, d, inside) = snap_to_surface(&r, &ring, Some(&flat), DVec3::new(1.0, 2.0, 0.5));
        assert!(inside);
        assert_eq!((q, d), (DVec3::new(1.0, 3.0, 0.5), 1.0));
        // Outside: the closest boundary point, lifted onto the detail.
        let (q, d, inside) = snap_to_surface(&r, &ring, Some(&flat), DVec3::new(1.0, 0.5, 3.0));
        assert!(!inside);
        assert_eq!(q, DVec3::new(1.0, 3.0, 1.0));
        assert!((d - 10.25f64.sqrt()).abs() < 1e-12);
        let p = DVec3::new(1.0, 2.0, 0.5);
        assert_eq!(
            snap_to_surface(&r, &ring, None, p),
            snap_to_polygon(&r, &ring, p)
        );
    }

    #[test]
    fn closest_point_on_degenerate_segment_is_its_point() {
        let a = DVec3::new(1., 2., 3.);
        assert_eq!(closest_on_segment(a, a, DVec3::ZERO), a);
    }
}
