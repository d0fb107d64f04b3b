//! Stage 2, *union* (Golodetz §3.1, Listing 1): the boundary of the union
//! of the expanded brushes of one agent size, as a soup of convex polygons.
//!
//! Every face of every expanded brush is clipped against the BSP tree of
//! every other brush whose bounding box touches its own brush's box
//! (Listing 1's `in_range`, answered brush by brush by [`InRange`], never
//! stored as a list of pairs), in index order, until nothing is left of it;
//! the pieces outside all of them are the union's boundary. Coplanar faces are
//! kept once, by the brush that comes first in index order.

use glam::DVec3;
use navscope_core::geom::Plane;
use serde::Serialize;

use crate::bsp::BspTree;
use crate::expand::ExpandedBrush;
use crate::near::InRange;
use crate::polyhedron::{EPS, polygon_area};

/// A piece of an expanded brush face.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fragment {
    /// Index of the expanded brush (in its agent size's list).
    pub brush: usize,
    /// Index of the face in that brush's solid.
    pub face: usize,
    /// The face's plane.
    pub plane: Plane,
    /// Convex polygon, counter-clockwise seen from outside.
    pub polygon: Vec<DVec3>,
    /// For a removed piece, the brush whose tree removed it.
    pub clipped_by: Option<usize>,
}

/// The union of one agent size's expanded brushes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct UnionMesh {
    /// The boundary: face pieces outside every other brush.
    pub kept: Vec<Fragment>,
    /// Face pieces removed because they lie inside another brush.
    pub clipped: Vec<Fragment>,
    /// Number of interacting (in range) ordered brush pairs.
    pub pairs: usize,
}

/// Listing 1, `union_all`: clips every face against the trees of the
/// brushes in range of its own.
pub fn union_all(brushes: &[ExpandedBrush]) -> UnionMesh {
    let trees: Vec<BspTree> = brushes.iter().map(|b| BspTree::build(&b.solid)).collect();
    let near = InRange::new(brushes);
    let mut mesh = UnionMesh::default();
    for (i, b) in brushes.iter().enumerate() {
        let mut others = near.of(i);
        mesh.pairs += others.len();
        for (fi, face) in b.solid.faces.iter().enumerate() {
            let mut pieces = vec![face.vertices.clone()];
            let mut k = 0;
            while let Some(j) = others.get(k) {
                k += 1;
                let mut next = Vec::with_capacity(pieces.len());
                for piece in &pieces {
                    let (outside, inside) = trees[j].clip(piece, face.plane.normal, i < j);
                    next.extend(outside);
                    if inside.len() >= 3 && polygon_area(&inside) > EPS * EPS {
                        mesh.clipped.push(Fragment {
                            brush: i,
                            face: fi,
                            plane: face.plane,
                            polygon: inside,
                            clipped_by: Some(j),
                        });
                    }
                }
                pieces = next;
                if pieces.is_empty() {
                    break;
                }
            }
            for polygon in pieces {
                if polygon.len() >= 3 && polygon_area(&polygon) > EPS * EPS {
                    mesh.kept.push(Fragment {
                        brush: i,
                        face: fi,
                        plane: face.plane,
                        polygon,
                        clipped_by: None,
                    });
                }
            }
        }
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::box_brush;
    use crate::expand::expand;
    use crate::polyhedron::Polyhedron;

    fn expanded(boxes: &[(DVec3, DVec3)]) -> Vec<ExpandedBrush> {
        boxes
            .iter()
            .enumerate()
            .map(|(i, (a, b))| {
                expand(
                    i,
                    &Polyhedron::from_planes(&box_brush(*a, *b).planes).unwrap(),
                    DVec3::ZERO,
                    true,
                )
                .unwrap()
            })
            .collect()
    }

    fn area(frags: &[Fragment]) -> f64 {
        frags.iter().map(|f| polygon_area(&f.polygon)).sum()
    }

    #[test]
    fn two_overlapping_cubes_have_the_union_surface() {
        let b = expanded(&[
            (DVec3::ZERO, DVec3::ONE),
            (DVec3::new(0.5, 0.0, 0.0), DVec3::new(1.5, 1.0, 1.0)),
        ]);
        let m = union_all(&b);
        // 1.5 x 1 x 1 box: surface 2 * (1.5 + 1.5 + 1).
        assert!((area(&m.kept) - 8.0).abs() < 1e-9, "{}", area(&m.kept));
        assert_eq!(m.pairs, 2);
    }

    #[test]
    fn touching_cubes_lose_the_shared_face_and_coplanar_tops_are_kept_once() {
        let b = expanded(&[
            (DVec3::ZERO, DVec3::ONE),
            (DVec3::new(1.0, 0.0, 0.0), DVec3::new(2.0, 1.0, 1.0)),
        ]);
        let m = union_all(&b);
        assert!((area(&m.kept) - 10.0).abs() < 1e-9, "{}", area(&m.kept));
        let b = expanded(&[(DVec3::ZERO, DVec3::ONE), (DVec3::ZERO, DVec3::ONE)]);
        let m = union_all(&b);
        assert!((area(&m.kept) - 6.0).abs() < 1e-9);
        assert!(m.kept.iter().all(|f| f.brush == 0));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Every kept face lies on the union's boundary: just outside it is
        /// outside every expanded brush, just inside it is inside one.
        #[test]
        fn kept_faces_are_on_the_union_boundary(
            boxes in proptest::collection::vec((-2.0f64..2.0, -1.0f64..1.0, -2.0f64..2.0, 0.2f64..1.5, 0.2f64..1.5, 0.2f64..1.5, -1.0f64..1.0, -0.5f64..0.5), 2..6),
            half in (0.05f64..0.5, 0.1f64..1.0, 0.05f64..0.5),
        ) {
            let half = DVec3::new(half.0, half.1, half.2);
            let list: Vec<ExpandedBrush> = boxes
                .iter()
                .enumerate()
                .map(|(i, &(x, y, z, sx, sy, sz, yaw, pitch))| {
                    let b = crate::build::rotated_box(DVec3::new(x, y, z), DVec3::new(sx, sy, sz), yaw, pitch);
                    expand(i, &Polyhedron::from_planes(&b.planes).unwrap(), half, true).unwrap()
                })
                .collect();
            let m = union_all(&list);
            for f in &m.kept {
                if polygon_area(&f.polygon) < 1e-3 {
                    continue;
                }
                let c = crate::polyhedron::polygon_centroid(&f.polygon);
                let n = f.plane.normal;
                proptest::prop_assert!(list.iter().all(|b| !b.solid.contains_strictly(c + n * 1e-4, 0.0)), "outside point of a face of brush {} is inside", f.brush);
                proptest::prop_assert!(list.iter().any(|b| b.solid.contains_strictly(c - n * 1e-4, 0.0)), "inside point of a face of brush {} is outside", f.brush);
            }
            // Clipped pieces are inside another brush (or on a face shared with a lower index).
            for f in &m.clipped {
                let c = crate::polyhedron::polygon_centroid(&f.polygon);
                let other = &list[f.clipped_by.unwrap()];
                proptest::prop_assert!(other.solid.contains(c, 1e-6));
            }
        }
    }

    #[test]
    fn distant_brushes_do_not_interact() {
        let b = expanded(&[
            (DVec3::ZERO, DVec3::ONE),
            (DVec3::splat(5.0), DVec3::splat(6.0)),
        ]);
        let m = union_all(&b);
        assert_eq!(m.pairs, 0);
        assert!(m.clipped.is_empty());
    }
}
