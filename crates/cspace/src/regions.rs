//! Regions cut the walkable polygons: a polygon that a door, liquid or
//! trigger region covers in part is split along the region's box, so that
//! the piece inside carries the region (its nodes get the region's area,
//! and the links into it the region's kind) and the pieces outside do not.
//!
//! Choices:
//! * A region acts on the agent's centre, so its box is grown by the
//!   agent's half extents ([`Region::centre_box`]): the agent is in a door, a
//!   trigger, slime or lava as soon as its box touches it. Water is the
//!   exception: the agent swims only where the water covers its centre,
//!   so a water box is grown sideways but not upwards.
//! * Boxes are axis-aligned (the box of the region's brushes): Quake's
//!   doors, liquids and triggers are almost always boxes, and a box cut
//!   keeps every piece convex.
//! * Where regions overlap, the later one in [`priority`] order wins
//!   (a door in water is a door).
//! * The pieces share the cut lines, so the edge plane table finds the
//!   walk links across them like any other edge.

use glam::DVec3;
use navscope_core::geom::{Aabb, Plane};

use crate::polyhedron::{polygon_area, split};
use crate::scene::{Region, RegionKind};
use crate::walkable::WalkPoly;

/// Pieces with less area than this (square metres) are dropped.
const MIN_PIECE: f64 = 1.0e-8;

/// The rank of a region kind where regions overlap (higher wins).
pub fn priority(kind: &RegionKind) -> u8 {
    match kind {
        RegionKind::Water => 0,
        RegionKind::Slime => 1,
        RegionKind::Lava => 2,
        RegionKind::Push(..) => 3,
        RegionKind::Teleport(_) => 4,
        RegionKind::Exit => 5,
        RegionKind::Door => 6,
    }
}

/// Cuts the convex polygon `poly` by the convex region bounded by
/// `planes` (normals pointing out of the region): the piece inside it (if
/// any) and the convex pieces outside it, which together tile `poly`.
/// Pieces with less than [`MIN_PIECE`] area are dropped.
pub fn cut(poly: &[DVec3], planes: &[Plane]) -> (Option<Vec<DVec3>>, Vec<Vec<DVec3>>) {
    let mut rest = poly.to_vec();
    let mut outside = Vec::new();
    let keeps = |p: &[DVec3]| p.len() >= 3 && polygon_area(p) > MIN_PIECE;
    for plane in planes {
        let (out, inside) = split(&rest, plane, 1e-9);
        if keeps(&out) {
            outside.push(out);
        }
        rest = inside;
        if !keeps(&rest) {
            return (None, outside);
        }
    }
    (Some(rest), outside)
}

/// The four vertical planes of a box's plan rectangle, normals outward.
fn box_sides(bx: &Aabb) -> [Plane; 4] {
    [
        Plane {
            normal: -DVec3::X,
            d: -bx.min.x,
        },
        Plane {
            normal: DVec3::X,
            d: bx.max.x,
        },
        Plane {
            normal: -DVec3::Z,
            d: -bx.min.z,
        },
        Plane {
            normal: DVec3::Z,
            d: bx.max.z,
        },
    ]
}

