//! Rays against triangles, for picking and for sight lines through a level.

use glam::DVec3;

/// Distance along the ray from `origin` in direction `dir` (any length; the
/// distance is in units of `dir`) to triangle `t`, hit from either side;
/// `None` when the ray misses it, runs parallel to its plane or meets it
/// behind the origin (Möller and Trumbore, "Fast, minimum storage
/// ray/triangle intersection", 1997).
pub fn ray_triangle(origin: DVec3, dir: DVec3, t: [DVec3; 3]) -> Option<f64> {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let p = dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - t[0];
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let d = e2.dot(q) * inv;
    (d >= 0.0).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FLAT: [DVec3; 3] = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.0, 0.0, 1.0),
    ];

    #[test]
    fn a_ray_down_onto_a_triangle_hits_it_from_above_and_below() {
        let down = ray_triangle(DVec3::new(0.2, 5.0, 0.2), -DVec3::Y, FLAT);
        assert!((down.unwrap() - 5.0).abs() < 1e-12);
        let up = ray_triangle(DVec3::new(0.2, -2.0, 0.2), DVec3::Y, FLAT);
        assert!((up.unwrap() - 2.0).abs() < 1e-12);
    }

    #[test]
    fn a_ray_beside_behind_or_parallel_misses() {
        assert!(ray_triangle(DVec3::new(0.9, 5.0, 0.9), -DVec3::Y, FLAT).is_none());
        assert!(ray_triangle(DVec3::new(0.2, 5.0, 0.2), DVec3::Y, FLAT).is_none());
        assert!(ray_triangle(DVec3::new(-1.0, 0.0, 0.2), DVec3::X, FLAT).is_none());
        let degenerate = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        assert!(ray_triangle(DVec3::new(0.5, 1.0, 0.0), -DVec3::Y, degenerate).is_none());
    }

    proptest! {
        /// The hit point lies on the triangle's plane, inside it, and the
        /// ray through a point of the triangle finds it at its distance.
        #[test]
        fn a_ray_through_a_point_of_the_triangle_hits_it_there(
            pts in prop::array::uniform3(prop::array::uniform3(-10.0f64..10.0)),
            (a, b) in (0.01f64..0.98, 0.01f64..0.98),
            from in prop::array::uniform3(-20.0f64..20.0),
        ) {
            let t = pts.map(DVec3::from_array);
            let n = (t[1] - t[0]).cross(t[2] - t[0]);
            prop_assume!(n.length() > 1e-3);
            let (a, b) = if a + b <= 1.0 { (a, b) } else { (1.0 - a, 1.0 - b) };
            prop_assume!(a + b < 0.98);
            let target = t[0] + (t[1] - t[0]) * a + (t[2] - t[0]) * b;
            let origin = DVec3::from_array(from);
            let dir = target - origin;
            prop_assume!(dir.length() > 1e-3 && (dir.normalize().dot(n.normalize())).abs() > 1e-2);
            let d = ray_triangle(origin, dir, t);
            prop_assert!(d.is_some());
            let hit = origin + dir * d.unwrap();
            prop_assert!((hit - target).length() < 1e-6 * (1.0 + dir.length()));
        }
    }
}
