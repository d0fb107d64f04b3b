//! Display geometry: filling polygons with triangles and hitting triangles
//! with a picking ray.
//!
//! This is drawing support, not navigation: a filled polygon on screen needs
//! triangles, and a click needs the point of the level under the cursor.
//! Convex rings are fanned; other polygons (and any with holes) go through
//! spade's constrained Delaunay triangulation of their rings, keeping the
//! triangles whose centroid lies inside by the even-odd rule, so
//! self-touching input still gives a sensible picture instead of a panic.

use bevy::math::{Vec2, Vec3};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

/// The axis-aligned plane a planar 3D polygon is projected on: the one
/// facing its (Newell) normal the most. Returns the two kept axes.
fn projection_axes(ring: &[Vec3]) -> (usize, usize) {
    let mut n = Vec3::ZERO;
    for (i, a) in ring.iter().enumerate() {
        let b = ring[(i + 1) % ring.len()];
        n += Vec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        );
    }
    let n = n.abs();
    if n.y >= n.x && n.y >= n.z {
        (0, 2)
    } else if n.x >= n.z {
        (1, 2)
    } else {
        (0, 1)
    }
}

fn project(p: Vec3, axes: (usize, usize)) -> Vec2 {
    Vec2::new(p[axes.0], p[axes.1])
}

fn is_convex(ring: &[Vec2]) -> bool {
    let n = ring.len();
    let mut sign = 0.0f32;
    for i in 0..n {
        let (a, b, c) = (ring[i], ring[(i + 1) % n], ring[(i + 2) % n]);
        let cross = (b - a).perp_dot(c - b);
        if cross.abs() <= f32::EPSILON * (b - a).length() * (c - b).length() {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    true
}

/// Even-odd point-in-rings test.
fn inside(p: Vec2, rings: &[Vec<Vec2>]) -> bool {
    let mut odd = false;
    for ring in rings {
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                odd = !odd;
            }
        }
    }
    odd
}

/// Triangles covering a planar polygon with holes (any winding). Rings with
/// fewer than three points or non-finite coordinates are ignored.
pub fn triangulate(outer: &[Vec3], holes: &[Vec<Vec3>]) -> Vec<[Vec3; 3]> {
    if outer.len() < 3
        || outer
            .iter()
            .chain(holes.iter().flatten())
            .any(|p| !p.is_finite())
    {
        return Vec::new();
    }
    let axes = projection_axes(outer);
    let flat: Vec<Vec2> = outer.iter().map(|p| project(*p, axes)).collect();
    let holes: Vec<&Vec<Vec3>> = holes.iter().filter(|h| h.len() >= 3).collect();
    if holes.is_empty() && is_convex(&flat) {
        return (1..outer.len() - 1)
            .map(|i| [outer[0], outer[i], outer[i + 1]])
            .collect();
    }
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let mut points: Vec<Vec3> = Vec::new();
    let mut rings2d: Vec<Vec<Vec2>> = Vec::new();
    for ring in std::iter::once(outer).chain(holes.iter().map(|h| h.as_slice())) {
        let mut handles = Vec::with_capacity(ring.len());
        for p in ring {
            let q = project(*p, axes);
            match cdt.insert(Point2::new(q.x as f64, q.y as f64)) {
                Ok(h) => {
                    if h.index() >= points.len() {
                        points.resize(h.index() + 1, *p);
                    }
                    handles.push(h);
                }
                Err(_) => return Vec::new(),
            }
        }
        for i in 0..handles.len() {
            let (a, b) = (handles[i], handles[(i + 1) % handles.len()]);
            if a != b {
                let _ = cdt.try_add_constraint(a, b);
            }
        }
        rings2d.push(ring.iter().map(|p| project(*p, axes)).collect());
    }
    cdt.inner_faces()
        .filter_map(|f| {
            let v = f.vertices();
            let c = v.iter().fold(Vec2::ZERO, |s, v| {
                s + Vec2::new(v.position().x as f32, v.position().y as f32)
            }) / 3.0;
            inside(c, &rings2d).then(|| {
                [
                    points[v[0].fix().index()],
                    points[v[1].fix().index()],
                    points[v[2].fix().index()],
                ]
            })
        })
        .collect()
}

