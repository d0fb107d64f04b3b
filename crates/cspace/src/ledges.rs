//! Walkable polygons that end where the agent's centre can stand: at a
//! ledge, a configuration-space polygon overhangs the brush under it by
//! the agent box's support distance (the box still touches the brush with
//! its centre beyond the edge), so lowered to the feet it would float in
//! the air beside the ledge. The `navmesh` stage moves every ledge edge of
//! every polygon back over the brush's edge.
//!
//! * **Ledge edge.** An edge of a polygon is a ledge when, at five points
//!   along it (a tenth, a quarter, the middle, three quarters and nine
//!   tenths of the way), the point [`PROBE`] out from the edge in plan and
//!   [`PROBE`] above the polygon's plane (the distance the crouch links
//!   probe beyond an edge) is inside no expanded brush (so
//!   the edge is not against a wall or a riser, where the agent stops
//!   because its box touches it) and over no polygon of the same mesh
//!   within a step of the edge's height (so the ground does not go on, as
//!   across a shared edge or down a stair). An edge where the ground goes
//!   on along part of it only is not a ledge: such an edge is kept as it
//!   is, which errs on the side of the links across it.
//! * **Shrink.** A ledge edge with outward plan normal `n` moves inward by
//!   the box's support distance in that direction, `|nₓ| hₓ + |n_z| h_z`:
//!   the Minkowski expansion moved the brush's edge out by exactly that,
//!   so the edge lands back on the brush's edge. The polygon is clipped by
//!   the half-plane behind each moved edge, so it stays convex and on its
//!   plane.
//! * **Slivers.** A polygon that would vanish (less than [`MIN_AREA`] left,
//!   for instance a fragment lying wholly in the overhang band) keeps its
//!   shape, so no node and none of its links disappear; such a polygon is
//!   at most the box's support distance wide.
//! * **Links.** A link's crossing segment that lay on a moved edge is moved
//!   onto the new polygon: each end goes to the polygon's nearest point in
//!   plan, on its plane.

use glam::{DVec2, DVec3};
use navscope_core::geom::polyhedron::Polyhedron;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

use crate::extra::{PROBE, PolyGrid};
use crate::walkable::WalkPoly;

/// Least plan area of a shrunk polygon, m²; below it the polygon keeps its
/// shape (see the module docs).
pub const MIN_AREA: f64 = 1e-4;

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

/// Signed plan area (positive counter-clockwise in `(x, z)`).
fn signed_area(poly: &[DVec3]) -> f64 {
    (0..poly.len())
        .map(|i| plan(poly[i]).perp_dot(plan(poly[(i + 1) % poly.len()])))
        .sum::<f64>()
        / 2.0
}

/// True when plan point `q` is in the convex polygon (either winding).
fn holds(poly: &[DVec3], q: DVec2) -> bool {
    let n = poly.len();
    let side = |i: usize| {
        let (a, b) = (plan(poly[i]), plan(poly[(i + 1) % n]));
        (b - a).perp_dot(q - a)
    };
    (0..n).all(|i| side(i) >= -1e-9) || (0..n).all(|i| side(i) <= 1e-9)
}

/// The solids' boxes in an R-tree, for point queries.
struct Solids<'a> {
    solids: &'a [&'a Polyhedron],
    tree: RTree<GeomWithData<Rectangle<[f64; 3]>, usize>>,
}

impl<'a> Solids<'a> {
    fn new(solids: &'a [&'a Polyhedron]) -> Self {
        let boxes = solids
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (a, b) = (s.bounds.min, s.bounds.max);
                GeomWithData::new(Rectangle::from_corners(a.to_array(), b.to_array()), i)
            })
            .collect();
        Solids {
            solids,
            tree: RTree::bulk_load(boxes),
        }
    }

    /// True when `p` is strictly inside one of the solids.
    fn hold(&self, p: DVec3) -> bool {
        let q = AABB::from_point(p.to_array());
        self.tree
            .locate_in_envelope_intersecting(&q)
            .any(|e| self.solids[e.data].contains_strictly(p, 1e-4))
    }
}

