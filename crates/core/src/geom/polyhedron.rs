//! Convex polyhedra from bounding planes, written by hand.
//!
//! A brush is the intersection of the half-spaces behind its planes. Its
//! faces are found by starting, on every plane, from a square far larger
//! than any allowed level and clipping it by every other plane
//! (Sutherland–Hodgman with a tolerance). A plane whose square clips away
//! to nothing is redundant and gives no face. The result lists each face as
//! a convex polygon wound counter-clockwise seen from outside (from the side
//! its normal points to), which for an up-facing face is counter-clockwise
//! seen from above, the NavMesh winding.
//!
//! Clipping rather than intersecting plane triples keeps the cost at
//! O(planes² · face size) and never produces the near-duplicate vertices
//! that triple intersections give where more than three planes meet.

use super::{Aabb, Plane};
use glam::DVec3;
use serde::Serialize;
use thiserror::Error;

/// Largest coordinate (metres) a brush vertex may have: ±100 km. Beyond
/// it f64 clipping loses the tolerance the union relies on.
pub const MAX_COORD: f64 = 1.0e5;
/// Most planes one brush may have (hostile files cannot make the O(n²)
/// face construction run away); far above what editors write, so that
/// real many-sided brushes and their expansions fit.
pub const MAX_PLANES: usize = 1024;
/// Distance (metres) within which a point counts as lying on a plane when
/// clipping faces of different brushes against each other (the union).
pub const EPS: f64 = 1.0e-6;
/// The same tolerance inside one polyhedron's construction: much tighter,
/// because where two planes meet at a small angle a tolerance `t` moves
/// their common edge by `t / angle`.
pub const POLY_EPS: f64 = 1.0e-9;
/// Half size of the starting square on every plane: far beyond
/// [`MAX_COORD`], so a vertex this far out means the brush is open.
const FAR: f64 = 1.0e6;

/// What is wrong with a brush's planes.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum PolyError {
    /// The brush has more planes than [`MAX_PLANES`].
    #[error("has {0} planes (at most {MAX_PLANES} are accepted)")]
    TooManyPlanes(usize),
    /// A plane's normal is zero or not a finite number.
    #[error("plane {0} has a zero or non-finite normal")]
    BadNormal(usize),
    /// A plane's distance is not finite or puts it beyond [`MAX_COORD`].
    #[error("plane {0} lies beyond the largest allowed coordinate ({MAX_COORD} m)")]
    PlaneTooFar(usize),
    /// Two planes are the same plane: their faces lie on each other within
    /// [`POLY_EPS`] (planes at a small angle that clip each other are fine).
    #[error("planes {0} and {1} are the same plane")]
    DuplicatePlane(usize, usize),
    /// The planes enclose no volume (they contradict each other or meet in
    /// a flat slab).
    #[error("encloses no volume (its planes leave {0} faces)")]
    ZeroVolume(usize),
    /// The planes do not close the brush.
    #[error("is not closed: its planes leave it open towards infinity")]
    Unbounded,
    /// A vertex lies beyond [`MAX_COORD`].
    #[error("has a vertex beyond the largest allowed coordinate ({MAX_COORD} m)")]
    CoordinateTooLarge,
}

/// One face of a polyhedron.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Face {
    /// Its plane, normal pointing out of the solid.
    pub plane: Plane,
    /// Index of the plane in the list the polyhedron was built from.
    pub source: usize,
    /// Vertices, counter-clockwise seen from outside.
    pub vertices: Vec<DVec3>,
}

/// A closed convex polyhedron.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Polyhedron {
    /// Faces of non-zero area (redundant planes give none).
    pub faces: Vec<Face>,
    /// Bounding box of the vertices.
    pub bounds: Aabb,
}

