//! Stage 4, *edge planes* (Golodetz §4.1, Listings 2 and 3): the table
//! mapping every vertical plane through walkable edges to the edges in it,
//! split by facing.
//!
//! For the edge `p1 → p2` of a walkable polygon (counter-clockwise seen
//! from above) the vertical plane has normal `(p2 − p1) × û`, which points
//! out of the polygon. Its canonical form makes the first non-zero of
//! `a, b, c` positive; edges whose plane already is canonical are
//! *same-facing*, the others *opposite-facing*. Opposite-facing edges of a
//! plane belong to polygons on the other side of it, so each (same,
//! opposite) pair is a candidate crossing.
//!
//! Listing 3's comparator treats planes within the angle and distance
//! tolerances as equal, which is not transitive and so cannot key an
//! ordered map reliably. The table is built instead by matching each edge's
//! canonical plane against the representatives of the planes found so far
//! (edges in polygon order; a grid over angle and distance finds the
//! nearby ones; the first representative within both tolerances wins),
//! and then ordered lexicographically by `(a, b, c, d)` as Listing 3 does
//! for planes that are not near each other.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use glam::DVec3;
use navscope_core::geom::Plane;
use serde::Serialize;

use crate::walkable::WalkPoly;

/// Coefficients smaller than this count as zero when canonicalising.
const ZERO: f64 = 1.0e-9;
/// Edges shorter than this in plan (metres) have no vertical plane.
pub const MIN_EDGE: f64 = 1.0e-6;

/// One edge of a walkable polygon: from vertex `edge` to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct EdgeRef {
    /// Index of the walkable polygon.
    pub poly: usize,
    /// Index of the edge's first vertex.
    pub edge: usize,
}

impl EdgeRef {
    /// The edge's endpoints.
    pub fn points(&self, polys: &[WalkPoly]) -> (DVec3, DVec3) {
        let p = &polys[self.poly].polygon;
        (p[self.edge], p[(self.edge + 1) % p.len()])
    }
}

/// One entry of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EdgePlane {
    /// The canonical vertical plane (of the first edge that created it).
    pub plane: Plane,
    /// Edges facing the canonical normal's way.
    pub same: Vec<EdgeRef>,
    /// Edges facing the other way.
    pub opposite: Vec<EdgeRef>,
}

/// The vertical plane through `p1 → p2`, normal `(p2 − p1) × û`; `None`
/// when the edge is (nearly) vertical.
pub fn vertical_plane(p1: DVec3, p2: DVec3) -> Option<Plane> {
    let n = (p2 - p1).cross(DVec3::Y);
    if n.length() < MIN_EDGE {
        return None;
    }
    let n = n.normalize();
    Some(Plane {
        normal: n,
        d: n.dot(p1),
    })
}

/// The canonical form of `plane` (first non-zero of a, b, c positive) and
/// whether `plane` already faced that way.
pub fn canonical(plane: Plane) -> (Plane, bool) {
    let n = plane.normal;
    let first = [n.x, n.y, n.z]
        .into_iter()
        .find(|c| c.abs() > ZERO)
        .unwrap_or(1.0);
    if first > 0.0 {
        (plane, true)
    } else {
        (plane.flipped(), false)
    }
}

/// Listing 3: `Equal` for planes within both tolerances, otherwise the
/// lexicographic order of `(a, b, c, d)`.
pub fn plane_order(l: &Plane, r: &Plane, angle_tol_rad: f64, dist_tol: f64) -> Ordering {
    let angle = l.normal.dot(r.normal).min(1.0).acos();
    if angle.abs() < angle_tol_rad && (l.d - r.d).abs() < dist_tol {
        return Ordering::Equal;
    }
    lexicographic(l, r)
}

fn lexicographic(l: &Plane, r: &Plane) -> Ordering {
    l.normal
        .x
        .total_cmp(&r.normal.x)
        .then(l.normal.y.total_cmp(&r.normal.y))
        .then(l.normal.z.total_cmp(&r.normal.z))
        .then(l.d.total_cmp(&r.d))
}