/// The ledge edges of polygon `i` of `polys` (see the module docs): per
/// edge `k` (from corner `k` to `k + 1`), whether it is a ledge.
fn ledge_edges(
    polys: &[WalkPoly],
    grid: &PolyGrid,
    i: usize,
    solids: &Solids,
    step: f64,
) -> Vec<bool> {
    let p = &polys[i];
    let poly = &p.polygon;
    let turn = signed_area(poly).signum();
    (0..poly.len())
        .map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let d = plan(b - a);
            if d.length() < 1e-9 {
                return false;
            }
            let out = DVec2::new(d.y, -d.x).normalize() * turn;
            [0.1, 0.25, 0.5, 0.75, 0.9].iter().all(|&t| {
                let e = a.lerp(b, t);
                let q = plan(e) + out * PROBE;
                let at = DVec3::new(q.x, p.height_at(q.x, q.y) + PROBE, q.y);
                let walled = solids.hold(at);
                let ground = grid.near(q, q).into_iter().any(|j| {
                    let o = &polys[j];
                    j != i && holds(&o.polygon, q) && (o.height_at(q.x, q.y) - e.y).abs() <= step
                });
                !walled && !ground
            })
        })
        .collect()
}

/// Clips `poly` to the plan half-plane `n · p <= c`.
fn clip(poly: &[DVec3], n: DVec2, c: f64) -> Vec<DVec3> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        let (da, db) = (n.dot(plan(a)) - c, n.dot(plan(b)) - c);
        if da <= 0.0 {
            out.push(a);
        }
        if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
            out.push(a.lerp(b, da / (da - db)));
        }
    }
    out
}

/// Every polygon of one mesh with its ledge edges moved back over the
/// brush edge under them, for an agent box of half extents `half`;
/// `solids` are the mesh's expanded brushes and `step` its step height.
pub fn shrink_ledges(
    polys: &[WalkPoly],
    solids: &[&Polyhedron],
    half: DVec3,
    step: f64,
) -> Vec<Vec<DVec3>> {
    let grid = PolyGrid::new(polys);
    let solids = Solids::new(solids);
    (0..polys.len())
        .map(|i| {
            let poly = &polys[i].polygon;
            let turn = signed_area(poly).signum();
            let mut out = poly.clone();
            let ledges = ledge_edges(polys, &grid, i, &solids, step);
            for (k, ledge) in ledges.into_iter().enumerate() {
                if !ledge {
                    continue;
                }
                let (a, b) = (plan(poly[k]), plan(poly[(k + 1) % poly.len()]));
                let d = b - a;
                let n = DVec2::new(d.y, -d.x).normalize() * turn;
                let support = n.x.abs() * half.x + n.y.abs() * half.z;
                out = clip(&out, n, n.dot(a) - support);
            }
            if out.len() >= 3 && signed_area(&out).abs() >= MIN_AREA {
                out
            } else {
                poly.clone()
            }
        })
        .collect()
}

