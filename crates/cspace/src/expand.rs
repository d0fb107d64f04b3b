//! Stage 1, *expand* (Golodetz §2, van Waveren's configuration space): every
//! solid brush grown into the obstacle the centre of an agent's AABB must
//! avoid, i.e. the Minkowski sum of the brush and the box.
//!
//! The Minkowski sum of two convex polytopes is bounded by planes whose
//! normals are face normals of either operand or cross products of an edge
//! of one with an edge of the other. For a box the second operand's faces
//! and edges are the three axes, so the candidate normals are: the brush's
//! own face normals, the six axial directions, and `±(e × a)` for every
//! brush edge `e` and axis `a`. Each candidate normal `n` gets the offset
//! `support_brush(n) + support_box(n)`, which makes it a supporting plane of
//! the sum; intersecting all of them gives exactly the sum (candidates that
//! only touch it at an edge or a vertex leave no face). The surviving planes
//! that are not moved brush faces are the *bevel* planes of Figure 3(c).
//!
//! Candidates are merged only when they are the same plane *where the sum
//! lies*: within [`POLY_EPS`] of each other over the sum's bounding box.
//! An angle tolerance on the normals alone is wrong: for a brush rotated a
//! little about two axes, a bevel normal such as `rY × Z` can differ from
//! an axis by a few micro-radians yet bound a distinct sliver face, and
//! dropping it moves sum vertices by far more than that angle (0.5 mm for
//! a 4 µrad difference, where the neighbouring faces also meet at small
//! angles).

use glam::DVec3;
use navscope_core::geom::Plane;
use serde::Serialize;

use crate::polyhedron::{EPS, POLY_EPS, PolyError, Polyhedron};

/// Where an expanded face's plane came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaceOrigin {
    /// A face of the brush, moved out by the box's support distance.
    Brush,
    /// A bevel: an axial plane (a face of the box).
    AxialBevel,
    /// A bevel: the cross product of a brush edge and a box edge.
    EdgeBevel,
}

impl FaceOrigin {
    /// True for the two bevel kinds.
    pub fn is_bevel(self) -> bool {
        self != FaceOrigin::Brush
    }
}

/// The configuration-space obstacle of one brush for one agent size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExpandedBrush {
    /// Index of the solid brush (in the level's brush list).
    pub brush: usize,
    /// The expanded solid.
    pub solid: Polyhedron,
    /// Origin of each face of `solid`, in the same order.
    pub origins: Vec<FaceOrigin>,
}

impl ExpandedBrush {
    /// Number of bevel faces.
    pub fn bevel_count(&self) -> usize {
        self.origins.iter().filter(|o| o.is_bevel()).count()
    }
}

/// Support distance of an axis-aligned box with half extents `half`,
/// centred on the origin, in direction `n`: how far its farthest corner
/// lies along `n`.
pub fn box_support(half: DVec3, n: DVec3) -> f64 {
    n.x.abs() * half.x + n.y.abs() * half.y + n.z.abs() * half.z
}

/// Expands `brush` by a box with half extents `half` centred on the agent's
/// reference point. With `bevels` false only the brush's own planes are
/// moved, which is wrong wherever a brush edge or vertex is not axial: kept
/// so the viewer (and a test) can show why bevels are needed.
pub fn expand(
    brush_index: usize,
    brush: &Polyhedron,
    half: DVec3,
    bevels: bool,
) -> Result<ExpandedBrush, PolyError> {
    let mut candidates: Vec<(Plane, FaceOrigin)> = Vec::new();
    // The sum's bounding box, as centre and half extents.
    let centre = (brush.bounds.min + brush.bounds.max) * 0.5;
    let reach = (brush.bounds.max - brush.bounds.min) * 0.5 + half;
    let push = |n: DVec3, origin: FaceOrigin, candidates: &mut Vec<(Plane, FaceOrigin)>| {
        let Some(n) = n.try_normalize() else { return };
        let plane = Plane {
            normal: n,
            d: brush.support(n) + box_support(half, n),
        };
        if candidates
            .iter()
            .any(|(p, _)| same_plane_within(p, &plane, centre, reach))
        {
            return;
        }
        candidates.push((plane, origin));
    };
    for f in &brush.faces {
        push(f.plane.normal, FaceOrigin::Brush, &mut candidates);
    }
    if bevels {
        for a in [DVec3::X, DVec3::Y, DVec3::Z] {
            push(a, FaceOrigin::AxialBevel, &mut candidates);
            push(-a, FaceOrigin::AxialBevel, &mut candidates);
        }
        for (e, faces) in edge_directions(brush) {
            for a in [DVec3::X, DVec3::Y, DVec3::Z] {
                let c = e.cross(a);
                if c.length() > 1e-9 {
                    for m in [c, -c] {
                        if faces.is_none_or(|(n1, n2)| on_arc(m, n1, n2)) {
                            push(m, FaceOrigin::EdgeBevel, &mut candidates);
                        }
                    }
                }
            }
        }
    }
    // Two candidates can still give one face (they meet at so small an
    // angle that neither clips the other where the sum lies): the
    // construction names them, and the later one is dropped.
    let solid = loop {
        let planes: Vec<Plane> = candidates.iter().map(|(p, _)| *p).collect();
        match Polyhedron::from_planes(&planes) {
            Err(PolyError::DuplicatePlane(_, later)) => {
                candidates.remove(later);
            }
            built => break built?,
        }
    };
    let origins = solid.faces.iter().map(|f| candidates[f.source].1).collect();
    Ok(ExpandedBrush {
        brush: brush_index,
        solid,
        origins,
    })
}