/// Listing 2: builds the table of `polys` with the given tolerances
/// (angle in radians, distance in metres).
///
/// An edge joins the first representative that its plane matches within
/// the tolerances *in either orientation* (as the same plane: a
/// same-facing edge; as the flipped plane: an opposite-facing one). Only a
/// plane that matches none becomes a representative, oriented by
/// [`canonical`]. So the two copies of a shared edge land in one entry
/// even when jitter puts their normals on either side of `canonical`'s
/// sign test (a normal whose first component is within rounding of zero),
/// where orienting each copy by itself would split them and lose their
/// walk link. The angle grid wraps around the circle for the same reason.
pub fn build_table(polys: &[WalkPoly], angle_tol_rad: f64, dist_tol: f64) -> Vec<EdgePlane> {
    let angle_cell = angle_tol_rad.max(1e-12);
    let dist_cell = dist_tol.max(1e-12);
    let turns = ((std::f64::consts::TAU / angle_cell).ceil() as i64).max(1);
    let key = |p: &Plane| {
        (
            (((p.normal.z.atan2(p.normal.x) + std::f64::consts::PI) / angle_cell).floor() as i64)
                .rem_euclid(turns),
            (p.d / dist_cell).floor() as i64,
        )
    };
    let mut grid: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    let mut table: Vec<EdgePlane> = Vec::new();
    // The first representative within the tolerances of `p`.
    let find = |grid: &BTreeMap<(i64, i64), Vec<usize>>, table: &[EdgePlane], p: &Plane| {
        let (ka, kd) = key(p);
        let mut found: Option<usize> = None;
        for da in -1..=1 {
            for dd in -1..=1 {
                let cell = ((ka + da).rem_euclid(turns), kd + dd);
                for &t in grid.get(&cell).map(Vec::as_slice).unwrap_or(&[]) {
                    if plane_order(&table[t].plane, p, angle_tol_rad, dist_tol) == Ordering::Equal
                        && found.is_none_or(|f| t < f)
                    {
                        found = Some(t);
                    }
                }
            }
        }
        found
    };
    for (pi, poly) in polys.iter().enumerate() {
        let n = poly.polygon.len();
        for ei in 0..n {
            let Some(plane) = vertical_plane(poly.polygon[ei], poly.polygon[(ei + 1) % n]) else {
                continue;
            };
            let as_same = find(&grid, &table, &plane);
            let as_opposite = find(&grid, &table, &plane.flipped());
            let (t, same) = match (as_same, as_opposite) {
                (Some(a), Some(b)) if b < a => (b, false),
                (Some(a), _) => (a, true),
                (None, Some(b)) => (b, false),
                (None, None) => {
                    let (canon, same) = canonical(plane);
                    table.push(EdgePlane {
                        plane: canon,
                        same: Vec::new(),
                        opposite: Vec::new(),
                    });
                    grid.entry(key(&canon)).or_default().push(table.len() - 1);
                    (table.len() - 1, same)
                }
            };
            let e = EdgeRef { poly: pi, edge: ei };
            if same {
                table[t].same.push(e)
            } else {
                table[t].opposite.push(e)
            }
        }
    }
    table.sort_by(|a, b| lexicographic(&a.plane, &b.plane));
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(points: &[(f64, f64, f64)]) -> WalkPoly {
        WalkPoly {
            fragment: 0,
            plane: Plane {
                normal: DVec3::Y,
                d: 0.0,
            },
            polygon: points
                .iter()
                .map(|&(x, y, z)| DVec3::new(x, y, z))
                .collect(),
            slope_deg: 0.0,
            region: None,
        }
    }

    #[test]
    fn jittered_copies_of_a_shared_edge_share_an_entry() {
        // Two floors meet along z = 0; each copy of the shared edge is
        // tilted by 1e-8 rad the other way, so its normal's x component
        // has the opposite sign: orienting each copy alone (first non-zero
        // component positive) put them in two entries, both same-facing.
        let j = 1e-8;
        let a = poly(&[
            (0.0, 0.0, 0.0),
            (4.0, 0.0, 4.0 * j),
            (4.0, 0.0, -2.0),
            (0.0, 0.0, -2.0),
        ]);
        let b = poly(&[
            (0.0, 0.0, 2.0),
            (4.0, 0.0, 2.0),
            (4.0, 0.0, -4.0 * j),
            (0.0, 0.0, 0.0),
        ]);
        let table = build_table(&[a, b], 0.1f64.to_radians(), 0.005);
        let e = |poly, edge| EdgeRef { poly, edge };
        let with = |r: EdgeRef| {
            table
                .iter()
                .position(|p| p.same.contains(&r) || p.opposite.contains(&r))
                .unwrap()
        };
        let t = with(e(0, 0));
        assert_eq!(t, with(e(1, 2)), "{table:?}");
        let p = &table[t];
        assert!(
            p.same.contains(&e(0, 0)) != p.same.contains(&e(1, 2)),
            "they face apart"
        );
        let (n1, _) =
            canonical(vertical_plane(DVec3::ZERO, DVec3::new(4.0, 0.0, 4.0 * j)).unwrap());
        let (n2, _) =
            canonical(vertical_plane(DVec3::new(4.0, 0.0, -4.0 * j), DVec3::ZERO).unwrap());
        assert!(
            n1.normal.dot(n2.normal) < 0.0,
            "canonical alone splits them"
        );
    }

    #[test]
    fn canonical_form_matches_the_papers_example() {
        let n = DVec3::new(0.0, 1.0, -1.0).normalize();
        let (c, same) = canonical(Plane {
            normal: -n,
            d: -23.0,
        });
        assert!(!same);
        assert!((c.normal - n).length() < 1e-12 && (c.d - 23.0).abs() < 1e-12);
        assert!(canonical(Plane { normal: n, d: 23.0 }).1);
    }

    #[test]
    fn two_squares_sharing_an_edge_meet_in_one_plane_with_opposite_facings() {
        // Counter-clockwise seen from above: x right, z towards the viewer.
        let a = poly(&[(0., 0., 1.), (1., 0., 1.), (1., 0., 0.), (0., 0., 0.)]);
        let b = poly(&[(1., 0., 1.), (2., 0., 1.), (2., 0., 0.), (1., 0., 0.)]);
        let t = build_table(&[a, b], 0.01, 0.01);
        // Planes: x = 0, 1, 2 and z = 0, 1.
        assert_eq!(t.len(), 5);
        let x1 = t
            .iter()
            .find(|p| (p.plane.normal - DVec3::X).length() < 1e-9 && (p.plane.d - 1.0).abs() < 1e-9)
            .unwrap();
        assert_eq!(x1.same, vec![EdgeRef { poly: 0, edge: 1 }]);
        assert_eq!(x1.opposite, vec![EdgeRef { poly: 1, edge: 3 }]);
        let z1 = t
            .iter()
            .find(|p| (p.plane.normal - DVec3::Z).length() < 1e-9 && (p.plane.d - 1.0).abs() < 1e-9)
            .unwrap();
        assert_eq!(
            z1.same.len(),
            2,
            "collinear edges of both squares share the plane z = 1"
        );
    }

    #[test]
    fn tolerances_merge_nearly_equal_planes() {
        let a = poly(&[(0., 0., 1.), (1., 0., 1.), (1., 0., 0.), (0., 0., 0.)]);
        let b = poly(&[
            (1.0005, 0., 1.),
            (2., 0., 1.),
            (2., 0., 0.),
            (1.0005, 0., 0.),
        ]);
        assert_eq!(build_table(&[a.clone(), b.clone()], 0.001, 0.001).len(), 5);
        assert_eq!(build_table(&[a, b], 0.001, 0.0001).len(), 6);
    }

    #[test]
    fn order_is_lexicographic_outside_tolerance() {
        let p = |x: f64, d: f64| Plane {
            normal: DVec3::new(x, 0.0, (1.0 - x * x).sqrt()),
            d,
        };
        assert_eq!(
            plane_order(&p(1.0, 0.0), &p(1.0, 0.0005), 0.01, 0.001),
            Ordering::Equal
        );
        assert_eq!(
            plane_order(&p(0.5, 0.0), &p(1.0, 0.0), 0.01, 0.001),
            Ordering::Less
        );
        assert_eq!(
            plane_order(&p(1.0, 2.0), &p(1.0, 1.0), 0.01, 0.001),
            Ordering::Greater
        );
    }
}
