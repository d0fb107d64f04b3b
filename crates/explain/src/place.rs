//! A node as a place in space (its polygon, or its point) and the closest
//! points between two places.

use glam::DVec3;
use navscope_core::navmesh::Node;

/// The outline of a node: its polygon, or its position alone.
pub fn outline(node: &Node) -> &[DVec3] {
    match &node.polygon {
        Some(p) if !p.is_empty() => p,
        _ => std::slice::from_ref(&node.position),
    }
}

/// Plan area (x, z) of a node's polygon; 0 for a point node.
pub fn plan_area(node: &Node) -> f64 {
    let p = outline(node);
    if p.len() < 3 {
        return 0.0;
    }
    let twice: f64 = (0..p.len())
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            a.x * b.z - b.x * a.z
        })
        .sum();
    twice.abs() / 2.0
}

/// The closest points of segments `a0a1` and `b0b1` (either may be a
/// point), clamped to both segments.
pub fn closest_on_segments(a0: DVec3, a1: DVec3, b0: DVec3, b1: DVec3) -> (DVec3, DVec3) {
    let (d1, d2, r) = (a1 - a0, b1 - b0, a0 - b0);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    const TINY: f64 = 1e-12;
    let (s, t) = if a <= TINY && e <= TINY {
        (0.0, 0.0)
    } else if a <= TINY {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= TINY {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > TINY {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (a0 + d1 * s, b0 + d2 * t)
}

/// The point of polygon `poly` straight above or below `p` (same x, z),
/// when `p` lies inside its plan; the height comes from the fan triangle
/// containing `p`.
pub(crate) fn over(poly: &[DVec3], p: DVec3) -> Option<DVec3> {
    if poly.len() < 3 {
        return None;
    }
    let cross =
        |a: DVec3, b: DVec3, c: DVec3| (b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x);
    (1..poly.len() - 1).find_map(|i| {
        let (a, b, c) = (poly[0], poly[i], poly[i + 1]);
        let area = cross(a, b, c);
        if area.abs() < 1e-12 {
            return None;
        }
        let (u, v, w) = (
            cross(b, c, p) / area,
            cross(c, a, p) / area,
            cross(a, b, p) / area,
        );
        (u >= 0.0 && v >= 0.0 && w >= 0.0)
            .then(|| DVec3::new(p.x, u * a.y + v * b.y + w * c.y, p.z))
    })
}

/// The closest pair of points across two places (outlines as from
/// [`outline`]): edge against edge, and each vertex against the surface
/// of the other polygon above or below it.
pub fn closest_points(a: &[DVec3], b: &[DVec3]) -> (DVec3, DVec3) {
    let edges = |p: &[DVec3]| -> Vec<(DVec3, DVec3)> {
        (0..p.len()).map(|i| (p[i], p[(i + 1) % p.len()])).collect()
    };
    let mut best = (
        a.first().copied().unwrap_or_default(),
        b.first().copied().unwrap_or_default(),
    );
    let mut best_d = f64::INFINITY;
    let mut consider = |pa: DVec3, pb: DVec3| {
        let d = pa.distance_squared(pb);
        if d < best_d {
            best_d = d;
            best = (pa, pb);
        }
    };
    let (ea, eb) = (edges(a), edges(b));
    for &(a0, a1) in &ea {
        for &(b0, b1) in &eb {
            let (pa, pb) = closest_on_segments(a0, a1, b0, b1);
            consider(pa, pb);
        }
    }
    for &v in a {
        if let Some(q) = over(b, v) {
            consider(v, q);
        }
    }
    for &v in b {
        if let Some(q) = over(a, v) {
            consider(q, v);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_square::square;

    #[test]
    fn side_by_side_squares_meet_across_the_gap() {
        let (p, q) = closest_points(&square(0.0, 0.0, 0.0, 1.0), &square(1.5, 0.0, 0.0, 1.0));
        assert!((p.distance(q) - 0.5).abs() < 1e-9);
        assert!((p.x - 1.0).abs() < 1e-9 && (q.x - 1.5).abs() < 1e-9);
    }

    #[test]
    fn a_small_ledge_over_a_floor_is_its_height_away() {
        let (p, q) = closest_points(&square(0.4, 0.7, 0.4, 0.2), &square(0.0, 0.0, 0.0, 2.0));
        assert!((p.distance(q) - 0.7).abs() < 1e-9);
    }

    #[test]
    fn points_and_degenerate_segments_are_places_too() {
        let a = [DVec3::new(0.0, 0.0, 0.0)];
        let b = [DVec3::new(3.0, 4.0, 0.0)];
        let (p, q) = closest_points(&a, &b);
        assert!((p.distance(q) - 5.0).abs() < 1e-12);
        let (p, q) = closest_on_segments(a[0], a[0], b[0], b[0]);
        assert_eq!((p, q), (a[0], b[0]));
    }

    #[test]
    fn a_triangle_has_half_the_area_of_its_square() {
        let mut n = Node {
            id: 0,
            position: DVec3::ZERO,
            polygon: Some(vec![
                DVec3::ZERO,
                DVec3::new(0.0, 0.0, 2.0),
                DVec3::new(2.0, 0.0, 0.0),
            ]),
            stance: Default::default(),
            layer: 0,
            area: navscope_core::navmesh::DEFAULT_AREA.into(),
            radius: None,
            detail: None,
        };
        assert!((plan_area(&n) - 2.0).abs() < 1e-12);
        n.polygon = None;
        assert_eq!(plan_area(&n), 0.0);
    }
}