/// True when the direction `m` lies on the shorter great arc between the
/// unit normals `n1` and `n2` (within a small tolerance): only then is the
/// plane with normal `m` through the edge of faces `n1`, `n2` a face of the
/// Minkowski sum (the edge's Gaussian arc meets the box edge's). A box
/// edge along an axis covers every normal perpendicular to that axis, so
/// this is the whole test; without it every edge adds six candidates, and
/// a many-sided brush gives hundreds of planes that bound nothing.
fn on_arc(m: DVec3, n1: DVec3, n2: DVec3) -> bool {
    let Some(m) = m.try_normalize() else {
        return false;
    };
    const TOL: f64 = 1e-9;
    m.dot(n1 + n2) > -TOL && n1.cross(m).dot(m.cross(n2)) >= -TOL
}

/// The direction of every brush edge (with repeats) with the normals of
/// the two faces meeting there, as the cross product of those normals. Differences of the
/// clipped vertices would carry their rounding (about 1e-10 m, from the
/// far square the faces are clipped out of) into the direction, making
/// bevels that should coincide with an axial plane or a brush face differ
/// from it by more than [`POLY_EPS`] across the brush.
fn edge_directions(brush: &Polyhedron) -> Vec<(DVec3, Option<(DVec3, DVec3)>)> {
    let mut out = Vec::new();
    for (fi, f) in brush.faces.iter().enumerate() {
        let n = f.vertices.len();
        for i in 0..n {
            let (a, b) = (f.vertices[i], f.vertices[(i + 1) % n]);
            let Some(along) = (b - a).try_normalize() else {
                continue;
            };
            let neighbour = brush.faces.iter().enumerate().find(|(gi, g)| {
                *gi != fi && g.plane.distance(a).abs() < EPS && g.plane.distance(b).abs() < EPS
            });
            let exact = neighbour.and_then(|(_, g)| {
                f.plane
                    .normal
                    .cross(g.plane.normal)
                    .try_normalize()
                    .map(|d| (d, (f.plane.normal, g.plane.normal)))
            });
            out.push(match exact {
                Some((d, normals)) => (d, Some(normals)),
                None => (along, None),
            });
        }
    }
    out
}

/// True when `a` and `b` face the same way and lie within [`POLY_EPS`] of
/// each other everywhere in the box with centre `centre` and half extents
/// `reach`: there they are one plane to the polyhedron construction, which
/// would otherwise keep both as duplicate faces.
fn same_plane_within(a: &Plane, b: &Plane, centre: DVec3, reach: DVec3) -> bool {
    let dn = a.normal - b.normal;
    // The largest |(a − b)·p − (d_a − d_b)| over the box's corners.
    let gap = (dn.dot(centre) - (a.d - b.d)).abs() + box_support(reach, dn);
    a.normal.dot(b.normal) > 0.0 && gap <= POLY_EPS
}