impl Polyhedron {
    /// Builds the polyhedron bounded by `planes` (outward normals; they are
    /// normalised here). Errors name the offending plane.
    pub fn from_planes(planes: &[Plane]) -> Result<Self, PolyError> {
        if planes.len() > MAX_PLANES {
            return Err(PolyError::TooManyPlanes(planes.len()));
        }
        let mut unit = Vec::with_capacity(planes.len());
        for (i, p) in planes.iter().enumerate() {
            let len = p.normal.length();
            if !len.is_finite() || len < 1e-12 {
                return Err(PolyError::BadNormal(i));
            }
            let q = Plane {
                normal: p.normal / len,
                d: p.d / len,
            };
            if !q.d.is_finite() || q.d.abs() > MAX_COORD * 3f64.sqrt() {
                return Err(PolyError::PlaneTooFar(i));
            }
            unit.push(q);
        }
        let far = clip_faces(&unit, |p| square(p, p.normal * p.d, FAR));
        if far.len() < 4 {
            return Err(PolyError::ZeroVolume(far.len()));
        }
        let bounds = Aabb::from_points(far.iter().flat_map(|f| f.vertices.iter().copied()));
        let extent = bounds.min.abs().max(bounds.max.abs()).max_element();
        if extent > FAR * 0.5 {
            return Err(PolyError::Unbounded);
        }
        if extent > MAX_COORD {
            return Err(PolyError::CoordinateTooLarge);
        }
        // Second pass from squares just covering the brush: clipping the
        // far square rounds every vertex by about FAR · 1e-16 = 1e-10 m,
        // which moves the edge of two faces meeting at a small angle `a`
        // by 1e-10 / a (30 µm at a = 4 µrad, as an expanded brush's bevels
        // can); squares the brush's size round a million times less.
        let centre = (bounds.min + bounds.max) * 0.5;
        let size = (bounds.max - bounds.min).length() + 1.0;
        let faces = clip_faces(&unit, |p| {
            square(p, centre - p.normal * p.distance(centre), size)
        });
        if faces.len() < 4 {
            return Err(PolyError::ZeroVolume(faces.len()));
        }
        if let Some((a, b)) = coinciding_faces(&faces) {
            return Err(PolyError::DuplicatePlane(a, b));
        }
        let bounds = Aabb::from_points(faces.iter().flat_map(|f| f.vertices.iter().copied()));
        let poly = Polyhedron { faces, bounds };
        if poly.volume() < EPS * EPS {
            return Err(PolyError::ZeroVolume(poly.faces.len()));
        }
        Ok(poly)
    }

    /// Every vertex of every face (shared vertices repeat).
    pub fn vertices(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.faces.iter().flat_map(|f| f.vertices.iter().copied())
    }

    /// Distinct vertices (within [`EPS`]), in first-seen order.
    pub fn distinct_vertices(&self) -> Vec<DVec3> {
        let mut out: Vec<DVec3> = Vec::new();
        for v in self.vertices() {
            if !out.iter().any(|w| w.distance(v) < EPS * 10.0) {
                out.push(v);
            }
        }
        out
    }

    /// Volume, by the divergence theorem over the faces.
    pub fn volume(&self) -> f64 {
        self.faces
            .iter()
            .map(|f| f.plane.d * polygon_area(&f.vertices))
            .sum::<f64>()
            / 3.0
    }

