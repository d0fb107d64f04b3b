//! World-space solids: AABBs, planes and triangle meshes.

use glam::{DVec3, Vec3};
use serde::{Deserialize, Serialize};

/// Axis-aligned box in world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// Smallest corner.
    pub min: DVec3,
    /// Largest corner.
    pub max: DVec3,
}

impl Aabb {
    /// The empty box: growing it by a point gives that point.
    pub const EMPTY: Aabb = Aabb {
        min: DVec3::splat(f64::INFINITY),
        max: DVec3::splat(f64::NEG_INFINITY),
    };

    /// Box from two corners in any order.
    pub fn from_corners(a: DVec3, b: DVec3) -> Self {
        Self {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// Smallest box holding all points (EMPTY for none).
    pub fn from_points(points: impl IntoIterator<Item = DVec3>) -> Self {
        points.into_iter().fold(Self::EMPTY, |b, p| b.grow(p))
    }

    /// The box grown to hold `p`.
    pub fn grow(self, p: DVec3) -> Self {
        Self {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// Union of two boxes.
    pub fn union(self, o: Aabb) -> Self {
        Self {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    /// True when the box holds no point.
    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x || self.min.y > self.max.y || self.min.z > self.max.z
    }

    /// Centre point.
    pub fn center(&self) -> DVec3 {
        (self.min + self.max) * 0.5
    }

    /// Edge lengths.
    pub fn size(&self) -> DVec3 {
        self.max - self.min
    }

    /// True when `p` is inside or on the box.
    pub fn contains(&self, p: DVec3) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// The six bounding planes with outward normals (+X, -X, +Y, -Y, +Z,
    /// -Z), the form brushes take.
    pub fn outward_planes(&self) -> [Plane; 6] {
        let (lo, hi) = (self.min, self.max);
        [
            Plane {
                normal: DVec3::X,
                d: hi.x,
            },
            Plane {
                normal: -DVec3::X,
                d: -lo.x,
            },
            Plane {
                normal: DVec3::Y,
                d: hi.y,
            },
            Plane {
                normal: -DVec3::Y,
                d: -lo.y,
            },
            Plane {
                normal: DVec3::Z,
                d: hi.z,
            },
            Plane {
                normal: -DVec3::Z,
                d: -lo.z,
            },
        ]
    }

    /// True when the boxes share at least one point.
    pub fn intersects(&self, o: &Aabb) -> bool {
        self.min.cmple(o.max).all() && o.min.cmple(self.max).all()
    }
}

/// The plane `normal . x = d` with a unit normal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plane {
    /// Unit normal.
    pub normal: DVec3,
    /// Signed distance of the plane from the origin along `normal`.
    pub d: f64,
}

impl Plane {
    /// Plane from a (not necessarily unit) normal and a point on it; `None`
    /// when the normal is zero.
    pub fn from_normal_point(normal: DVec3, p: DVec3) -> Option<Self> {
        let n = normal.try_normalize()?;
        Some(Self {
            normal: n,
            d: n.dot(p),
        })
    }

    /// Plane through three points, normal by the right-hand rule on
    /// `(b - a) x (c - a)`; `None` for collinear points.
    pub fn from_points(a: DVec3, b: DVec3, c: DVec3) -> Option<Self> {
        Self::from_normal_point((b - a).cross(c - a), a)
    }

    /// Signed distance of `p` (positive on the normal's side).
    pub fn distance(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.d
    }

    /// The same plane facing the other way.
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            d: -self.d,
        }
    }
}

/// An indexed triangle mesh in world space (f32, as Recast-style grids need
/// no more).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TriMesh {
    /// Vertex positions.
    pub vertices: Vec<Vec3>,
    /// Triangles as vertex indices.
    pub triangles: Vec<[u32; 3]>,
}

impl TriMesh {
    /// Bounds of the vertices.
    pub fn bounds(&self) -> Aabb {
        Aabb::from_points(self.vertices.iter().map(|v| v.as_dvec3()))
    }

    /// Corners of triangle `i`.
    pub fn triangle(&self, i: usize) -> [Vec3; 3] {
        let t = self.triangles[i];
        [
            self.vertices[t[0] as usize],
            self.vertices[t[1] as usize],
            self.vertices[t[2] as usize],
        ]
    }

    /// Unit normal of triangle `i` (zero for a degenerate triangle).
    pub fn normal(&self, i: usize) -> Vec3 {
        let [a, b, c] = self.triangle(i);
        (b - a).cross(c - a).normalize_or_zero()
    }

    /// Index of the first triangle that refers to a missing vertex, if any.
    pub fn first_bad_index(&self) -> Option<usize> {
        let n = self.vertices.len() as u32;
        self.triangles
            .iter()
            .position(|t| t.iter().any(|&i| i >= n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aabb_grow_and_query() {
        assert!(Aabb::EMPTY.is_empty());
        let b = Aabb::from_points([DVec3::ZERO, DVec3::new(1., 2., 3.)]);
        assert!(!b.is_empty());
        assert!(b.contains(DVec3::new(1., 1., 1.)));
        assert!(!b.contains(DVec3::new(1.1, 1., 1.)));
        let far = Aabb::from_corners(DVec3::splat(5.), DVec3::splat(6.));
        assert!(!b.intersects(&far));
        assert!(b.intersects(&b.union(far)));
        assert_eq!(b.center(), DVec3::new(0.5, 1., 1.5));
        let planes = b.outward_planes();
        assert!(
            planes.iter().all(|p| p.distance(b.center()) < 0.0),
            "centre behind every plane"
        );
        assert!(
            planes
                .iter()
                .all(|p| p.distance(DVec3::new(1., 2., 3.)) <= 0.0)
        );
        assert_eq!(
            planes
                .iter()
                .filter(|p| p.distance(DVec3::new(1., 2., 3.)) == 0.0)
                .count(),
            3,
            "a corner is on three planes"
        );
    }

    #[test]
    fn plane_from_points_and_distance() {
        let p = Plane::from_points(DVec3::ZERO, DVec3::Z, DVec3::X).unwrap();
        assert!((p.normal - DVec3::Y).length() < 1e-12);
        assert_eq!(p.distance(DVec3::new(3., 2., 1.)), 2.0);
        assert_eq!(p.flipped().distance(DVec3::new(3., 2., 1.)), -2.0);
        assert!(Plane::from_points(DVec3::ZERO, DVec3::X, DVec3::X * 2.0).is_none());
    }

    #[test]
    fn mesh_index_check_and_normals() {
        let mut m = TriMesh {
            vertices: vec![Vec3::ZERO, Vec3::Z, Vec3::X],
            triangles: vec![[0, 1, 2]],
        };
        assert_eq!(m.first_bad_index(), None);
        assert!((m.normal(0) - Vec3::Y).length() < 1e-6);
        m.triangles.push([0, 1, 7]);
        assert_eq!(m.first_bad_index(), Some(1));
    }
}