/// The point of convex polygon `poly` nearest to `p` in plan (`p` itself
/// when inside), on the polygon's boundary edge or at `p`'s own height.
pub fn onto(poly: &[DVec3], p: DVec3) -> DVec3 {
    if holds(poly, plan(p)) {
        return p;
    }
    let q = plan(p);
    (0..poly.len())
        .map(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            let ab = plan(b) - plan(a);
            let len = ab.length_squared();
            let t = if len > 0.0 {
                ((q - plan(a)).dot(ab) / len).clamp(0.0, 1.0)
            } else {
                0.0
            };
            a.lerp(b, t)
        })
        .min_by(|x, y| plan(*x).distance(q).total_cmp(&plan(*y).distance(q)))
        .unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walkable::test_square;
    use navscope_core::geom::Plane;
    use proptest::prelude::*;

    fn cube(min: DVec3, max: DVec3) -> Polyhedron {
        let planes = [
            (DVec3::X, max.x),
            (-DVec3::X, -min.x),
            (DVec3::Y, max.y),
            (-DVec3::Y, -min.y),
            (DVec3::Z, max.z),
            (-DVec3::Z, -min.z),
        ]
        .map(|(normal, d)| Plane { normal, d });
        Polyhedron::from_planes(&planes).unwrap()
    }

    const HALF: DVec3 = DVec3::new(0.4, 0.9, 0.4);

    fn bounds(p: &[DVec3]) -> (DVec2, DVec2) {
        let lo = p.iter().fold(plan(p[0]), |m, &v| m.min(plan(v)));
        let hi = p.iter().fold(plan(p[0]), |m, &v| m.max(plan(v)));
        (lo, hi)
    }

    #[test]
    fn a_platform_in_the_open_shrinks_back_to_its_brush() {
        // A 4 x 2 m brush top at 1 m, expanded by 0.4 m: the c-space polygon
        // is 4.8 x 2.8 at the centre's height 1.9.
        let top = test_square(-0.4, -0.4, 4.4, 2.4, 1.9);
        let got = shrink_ledges(&[top], &[], HALF, 0.5);
        let (lo, hi) = bounds(&got[0]);
        assert!(lo.abs_diff_eq(DVec2::ZERO, 1e-9) && hi.abs_diff_eq(DVec2::new(4.0, 2.0), 1e-9));
        assert!(got[0].iter().all(|v| (v.y - 1.9).abs() < 1e-12));
    }

    #[test]
    fn walls_and_ground_that_goes_on_keep_their_edges() {
        // Floor polygon from x = 0 to 4, a wall's expanded brush from x = 4
        // on; a second polygon continues the floor past z = 2.
        let floor = test_square(0.0, 0.0, 4.0, 2.0, 0.9);
        let more = test_square(0.0, 2.0, 4.0, 5.0, 1.0);
        let wall = cube(DVec3::new(4.0, -1.0, -1.0), DVec3::new(5.0, 4.0, 6.0));
        let got = shrink_ledges(&[floor, more], &[&wall], HALF, 0.5);
        let (lo, hi) = bounds(&got[0]);
        assert!(
            hi.x == 4.0 && hi.y == 2.0,
            "against the wall and the ground: {hi}"
        );
        assert!(
            (lo.x - 0.4).abs() < 1e-9 && (lo.y - 0.4).abs() < 1e-9,
            "open sides: {lo}"
        );
        let (lo, hi) = bounds(&got[1]);
        assert!(hi.x == 4.0 && lo.y == 2.0 && (hi.y - 4.6).abs() < 1e-9);
    }

    #[test]
    fn a_sliver_in_the_overhang_keeps_its_shape_and_points_go_onto_polygons() {
        let sliver = test_square(0.0, 0.0, 0.3, 2.0, 0.9);
        let got = shrink_ledges(std::slice::from_ref(&sliver), &[], HALF, 0.5);
        assert_eq!(got[0], sliver.polygon);
        let sq = test_square(0.0, 0.0, 1.0, 1.0, 2.0).polygon;
        assert_eq!(
            onto(&sq, DVec3::new(0.5, 2.0, 0.5)),
            DVec3::new(0.5, 2.0, 0.5)
        );
        let p = onto(&sq, DVec3::new(3.0, 7.0, 0.5));
        assert!(p.abs_diff_eq(DVec3::new(1.0, 2.0, 0.5), 1e-12));
    }

    proptest! {
        /// A box's expanded top shrinks back to the box's top, for any box
        /// and agent: every corner of the result lies within the box (plus a
        /// micron) and the area is the box's.
        #[test]
        fn shrinking_inverts_the_expansion_for_any_box_and_agent(
            w in 0.9f64..6.0, d in 0.9f64..6.0, hx in 0.1f64..0.45, hz in 0.1f64..0.45,
        ) {
            let half = DVec3::new(hx, 0.9, hz);
            let top = test_square(-hx, -hz, w + hx, d + hz, 1.0);
            let got = shrink_ledges(&[top], &[], half, 0.5);
            for v in &got[0] {
                prop_assert!(v.x >= -1e-6 && v.x <= w + 1e-6 && v.z >= -1e-6 && v.z <= d + 1e-6);
            }
            prop_assert!((signed_area(&got[0]).abs() - w * d).abs() < 1e-6);
        }
    }
}