/// The corners of the Minkowski sum's brute-force construction: every brush
/// vertex plus every box corner. The sum is their convex hull.
pub fn minkowski_points(brush: &Polyhedron, half: DVec3) -> Vec<DVec3> {
    let corners: Vec<DVec3> = (0..8)
        .map(|i| {
            DVec3::new(
                if i & 1 == 0 { -half.x } else { half.x },
                if i & 2 == 0 { -half.y } else { half.y },
                if i & 4 == 0 { -half.z } else { half.z },
            )
        })
        .collect();
    brush
        .distinct_vertices()
        .into_iter()
        .flat_map(|v| corners.iter().map(move |c| v + *c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build;
    use proptest::prelude::*;

    fn tilted_brush(yaw: f64, pitch: f64) -> Polyhedron {
        let b = build::rotated_box(
            DVec3::new(1.0, 0.5, 2.0),
            DVec3::new(0.5, 0.4, 0.3),
            yaw,
            pitch,
        );
        Polyhedron::from_planes(&b.planes).unwrap()
    }

    /// Every expanded vertex is a brute-force point (so the solid is no
    /// larger than the sum) and every brute-force point is inside (so it is
    /// no smaller).
    fn matches_minkowski(e: &ExpandedBrush, points: &[DVec3], tol: f64) -> bool {
        let vertices_ok = e
            .solid
            .distinct_vertices()
            .iter()
            .all(|v| points.iter().any(|p| p.distance(*v) < tol));
        let points_ok = points.iter().all(|p| e.solid.contains(*p, tol));
        vertices_ok && points_ok
    }

    #[test]
    fn axis_aligned_box_needs_no_bevels() {
        let b = build::box_brush(DVec3::ZERO, DVec3::new(2.0, 1.0, 3.0));
        let p = Polyhedron::from_planes(&b.planes).unwrap();
        let e = expand(0, &p, DVec3::new(0.3, 0.9, 0.3), true).unwrap();
        assert_eq!(e.solid.faces.len(), 6);
        assert_eq!(e.bevel_count(), 0);
        assert!((e.solid.bounds.min - DVec3::new(-0.3, -0.9, -0.3)).length() < 1e-9);
        assert!((e.solid.bounds.max - DVec3::new(2.3, 1.9, 3.3)).length() < 1e-9);
    }

    #[test]
    fn expanded_vertices_match_brute_force_and_fail_without_bevels() {
        let half = DVec3::new(0.3, 0.9, 0.3);
        let p = tilted_brush(0.6, 0.4);
        let pts = minkowski_points(&p, half);
        let with = expand(0, &p, half, true).unwrap();
        assert!(with.bevel_count() > 0);
        assert!(matches_minkowski(&with, &pts, 1e-6));
        assert!(!matches_minkowski(
            &expand(0, &p, half, false).unwrap(),
            &pts,
            1e-4
        ));
        let without = expand(0, &p, half, false).unwrap();
        assert_eq!(without.bevel_count(), 0);
        assert!(
            !matches_minkowski(&without, &pts, 1e-6),
            "without bevels the expanded brush must overshoot the sum"
        );
    }

    /// The shrunk proptest case: a small box turned by 5 mrad of yaw and
    /// 0.86 mrad of pitch. Its bevels `rY × Z` and `rZ × X` lie 4.3 µrad
    /// from the `+X` axial plane and the brush's `rY` face; merging them by
    /// angle left a vertex 0.5 mm outside the sum.
    #[test]
    fn nearly_axis_aligned_box_keeps_its_sliver_bevels() {
        let b = build::rotated_box(
            DVec3::new(1.0, -2.0, 0.5),
            DVec3::splat(0.05),
            0.00502337173545581,
            0.0008565278164228556,
        );
        let p = Polyhedron::from_planes(&b.planes).unwrap();
        let half = DVec3::splat(0.05);
        let e = expand(0, &p, half, true).unwrap();
        let pts = minkowski_points(&p, half);
        for v in e.solid.distinct_vertices() {
            let miss = pts
                .iter()
                .map(|q| q.distance(v))
                .fold(f64::INFINITY, f64::min);
            assert!(miss < 1e-6, "vertex {v} is {miss} from every sum corner");
        }
        assert!(pts.iter().all(|q| e.solid.contains(*q, 1e-9)));
        // 11 distinct face planes of the zonotope (the three box edges and
        // three brush edges, two triples coplanar), each on both sides.
        assert_eq!(e.solid.faces.len(), 22);
        assert!(
            e.solid
                .faces
                .iter()
                .any(|f| f.plane.normal.dot(DVec3::X) > 1.0 - 1e-10 && f.plane.normal != DVec3::X),
            "the sliver bevel next to +X is kept"
        );
    }

    proptest! {
        #[test]
        fn expanded_brush_is_the_minkowski_sum(yaw in -3.2f64..3.2, pitch in -1.5f64..1.5,
                                               hx in 0.05f64..1.0, hy in 0.05f64..1.5, hz in 0.05f64..1.0,
                                               sx in 0.05f64..3.0, sy in 0.05f64..3.0, sz in 0.05f64..3.0,
                                               samples in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0, 0usize..8), 20)) {
            let b = build::rotated_box(DVec3::new(1.0, -2.0, 0.5), DVec3::new(sx, sy, sz), yaw, pitch);
            let p = Polyhedron::from_planes(&b.planes).unwrap();
            let half = DVec3::new(hx, hy, hz);
            let e = expand(0, &p, half, true).unwrap();
            let pts = minkowski_points(&p, half);
            // Nothing more than tolerance beyond the sum: each vertex is a brute-force corner.
            // (0.1 mm: where planes meet at a tiny angle, rounding moves their edge.)
            for v in e.solid.distinct_vertices() {
                prop_assert!(pts.iter().any(|q| q.distance(v) < 1e-4), "vertex {v} is not a sum corner");
            }
            // Contains the sum's sample points: brush points (convex combinations of its
            // vertices) plus box points.
            let verts = p.distinct_vertices();
            for (a, bb, c, k) in samples {
                let v0 = verts[k % verts.len()];
                let v1 = verts[(k + 3) % verts.len()];
                let v2 = verts[(k + 5) % verts.len()];
                let inside = v0 * (1.0 - a) + (v1 * (1.0 - bb) + v2 * bb) * a;
                let offset = DVec3::new((2.0 * a - 1.0) * hx, (2.0 * bb - 1.0) * hy, (2.0 * c - 1.0) * hz);
                prop_assert!(e.solid.contains(inside + offset, 1e-6));
            }
        }
    }
}