/// Distance along the ray to triangle `t`, if hit from either side
/// ([`navscope_core::geom::ray_triangle`] in the view's single precision).
pub fn ray_triangle(origin: Vec3, dir: Vec3, t: &[Vec3; 3]) -> Option<f32> {
    navscope_core::geom::ray_triangle(origin.as_dvec3(), dir.as_dvec3(), t.map(|v| v.as_dvec3()))
        .map(|d| d as f32)
}

/// Where the ray meets the horizontal plane at height `y`.
pub fn ray_plane_y(origin: Vec3, dir: Vec3, y: f32) -> Option<Vec3> {
    if dir.y.abs() < 1e-9 {
        return None;
    }
    let t = (y - origin.y) / dir.y;
    (t >= 0.0).then(|| origin + dir * t)
}

/// Distance from `p` to the segment `a-b`, measured in the ground plane.
pub fn plan_distance_to_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let (p, a, b) = (p.xz(), a.xz(), b.xz());
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// True when `p` lies inside the polygon seen from above (even-odd rule).
pub fn plan_inside(p: Vec3, outer: &[Vec3], holes: &[Vec<Vec3>]) -> bool {
    let rings: Vec<Vec<Vec2>> = std::iter::once(outer)
        .chain(holes.iter().map(|h| h.as_slice()))
        .map(|r| r.iter().map(|q| q.xz()).collect())
        .collect();
    inside(p.xz(), &rings)
}

trait Xz {
    fn xz(self) -> Vec2;
}

impl Xz for Vec3 {
    fn xz(self) -> Vec2 {
        Vec2::new(self.x, self.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(tris: &[[Vec3; 3]]) -> f32 {
        tris.iter()
            .map(|t| (t[1] - t[0]).cross(t[2] - t[0]).length() / 2.0)
            .sum()
    }

    fn square(x0: f32, z0: f32, s: f32) -> Vec<Vec3> {
        vec![
            Vec3::new(x0, 0.0, z0),
            Vec3::new(x0 + s, 0.0, z0),
            Vec3::new(x0 + s, 0.0, z0 + s),
            Vec3::new(x0, 0.0, z0 + s),
        ]
    }

    #[test]
    fn square_with_hole_covers_exactly_the_free_area() {
        let tris = triangulate(&square(0.0, 0.0, 10.0), &[square(4.0, 4.0, 2.0)]);
        assert!((area(&tris) - 96.0).abs() < 1e-3, "{}", area(&tris));
    }

    #[test]
    fn concave_polygon_is_filled_inside_only() {
        // An L shape of area 3.
        let l = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
        ]
        .map(|(x, z)| Vec3::new(x, 0.0, z));
        let tris = triangulate(&l, &[]);
        assert!((area(&tris) - 3.0).abs() < 1e-4);
    }

    #[test]
    fn a_wall_keeps_its_area_and_a_degenerate_polygon_gets_none() {
        let wall = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
        ];
        assert!((area(&triangulate(&wall, &[])) - 2.0).abs() < 1e-5);
        let line = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
        assert!(area(&triangulate(&line, &[])) < 1e-6);
        assert!(triangulate(&[Vec3::ZERO, Vec3::X], &[]).is_empty());
        assert!(triangulate(&[Vec3::ZERO, Vec3::X, Vec3::NAN], &[]).is_empty());
    }

    #[test]
    fn a_ray_hits_a_triangle_inside_it_and_a_plane_it_points_at() {
        let t = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        assert!(
            (ray_triangle(Vec3::new(0.2, 5.0, 0.2), Vec3::NEG_Y, &t).unwrap() - 5.0).abs() < 1e-5
        );
        assert!(ray_triangle(Vec3::new(0.9, 5.0, 0.9), Vec3::NEG_Y, &t).is_none());
        assert_eq!(
            ray_plane_y(Vec3::new(1.0, 2.0, 3.0), Vec3::NEG_Y, 0.0),
            Some(Vec3::new(1.0, 0.0, 3.0))
        );
        assert!(ray_plane_y(Vec3::Y, Vec3::Y, 0.0).is_none());
        assert!(
            (plan_distance_to_segment(Vec3::new(0.5, 9.0, 1.0), Vec3::ZERO, Vec3::X) - 1.0).abs()
                < 1e-6
        );
        assert!(plan_inside(
            Vec3::new(5.0, 0.0, 5.0),
            &square(0.0, 0.0, 10.0),
            &[]
        ));
        assert!(!plan_inside(
            Vec3::new(5.0, 0.0, 5.0),
            &square(0.0, 0.0, 10.0),
            &[square(4.0, 4.0, 2.0)]
        ));
    }
}
