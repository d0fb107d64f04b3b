//! BSP trees of convex brushes and polygon clipping against them
//! (Golodetz §3.1, the `build_tree` and `clip_polygons` of Listing 1).
//!
//! The BSP tree of one convex brush is a chain: node `k` splits space by
//! the brush's face plane `k`; its front child is an empty (outside) leaf
//! and its back child is node `k + 1`; the back child of the last node is
//! the solid leaf. Clipping a polygon pushes it down the chain: whatever
//! lands in a front leaf is outside the brush and kept, whatever reaches
//! the solid leaf is inside and removed.
//!
//! Coplanar polygons follow Listing 1's flag: a polygon lying on a node's
//! plane and facing the same way goes to the front (kept) when
//! `coplanar_front` is set, which the union sets when the polygon's brush
//! comes first in index order, and to the back otherwise; a coplanar
//! polygon facing the other way (two brushes touching face to face) always
//! goes to the back, since the surface between them is interior.

use glam::DVec3;
use navscope_core::geom::{Aabb, Plane};

use crate::polyhedron::{EPS, Polyhedron, split};

/// The BSP tree of a convex brush, stored as its chain of planes.
#[derive(Clone, Debug, PartialEq)]
pub struct BspTree {
    /// Node planes from the root down (outward normals).
    pub planes: Vec<Plane>,
    /// Bounding box of the brush, grown by the tolerance, for quick rejects.
    pub bounds: Aabb,
}

impl BspTree {
    /// The tree of a convex polyhedron (Listing 1's `build_tree`).
    pub fn build(solid: &Polyhedron) -> Self {
        let grow = DVec3::splat(EPS * 10.0);
        Self {
            planes: solid.faces.iter().map(|f| f.plane).collect(),
            bounds: Aabb {
                min: solid.bounds.min - grow,
                max: solid.bounds.max + grow,
            },
        }
    }

    /// Splits the convex polygon `poly` (with plane normal `normal`) into
    /// its pieces outside the brush and the piece inside (empty when none).
    pub fn clip(
        &self,
        poly: &[DVec3],
        normal: DVec3,
        coplanar_front: bool,
    ) -> (Vec<Vec<DVec3>>, Vec<DVec3>) {
        let bb = Aabb::from_points(poly.iter().copied());
        if !bb.intersects(&self.bounds) {
            return (vec![poly.to_vec()], Vec::new());
        }
        // A polygon wholly in front of one plane is outside: keep it whole
        // rather than cut it along planes that do not touch the brush.
        for p in &self.planes {
            if poly.iter().all(|&v| p.distance(v) >= -EPS)
                && poly.iter().any(|&v| p.distance(v) > EPS)
            {
                return (vec![poly.to_vec()], Vec::new());
            }
        }
        let mut outside = Vec::new();
        let mut rest = poly.to_vec();
        for p in &self.planes {
            if poly_on_plane(&rest, p) {
                if p.normal.dot(normal) > 0.0 && coplanar_front {
                    outside.push(rest);
                    return (outside, Vec::new());
                }
                continue;
            }
            let (front, back) = split(&rest, p, EPS);
            if front.len() >= 3 {
                outside.push(front);
            }
            if back.len() < 3 {
                return (outside, Vec::new());
            }
            rest = back;
        }
        (outside, rest)
    }
}

fn poly_on_plane(poly: &[DVec3], p: &Plane) -> bool {
    poly.iter().all(|&v| p.distance(v).abs() <= EPS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::box_brush;
    use crate::polyhedron::polygon_area;

    fn unit_tree() -> BspTree {
        BspTree::build(
            &Polyhedron::from_planes(&box_brush(DVec3::ZERO, DVec3::ONE).planes).unwrap(),
        )
    }

    fn square(y: f64, min: f64, max: f64) -> Vec<DVec3> {
        vec![
            DVec3::new(min, y, max),
            DVec3::new(max, y, max),
            DVec3::new(max, y, min),
            DVec3::new(min, y, min),
        ]
    }

    #[test]
    fn crossing_polygon_is_split_into_outside_and_inside() {
        let (out, inside) = unit_tree().clip(&square(0.5, -1.0, 2.0), DVec3::Y, false);
        let out_area: f64 = out.iter().map(|p| polygon_area(p)).sum();
        assert!((out_area - 8.0).abs() < 1e-9);
        assert!((polygon_area(&inside) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn coplanar_faces_follow_the_flag_and_facing() {
        let t = unit_tree();
        let top = square(1.0, 0.0, 1.0);
        assert_eq!(t.clip(&top, DVec3::Y, true).0.len(), 1);
        let (out, inside) = t.clip(&top, DVec3::Y, false);
        assert!(out.is_empty() && inside.len() == 4);
        let mut under = top.clone();
        under.reverse();
        let (out, inside) = t.clip(&under, -DVec3::Y, true);
        assert!(
            out.is_empty() && inside.len() == 4,
            "faces touching face to face are interior"
        );
    }

    #[test]
    fn distant_polygon_is_kept_whole() {
        let (out, inside) = unit_tree().clip(&square(5.0, -10.0, 10.0), DVec3::Y, false);
        assert_eq!(out.len(), 1);
        assert!(inside.is_empty());
    }
}