/// Splits the walkable polygons of an agent with half extents `half` by
/// every region, tagging the pieces inside with the region's index.
pub fn split_by_regions(polys: Vec<WalkPoly>, regions: &[Region], half: DVec3) -> Vec<WalkPoly> {
    let mut order: Vec<usize> = (0..regions.len()).collect();
    order.sort_by_key(|&r| (priority(&regions[r].kind), r));
    let mut polys = polys;
    for r in order {
        let bx = regions[r].centre_box(half);
        let mut next = Vec::with_capacity(polys.len());
        for p in polys {
            let pb = Aabb::from_points(p.polygon.iter().copied());
            let plan_meets = pb.min.x < bx.max.x
                && pb.max.x > bx.min.x
                && pb.min.z < bx.max.z
                && pb.max.z > bx.min.z;
            if !plan_meets || pb.max.y < bx.min.y || pb.min.y > bx.max.y {
                next.push(p);
                continue;
            }
            let (inside, outside) = cut(&p.polygon, &box_sides(&bx));
            let piece = |polygon: Vec<DVec3>| WalkPoly {
                polygon,
                ..p.clone()
            };
            next.extend(outside.into_iter().map(piece));
            if let Some(q) = inside {
                let mut q = piece(q);
                let c = crate::polyhedron::polygon_centroid(&q.polygon);
                if c.y >= bx.min.y && c.y <= bx.max.y {
                    q.region = Some(r);
                }
                next.push(q);
            }
        }
        polys = next;
    }
    polys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walkable::test_square as square;
    use proptest::prelude::*;

    fn region(kind: RegionKind, min: DVec3, max: DVec3) -> Region {
        Region::new(kind, min, max)
    }

    fn area(ps: &[WalkPoly]) -> f64 {
        ps.iter().map(|p| polygon_area(&p.polygon)).sum()
    }

    #[test]
    fn a_door_across_a_corridor_cuts_it_in_three() {
        let floor = square(0.0, 0.0, 10.0, 2.0, 0.9);
        let door = region(
            RegionKind::Door,
            DVec3::new(4.9, 0.0, -0.5),
            DVec3::new(5.1, 2.5, 2.5),
        );
        let half = DVec3::new(0.3, 0.9, 0.3);
        let out = split_by_regions(vec![floor], &[door], half);
        assert_eq!(out.len(), 3);
        let inside: Vec<_> = out.iter().filter(|p| p.region == Some(0)).collect();
        assert_eq!(inside.len(), 1);
        let b = Aabb::from_points(inside[0].polygon.iter().copied());
        assert!((b.min.x - 4.6).abs() < 1e-9 && (b.max.x - 5.4).abs() < 1e-9);
        assert!((area(&out) - 20.0).abs() < 1e-9);
    }

    #[test]
    fn water_tags_only_floors_it_submerges_and_doors_win() {
        let half = DVec3::new(0.3, 0.9, 0.3);
        let water = region(
            RegionKind::Water,
            DVec3::new(0.0, -2.0, 0.0),
            DVec3::new(4.0, 0.0, 4.0),
        );
        // Pool floor: centre at -2 + 0.9 = -1.1, under the surface.
        let deep = split_by_regions(
            vec![square(0.0, 0.0, 4.0, 4.0, -1.1)],
            std::slice::from_ref(&water),
            half,
        );
        assert!(deep.iter().all(|p| p.region == Some(0)));
        // A floor whose centre height is above the surface is not in it.
        let dry = split_by_regions(
            vec![square(0.0, 0.0, 4.0, 4.0, 0.5)],
            std::slice::from_ref(&water),
            half,
        );
        assert!(dry.iter().all(|p| p.region.is_none()));
        let door = region(
            RegionKind::Door,
            DVec3::new(1.0, -2.0, 1.0),
            DVec3::new(2.0, 1.0, 2.0),
        );
        let both = split_by_regions(vec![square(0.0, 0.0, 4.0, 4.0, -1.1)], &[door, water], half);
        assert!(
            both.iter().any(|p| p.region == Some(0)),
            "the door wins where they overlap"
        );
        assert!(both.iter().any(|p| p.region == Some(1)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn pieces_keep_the_area_stay_convex_and_wound(
            x0 in -5.0f64..5.0, z0 in -5.0f64..5.0, w in 0.1f64..6.0, d in 0.1f64..6.0,
            bx in -6.0f64..6.0, bz in -6.0f64..6.0, bw in 0.01f64..4.0, bd in 0.01f64..4.0,
        ) {
            let floor = square(x0, z0, x0 + w, z0 + d, 0.0);
            let r = region(RegionKind::Slime, DVec3::new(bx, -1.0, bz), DVec3::new(bx + bw, 1.0, bz + bd));
            let out = split_by_regions(vec![floor], &[r], DVec3::splat(0.1));
            prop_assert!((area(&out) - w * d).abs() < 1e-6);
            for p in &out {
                let n = p.polygon.len();
                for i in 0..n {
                    let (a, b, c) = (p.polygon[i], p.polygon[(i + 1) % n], p.polygon[(i + 2) % n]);
                    prop_assert!((b - a).cross(c - b).y >= -1e-9, "convex and counter-clockwise from above");
                }
            }
        }
    }
}
