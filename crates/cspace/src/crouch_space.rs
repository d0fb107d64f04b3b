//! Standing and crouching as disjoint spaces: the crouching mesh keeps
//! only where standing does not fit, as `voxel` does (its crouch pass
//! recycles the space the standing pass left).
//!
//! The crouching box differs from the standing one only in height, so
//! wherever the standing agent fits, the crouching one fits on the same
//! floor, `drop` (the difference of their half heights) lower in
//! configuration space. Each crouching polygon loses the parts that a
//! standing polygon of that floor covers in plan: it is cut by each such
//! polygon ([`crate::regions::cut`]) and only the pieces outside are
//! kept, so the crouching mesh is what is left under low ceilings. The
//! crouch links (see [`crate::extra`]) join the two meshes where a
//! standing edge meets crouch-only space.

use glam::DVec2;

use crate::edge_plane::vertical_plane;
use crate::extra::PolyGrid;
use crate::polyhedron::polygon_centroid;
use crate::regions::cut;
use crate::walkable::WalkPoly;

/// How far (metres) two floors may differ in height and still be one.
const SAME_FLOOR: f64 = 1.0e-3;

/// The parts of the crouching polygons `crouch` that no standing polygon
/// of the same floor covers; `drop` is the standing half height less the
/// crouching one.
pub fn crouch_only(crouch: Vec<WalkPoly>, stand: &[WalkPoly], drop: f64) -> Vec<WalkPoly> {
    let grid = PolyGrid::new(stand);
    let mut out = Vec::with_capacity(crouch.len());
    for c in crouch {
        let bounds = navscope_core::geom::Aabb::from_points(c.polygon.iter().copied());
        let lo = DVec2::new(bounds.min.x, bounds.min.z);
        let hi = DVec2::new(bounds.max.x, bounds.max.z);
        let centre = polygon_centroid(&c.polygon);
        let mut pieces = vec![c.polygon.clone()];
        for si in grid.near(lo, hi) {
            let s = &stand[si];
            let same_floor = s.plane.normal.dot(c.plane.normal) > 1.0 - 1e-9
                && (s.height_at(centre.x, centre.z) - drop - centre.y).abs() < SAME_FLOOR;
            if !same_floor {
                continue;
            }
            let n = s.polygon.len();
            let sides: Vec<_> = (0..n)
                .filter_map(|i| vertical_plane(s.polygon[i], s.polygon[(i + 1) % n]))
                .collect();
            pieces = pieces.into_iter().flat_map(|p| cut(&p, &sides).1).collect();
            if pieces.is_empty() {
                break;
            }
        }
        out.extend(pieces.into_iter().map(|polygon| WalkPoly {
            polygon,
            ..c.clone()
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polyhedron::polygon_area;
    use crate::walkable::test_square as square;
    use glam::DVec3;
    use proptest::prelude::*;

    #[test]
    fn crouch_space_is_only_under_the_low_ceiling() {
        // Standing fits on x in 0..6, crouching on 0..10 (a low part 6..10).
        let stand = vec![square(0.0, 0.0, 6.0, 2.0, 0.9)];
        let crouch = vec![square(0.0, 0.0, 10.0, 2.0, 0.5)];
        let left = crouch_only(crouch, &stand, 0.4);
        assert_eq!(left.len(), 1);
        let b = navscope_core::geom::Aabb::from_points(left[0].polygon.iter().copied());
        assert!((b.min.x - 6.0).abs() < 1e-9 && (b.max.x - 10.0).abs() < 1e-9);
        // Another floor (a step up) is not subtracted.
        let other = crouch_only(vec![square(0.0, 0.0, 4.0, 2.0, 0.8)], &stand, 0.4);
        assert_eq!(other.len(), 1);
        assert!((polygon_area(&other[0].polygon) - 8.0).abs() < 1e-9);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn crouch_pieces_never_overlap_standing_and_cover_the_rest(
            sx in -3.0f64..3.0, sz in -3.0f64..3.0, sw in 0.1f64..5.0, sd in 0.1f64..5.0,
            tx in -3.0f64..3.0, tz in -3.0f64..3.0, tw in 0.1f64..5.0, td in 0.1f64..5.0,
        ) {
            let stand = vec![square(sx, sz, sx + sw, sz + sd, 0.9), square(tx, tz, tx + tw, tz + td, 0.9)];
            let crouch = square(-4.0, -4.0, 4.0, 4.0, 0.5);
            let left = crouch_only(vec![crouch], &stand, 0.4);
            // Sample a grid: a point is in crouch space iff it is in the
            // crouch square and in no standing square.
            let inside = |p: &[DVec3], x: f64, z: f64| {
                let n = p.len();
                (0..n).all(|i| {
                    let (a, b) = (p[i], p[(i + 1) % n]);
                    (b.x - a.x) * (z - a.z) - (b.z - a.z) * (x - a.x) < -1e-7
                })
            };
            for i in 0..40 {
                for k in 0..40 {
                    let (x, z) = (-4.0 + 0.2 * i as f64 + 0.0137, -4.0 + 0.2 * k as f64 + 0.0071);
                    let standing = stand.iter().any(|s| inside(&s.polygon, x, z));
                    let crouching = left.iter().filter(|c| inside(&c.polygon, x, z)).count();
                    let near_edge = stand.iter().any(|s| {
                        let b = navscope_core::geom::Aabb::from_points(s.polygon.iter().copied());
                        ((x - b.min.x).abs() < 1e-6) || ((x - b.max.x).abs() < 1e-6)
                            || ((z - b.min.z).abs() < 1e-6) || ((z - b.max.z).abs() < 1e-6)
                    });
                    if near_edge { continue; }
                    prop_assert_eq!(crouching, usize::from(!standing), "at ({}, {})", x, z);
                }
            }
        }
    }
}