    /// The largest value of `n · v` over the vertices: the support function.
    pub fn support(&self, n: DVec3) -> f64 {
        self.vertices()
            .map(|v| n.dot(v))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// True when `p` is inside by more than `margin` from every face.
    pub fn contains_strictly(&self, p: DVec3, margin: f64) -> bool {
        self.faces.iter().all(|f| f.plane.distance(p) < -margin)
    }

    /// True when `p` is inside or within `tolerance` outside.
    pub fn contains(&self, p: DVec3, tolerance: f64) -> bool {
        self.faces.iter().all(|f| f.plane.distance(p) <= tolerance)
    }
}

/// Two unit vectors `u`, `v` spanning the plane with `u × v = n`.
pub fn plane_basis(n: DVec3) -> (DVec3, DVec3) {
    let helper = if n.x.abs() < 0.6 {
        DVec3::X
    } else if n.y.abs() < 0.6 {
        DVec3::Y
    } else {
        DVec3::Z
    };
    let u = helper.cross(n).normalize();
    let v = n.cross(u);
    (u, v)
}

/// The square with centre `c` (on `p`) and half size `half` in `p`, wound
/// counter-clockwise seen from the side `p`'s normal points to.
fn square(p: &Plane, c: DVec3, half: f64) -> Vec<DVec3> {
    let (u, v) = plane_basis(p.normal);
    vec![
        c + (-u - v) * half,
        c + (u - v) * half,
        c + (u + v) * half,
        c + (-u + v) * half,
    ]
}

/// The first pair of faces (as plane indices, lower first) that lie within
/// [`POLY_EPS`] of each other's plane and face the same way: one plane
/// given twice, or two planes so nearly the same that neither clips the
/// other anywhere on the brush. Planes meeting at a small angle are
/// otherwise fine: clipping separates them into a face and a sliver (or
/// nothing).
fn coinciding_faces(faces: &[Face]) -> Option<(usize, usize)> {
    let on = |f: &Face, p: &Plane| f.vertices.iter().all(|&v| p.distance(v).abs() <= POLY_EPS);
    for (k, b) in faces.iter().enumerate() {
        for a in &faces[..k] {
            if a.plane.normal.dot(b.plane.normal) > 0.0 && on(a, &b.plane) && on(b, &a.plane) {
                return Some((a.source, b.source));
            }
        }
    }
    None
}

/// Each plane's face: the square `start` gives on it clipped by every
/// other plane; planes left with no area give none.
fn clip_faces(unit: &[Plane], start: impl Fn(&Plane) -> Vec<DVec3>) -> Vec<Face> {
    let mut faces = Vec::new();
    for (i, p) in unit.iter().enumerate() {
        let mut poly = start(p);
        for (j, q) in unit.iter().enumerate() {
            if i != j {
                poly = split(&poly, q, POLY_EPS).1;
                if poly.len() < 3 {
                    break;
                }
            }
        }
        let poly = dedup_ring(poly, POLY_EPS);
        if poly.len() >= 3 && polygon_area(&poly) > EPS * EPS {
            faces.push(Face {
                plane: *p,
                source: i,
                vertices: poly,
            });
        }
    }
    faces
}

/// Splits a convex polygon by a plane into its part in front (distance >
/// 0) and its part behind; points within `eps` of the plane go to both.
/// Either part may come back with fewer than three vertices (empty).
pub fn split(poly: &[DVec3], plane: &Plane, eps: f64) -> (Vec<DVec3>, Vec<DVec3>) {
    let dist: Vec<f64> = poly.iter().map(|&p| plane.distance(p)).collect();
    if dist.iter().all(|&d| d <= eps) {
        return (Vec::new(), poly.to_vec());
    }
    if dist.iter().all(|&d| d >= -eps) {
        return (poly.to_vec(), Vec::new());
    }
    let mut front = Vec::with_capacity(poly.len() + 1);
    let mut back = Vec::with_capacity(poly.len() + 1);
    for i in 0..poly.len() {
        let j = (i + 1) % poly.len();
        let (a, b, da, db) = (poly[i], poly[j], dist[i], dist[j]);
        if da >= -eps {
            front.push(a);
        }
        if da <= eps {
            back.push(a);
        }
        if (da > eps && db < -eps) || (da < -eps && db > eps) {
            let t = da / (da - db);
            let x = a + (b - a) * t;
            front.push(x);
            back.push(x);
        }
    }
    (dedup_ring(front, eps), dedup_ring(back, eps))
}

/// Removes consecutive vertices closer than `eps` (cyclically).
pub fn dedup_ring(mut poly: Vec<DVec3>, eps: f64) -> Vec<DVec3> {
    poly.dedup_by(|a, b| a.distance(*b) < eps);
    while poly.len() > 1 && poly[0].distance(poly[poly.len() - 1]) < eps {
        poly.pop();
    }
    poly
}

/// Area of a planar polygon (any orientation in space).
pub fn polygon_area(poly: &[DVec3]) -> f64 {
    polygon_normal_sum(poly).length() * 0.5
}

/// Twice the area vector of a planar polygon: its length is twice the area
/// and it points to the side from which the polygon winds
/// counter-clockwise.
pub fn polygon_normal_sum(poly: &[DVec3]) -> DVec3 {
    if poly.len() < 3 {
        return DVec3::ZERO;
    }
    let o = poly[0];
    (1..poly.len() - 1)
        .map(|i| (poly[i] - o).cross(poly[i + 1] - o))
        .sum()
}

/// Area-weighted centroid of a planar polygon.
pub fn polygon_centroid(poly: &[DVec3]) -> DVec3 {
    let o = poly[0];
    let mut total = 0.0;
    let mut acc = DVec3::ZERO;
    for i in 1..poly.len().saturating_sub(1) {
        let w = (poly[i] - o).cross(poly[i + 1] - o).length();
        acc += (o + poly[i] + poly[i + 1]) / 3.0 * w;
        total += w;
    }
    if total > 0.0 {
        acc / total
    } else {
        poly.iter().copied().sum::<DVec3>() / poly.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube_planes(min: DVec3, max: DVec3) -> Vec<Plane> {
        Aabb { min, max }.outward_planes().to_vec()
    }

    #[test]
    fn cube_has_six_square_faces_wound_outwards() {
        let p =
            Polyhedron::from_planes(&cube_planes(DVec3::ZERO, DVec3::new(1.0, 2.0, 3.0))).unwrap();
        assert_eq!(p.faces.len(), 6);
        assert!((p.volume() - 6.0).abs() < 1e-9);
        assert_eq!(p.distinct_vertices().len(), 8);
        for f in &p.faces {
            assert_eq!(f.vertices.len(), 4);
            let n = polygon_normal_sum(&f.vertices).normalize();
            assert!(
                n.dot(f.plane.normal) > 0.999,
                "face {} winds inwards",
                f.source
            );
        }
    }

    #[test]
    fn redundant_planes_give_no_face() {
        let mut planes = cube_planes(DVec3::ZERO, DVec3::ONE);
        planes.push(Plane {
            normal: DVec3::X,
            d: 5.0,
        });
        planes.push(Plane {
            normal: DVec3::new(1.0, 1.0, 0.0).normalize(),
            d: 10.0,
        });
        let p = Polyhedron::from_planes(&planes).unwrap();
        assert_eq!(p.faces.len(), 6);
        // A plane touching the cube only along an edge (or at a corner) is a
        // zero-area face: dropped.
        let mut touching = cube_planes(DVec3::ZERO, DVec3::ONE);
        touching.push(Plane {
            normal: DVec3::new(1.0, 1.0, 0.0).normalize(),
            d: 2f64.sqrt(),
        });
        touching.push(Plane {
            normal: DVec3::ONE.normalize(),
            d: 3f64.sqrt(),
        });
        let p = Polyhedron::from_planes(&touching).unwrap();
        assert_eq!(p.faces.len(), 6);
        assert!((p.volume() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn degenerate_brushes_are_named() {
        let mut dup = cube_planes(DVec3::ZERO, DVec3::ONE);
        dup.push(dup[2]);
        assert_eq!(
            Polyhedron::from_planes(&dup),
            Err(PolyError::DuplicatePlane(2, 6))
        );
        let flat = cube_planes(DVec3::ZERO, DVec3::new(1.0, 0.0, 1.0));
        assert!(matches!(
            Polyhedron::from_planes(&flat),
            Err(PolyError::ZeroVolume(_))
        ));
        let mut contradictory = cube_planes(DVec3::ZERO, DVec3::ONE);
        contradictory[0].d = -1.0;
        assert!(matches!(
            Polyhedron::from_planes(&contradictory),
            Err(PolyError::ZeroVolume(_))
        ));
        let open = &cube_planes(DVec3::ZERO, DVec3::ONE)[..5];
        assert_eq!(Polyhedron::from_planes(open), Err(PolyError::Unbounded));
        let huge = cube_planes(
            DVec3::splat(9.0e4),
            DVec3::splat(9.0e4) + DVec3::new(2.0e4, 1.0, 1.0),
        );
        assert_eq!(
            Polyhedron::from_planes(&huge),
            Err(PolyError::CoordinateTooLarge)
        );
        let far = cube_planes(DVec3::splat(1.0e7), DVec3::splat(1.0e7 + 1.0));
        assert!(matches!(
            Polyhedron::from_planes(&far),
            Err(PolyError::PlaneTooFar(_))
        ));
        let mut bad = cube_planes(DVec3::ZERO, DVec3::ONE);
        bad[3].normal = DVec3::new(f64::NAN, 0.0, 0.0);
        assert_eq!(Polyhedron::from_planes(&bad), Err(PolyError::BadNormal(3)));
        assert_eq!(
            Polyhedron::from_planes(&vec![bad[0]; MAX_PLANES + 1]),
            Err(PolyError::TooManyPlanes(MAX_PLANES + 1))
        );
        assert!(matches!(
            Polyhedron::from_planes(&[]),
            Err(PolyError::ZeroVolume(0))
        ));
    }

    #[test]
    fn planes_at_a_tiny_angle_are_not_duplicates_and_meet_precisely() {
        // A unit cube whose top is cut from x = 0.5 on by a plane tilted
        // 1 µrad: a legitimate face, not a duplicate of the top, and the
        // two meet at x = 0.5 to far better than 1e-10 m / 1e-6 = 0.1 mm
        // (the rounding of clipping a 1e6 m square).
        let a: f64 = 1.0e-6;
        let mut planes = cube_planes(DVec3::ZERO, DVec3::ONE);
        let n = DVec3::new(a.sin(), a.cos(), 0.0);
        planes.push(Plane {
            normal: n,
            d: n.dot(DVec3::new(0.5, 1.0, 0.0)),
        });
        let p = Polyhedron::from_planes(&planes).unwrap();
        assert_eq!(p.faces.len(), 7);
        let top = p.faces.iter().find(|f| f.source == 2).unwrap();
        assert_eq!(top.plane.normal, DVec3::Y);
        let ridge = top.vertices.iter().map(|v| v.x).fold(0.0, f64::max);
        assert!((ridge - 0.5).abs() < 1e-8, "top ends at x = {ridge}");
        let low = p.vertices().map(|v| v.y).filter(|&y| y > 0.5);
        assert!(low.fold(1.0, f64::min) < 1.0 - 0.4 * a);
    }

    #[test]
    fn split_keeps_on_plane_points_on_both_sides() {
        let sq = vec![
            DVec3::new(0., 0., 0.),
            DVec3::new(2., 0., 0.),
            DVec3::new(2., 0., -2.),
            DVec3::new(0., 0., -2.),
        ];
        let (f, b) = split(
            &sq,
            &Plane {
                normal: DVec3::X,
                d: 1.0,
            },
            EPS,
        );
        assert!((polygon_area(&f) - 2.0).abs() < 1e-12 && (polygon_area(&b) - 2.0).abs() < 1e-12);
        let (f, b) = split(
            &sq,
            &Plane {
                normal: DVec3::X,
                d: 2.0,
            },
            EPS,
        );
        assert!(f.is_empty() && b.len() == 4);
    }
}
