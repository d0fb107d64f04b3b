//! Links made by the level's triggers and liquids: teleport, push (jump)
//! and swim links, and the falls through the holes floor panel doors open.
//! Doors need no other links of their own (walking into a door region is
//! a door link, see [`crate::regions`]); lifts reuse the ladder links with
//! the elevator kind.
//!
//! Choices:
//! * **Teleport**: every polygon inside a `trigger_teleport` region links
//!   one way to the polygon under its destination (the highest polygon
//!   whose plan holds the destination's origin, at most a step above it;
//!   Quake drops the player there).
//! * **Push**: a `trigger_push` launches at the velocity QuakeC gives it
//!   ([`navscope_core::movers`]: ten times its `speed` along its
//!   direction, clamped to the engine's top speed). The flight from the polygon's centre is followed under
//!   Quake's gravity (800 units/s²) by [`flight`]; the first polygon other than the start that
//!   the falling path crosses is where it lands (walls in the way are not
//!   traced). One jump link, one way.
//! * **Hole** ([`navscope_core::movers::Hole`]): the polygon on the
//!   panel over the hole's centre (its height within a step of the
//!   panel's top) links one way, a `door` link, to the highest polygon
//!   under that centre below the panel, when the agent falls there clear
//!   of every solid but the panel's own (so a hole narrower than the agent
//!   makes none): the player falls when the door opens.
//! * **Swim**: in a body of water (its water regions whose boxes touch,
//!   [`water_bodies`]) the agent swims in three dimensions. Around each
//!   wet polygon space is split into [`SWIM_CONES`] cones of direction
//!   (six sectors of azimuth times three of elevation: up, level, down,
//!   split at 30°), and in each cone the polygon links both ways to the
//!   nearest wet polygon of its body (by the gap between their boxes;
//!   [`SWIM_TRIES`] tried at most) to which the straight line between
//!   the two polygons' nearest points stays in the water (inside the
//!   body's boxes, the agent's centre under the surface) and clear of
//!   every solid. Polygons it touches in plan within a step in height are
//!   left out (walk and step links join those). A link's ends are those
//!   points, so its cost is the straight swim between them. This is a
//!   Yao graph: sparse (at most [`SWIM_CONES`] pairs made per wet polygon,
//!   so linear in the body's size), yet joined in every direction, so a
//!   body of any size is swum across, down and up, a flooded shaft or a
//!   pit on the bottom included. Choosing the candidates
//!   compares every two wet polygons of a body (quadratic in the body's
//!   wet polygons, a few thousand at most in a released map); the
//!   straight-line tests are linear. Every polygon outside the body whose
//!   plan lies within an agent width of the water and whose height lets
//!   the agent climb out at the surface (centre no higher than the
//!   surface plus a step) is joined both ways to the body's nearest wet
//!   polygon.

use glam::{DVec2, DVec3};
use navscope_core::LinkKind;
use navscope_core::geom::Aabb;
use navscope_core::movers::flight;
use navscope_core::swim::yao_swims;

use crate::extra::{PolyGrid, nearest_on_poly};
use crate::links::{LinkSeg, PATH_SAMPLE_STEP, clear_path};
use crate::polyhedron::Polyhedron;
use crate::polyhedron::polygon_centroid;
use crate::scene::{Hole, Region, RegionKind};
use crate::walkable::WalkPoly;

pub use navscope_core::swim::{SWIM_CONES, SWIM_TRIES};

/// True when the plan point `(x, z)` is inside the convex polygon.
pub(crate) fn holds(poly: &WalkPoly, x: f64, z: f64) -> bool {
    let p = &poly.polygon;
    let n = p.len();
    (0..n).all(|i| {
        let (a, b) = (p[i], p[(i + 1) % n]);
        (b.x - a.x) * (z - a.z) - (b.z - a.z) * (x - a.x) <= 1e-9
    }) || (0..n).all(|i| {
        let (a, b) = (p[i], p[(i + 1) % n]);
        (b.x - a.x) * (z - a.z) - (b.z - a.z) * (x - a.x) >= -1e-9
    })
}

/// The highest polygon whose plan holds `p` and whose height is at most
/// `p.y + above`.
fn polygon_under(polys: &[WalkPoly], grid: &PolyGrid, p: DVec3, above: f64) -> Option<usize> {
    let at = DVec2::new(p.x, p.z);
    grid.near(at, at)
        .into_iter()
        .filter(|&i| holds(&polys[i], p.x, p.z))
        .map(|i| (polys[i].height_at(p.x, p.z), i))
        .filter(|(h, _)| *h <= p.y + above)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, i)| i)
}

fn one_way(mesh: usize, from: usize, to: usize, kind: LinkKind, a: DVec3, b: DVec3) -> LinkSeg {
    LinkSeg {
        from_mesh: mesh,
        from,
        to_mesh: mesh,
        to,
        kind,
        source: [a, a],
        dest: [b, b],
        across: DVec3::new(b.x - a.x, 0.0, b.z - a.z)
            .try_normalize()
            .unwrap_or(DVec3::ZERO),
        edge: None,
    }
}

/// The point of `poly` under the plan position of `p`, or its centroid
/// when `p` is outside it.
fn on_poly(poly: &WalkPoly, p: DVec3) -> DVec3 {
    if holds(poly, p.x, p.z) {
        DVec3::new(p.x, poly.height_at(p.x, p.z), p.z)
    } else {
        polygon_centroid(&poly.polygon)
    }
}

/// Teleport and push links of one mesh. `gravity` is in metres per second
/// squared.
pub fn trigger_links(
    mesh: usize,
    polys: &[WalkPoly],
    grid: &PolyGrid,
    regions: &[Region],
    step: f64,
    gravity: f64,
) -> Vec<LinkSeg> {
    let mut out = Vec::new();
    for (i, p) in polys.iter().enumerate() {
        let Some(r) = p.region else { continue };
        let c = polygon_centroid(&p.polygon);
        match regions[r].kind {
            RegionKind::Teleport(Some(dest)) => {
                if let Some(j) = polygon_under(polys, grid, dest, step) {
                    out.push(one_way(
                        mesh,
                        i,
                        j,
                        LinkKind::Teleport,
                        c,
                        on_poly(&polys[j], dest),
                    ));
                }
            }
            RegionKind::Push(v) => {
                if let Some((j, at)) = landing(polys, grid, i, c, v, gravity) {
                    out.push(one_way(mesh, i, j, LinkKind::Jump, c, at));
                }
            }
            _ => {}
        }
    }
    out
}

/// The fall through hole `h` (see the module docs) of one mesh whose
/// agent has half extents `half`, in configuration space; `solids` are
/// the mesh's expanded solids other than the panel's.
pub fn hole_fall(
    mesh: usize,
    polys: &[WalkPoly],
    grid: &PolyGrid,
    h: &Hole,
    solids: &[&Polyhedron],
    half: DVec3,
    step: f64,
) -> Option<LinkSeg> {
    let c = h.bounds.center();
    let at = DVec2::new(c.x, c.z);
    let on = |pred: &dyn Fn(f64) -> bool| {
        grid.near(at, at)
            .into_iter()
            .filter(|&i| holds(&polys[i], c.x, c.z))
            .map(|i| (polys[i].height_at(c.x, c.z), i))
            .filter(|(y, _)| pred(*y))
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
    };
    let top = h.bounds.max.y + half.y;
    let (ya, a) = on(&|y| (y - top).abs() <= step)?;
    let (yb, b) = on(&|y| y < h.bounds.min.y + half.y - step)?;
    let (pa, pb) = (DVec3::new(c.x, ya, c.z), DVec3::new(c.x, yb, c.z));
    clear_path(solids, &[pa, pb]).then(|| one_way(mesh, a, b, LinkKind::Door, pa, pb))
}

/// Where a flight from `start` at velocity `v` first comes down onto a
/// polygon other than `from`.
fn landing(
    polys: &[WalkPoly],
    grid: &PolyGrid,
    from: usize,
    start: DVec3,
    v: DVec3,
    gravity: f64,
) -> Option<(usize, DVec3)> {
    flight(start, v, gravity, |a, b| {
        let lo = DVec2::new(a.x.min(b.x), a.z.min(b.z));
        let hi = DVec2::new(a.x.max(b.x), a.z.max(b.z));
        let j = grid
            .near(lo, hi)
            .into_iter()
            .filter(|&j| j != from && holds(&polys[j], b.x, b.z))
            .filter(|&j| {
                let h = polys[j].height_at(b.x, b.z);
                a.y >= h && b.y <= h
            })
            .min()?;
        Some((j, on_poly(&polys[j], b)))
    })
}

/// Swim links of one mesh with agent half extents `half`; `solids` are the
/// mesh's expanded solids.
pub fn swim_links(
    mesh: usize,
    polys: &[WalkPoly],
    grid: &PolyGrid,
    regions: &[Region],
    solids: &[&Polyhedron],
    half: DVec3,
    step: f64,
) -> Vec<LinkSeg> {
    let mut out = Vec::new();
    for body in water_bodies(regions) {
        let wet: Vec<usize> = (0..polys.len())
            .filter(|&i| polys[i].region.is_some_and(|r| body.contains(&r)))
            .collect();
        if wet.is_empty() {
            continue;
        }
        let centre = |i: usize| polygon_centroid(&polys[i].polygon);
        let water: Vec<Aabb> = body.iter().map(|&r| regions[r].centre_box(half)).collect();
        for (a, b, pa, pb) in swims(polys, &wet, &water, solids, step) {
            out.push(one_way(mesh, a, b, LinkKind::Swim, pa, pb));
            out.push(one_way(mesh, b, a, LinkKind::Swim, pb, pa));
        }
        let boxes = || body.iter().map(|&r| regions[r].bounds);
        let bottom = boxes().map(|b| b.min.y).fold(f64::INFINITY, f64::min);
        let surface = boxes().map(|b| b.max.y).fold(f64::NEG_INFINITY, f64::max);
        let reach = 2.0 * half.x.max(half.z);
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for &r in &body {
            let bx = regions[r].centre_box(half);
            lo = lo.min(DVec2::new(bx.min.x, bx.min.z) - DVec2::splat(reach));
            hi = hi.max(DVec2::new(bx.max.x, bx.max.z) + DVec2::splat(reach));
        }
        for j in grid.near(lo, hi) {
            let q = &polys[j];
            if q.region.is_some_and(|r| body.contains(&r)) {
                continue;
            }
            let qb = Aabb::from_points(q.polygon.iter().copied());
            let gap_x = (qb.min.x - hi.x).max(lo.x - qb.max.x);
            let gap_z = (qb.min.z - hi.y).max(lo.y - qb.max.z);
            if gap_x > 0.0 || gap_z > 0.0 || qb.min.y > surface + half.y + step {
                continue;
            }
            if qb.max.y < bottom {
                continue;
            }
            let shore = centre(j);
            let a = wet
                .iter()
                .copied()
                .min_by(|&x, &y| {
                    centre(x)
                        .distance_squared(shore)
                        .total_cmp(&centre(y).distance_squared(shore))
                        .then(x.cmp(&y))
                })
                .unwrap_or(wet[0]);
            out.push(one_way(mesh, j, a, LinkKind::Swim, shore, centre(a)));
            out.push(one_way(mesh, a, j, LinkKind::Swim, centre(a), shore));
        }
    }
    out
}

/// The swims between the wet polygons `wet` of one body of water whose
/// agent-centre boxes are `water` (see the module docs,
/// [`navscope_core::swim::yao_swims`]): each pair once, with the two
/// points the straight swim joins.
fn swims(
    polys: &[WalkPoly],
    wet: &[usize],
    water: &[Aabb],
    solids: &[&Polyhedron],
    step: f64,
) -> Vec<(usize, usize, DVec3, DVec3)> {
    let boxes: Vec<Aabb> = wet
        .iter()
        .map(|&i| Aabb::from_points(polys[i].polygon.iter().copied()))
        .collect();
    // A polygon cut by a region's box may lie a rounding error outside it.
    let grow = DVec3::splat(1e-6);
    let in_water = |p: DVec3| {
        water.iter().any(|w| {
            Aabb {
                min: w.min - grow,
                max: w.max + grow,
            }
            .contains(p)
        })
    };
    yao_swims(&boxes, step, |ka, kb| {
        let (pa, pb) = nearest_points(&polys[wet[ka]], &polys[wet[kb]]);
        let n = (pa.distance(pb) / PATH_SAMPLE_STEP).ceil().max(1.0) as usize;
        let wet_line = (0..=n).all(|k| in_water(pa.lerp(pb, k as f64 / n as f64)));
        (wet_line && clear_path(solids, &[pa, pb])).then_some((pa, pb))
    })
    .into_iter()
    .map(|(ka, kb, pa, pb)| (wet[ka], wet[kb], pa, pb))
    .collect()
}

/// Nearly the nearest points of two convex polygons: the point of `a`
/// nearest `b`'s centroid in plan, the point of `b` nearest that, and the
/// point of `a` nearest that (each at its polygon's height).
fn nearest_points(a: &WalkPoly, b: &WalkPoly) -> (DVec3, DVec3) {
    let plan = |p: DVec3| DVec2::new(p.x, p.z);
    let pa = nearest_on_poly(a, plan(polygon_centroid(&b.polygon)));
    let pb = nearest_on_poly(b, plan(pa));
    (nearest_on_poly(a, plan(pb)), pb)
}

/// The water regions grouped into bodies of water: regions whose boxes
/// touch or overlap are one body (a pool drawn as several brushes,
/// [`navscope_core::swim::water_bodies`]), each body its region indices
/// ascending, bodies in order of their first.
pub fn water_bodies(regions: &[Region]) -> Vec<Vec<usize>> {
    let water: Vec<usize> = (0..regions.len())
        .filter(|&r| regions[r].kind == RegionKind::Water)
        .collect();
    let boxes: Vec<Aabb> = water.iter().map(|&r| regions[r].bounds).collect();
    navscope_core::swim::water_bodies(&boxes)
        .into_iter()
        .map(|body| body.into_iter().map(|k| water[k]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walkable::test_square;
    use std::collections::HashSet;

    fn square(x0: f64, z0: f64, x1: f64, z1: f64, y: f64, region: Option<usize>) -> WalkPoly {
        WalkPoly {
            region,
            ..test_square(x0, z0, x1, z1, y)
        }
    }

    fn region(kind: RegionKind, min: DVec3, max: DVec3) -> Region {
        Region::new(kind, min, max)
    }

    #[test]
    fn a_teleporter_links_to_the_floor_under_its_destination() {
        let polys = vec![
            square(0.0, 0.0, 1.0, 1.0, 0.9, Some(0)),
            square(10.0, 10.0, 12.0, 12.0, 0.9, None),
            square(10.0, 10.0, 12.0, 12.0, 5.9, None),
        ];
        let grid = PolyGrid::new(&polys);
        let regions = vec![region(
            RegionKind::Teleport(Some(DVec3::new(11.0, 1.2, 11.0))),
            DVec3::ZERO,
            DVec3::ONE,
        )];
        let l = trigger_links(0, &polys, &grid, &regions, 0.45, 25.0);
        assert_eq!(l.len(), 1);
        assert_eq!(
            (l[0].from, l[0].to, l[0].kind),
            (0, 1, LinkKind::Teleport),
            "the floor under, not the one above"
        );
        let missing = vec![region(RegionKind::Teleport(None), DVec3::ZERO, DVec3::ONE)];
        assert!(trigger_links(0, &polys, &grid, &missing, 0.45, 25.0).is_empty());
    }

    #[test]
    fn a_pusher_lands_where_its_flight_comes_down() {
        let polys = vec![
            square(0.0, 0.0, 1.0, 1.0, 0.9, Some(0)),
            square(1.0, 0.0, 3.0, 1.0, 0.9, None),
            square(6.0, 0.0, 9.0, 1.0, 2.9, None),
        ];
        let grid = PolyGrid::new(&polys);
        // 6 m/s forward, 8 m/s up, g = 10: up 3.2 m at t = 0.8 s, x = 5.3; lands on the high floor.
        let regions = vec![region(
            RegionKind::Push(DVec3::new(6.0, 8.0, 0.0)),
            DVec3::ZERO,
            DVec3::ONE,
        )];
        let l = trigger_links(0, &polys, &grid, &regions, 0.45, 10.0);
        assert_eq!(l.len(), 1);
        assert_eq!((l[0].to, l[0].kind), (2, LinkKind::Jump));
        assert!((l[0].dest[0].y - 2.9).abs() < 1e-9);
    }

    /// Swim links between wet polygons only (no shore), as (from, to).
    fn wet_swims(
        polys: &[WalkPoly],
        water: &[Region],
        solids: &[&Polyhedron],
    ) -> Vec<(usize, usize)> {
        let grid = PolyGrid::new(polys);
        let half = DVec3::new(0.5, 0.875, 0.5);
        swim_links(0, polys, &grid, water, solids, half, 0.56)
            .iter()
            .filter(|l| polys[l.from].region.is_some() && polys[l.to].region.is_some())
            .map(|l| (l.from, l.to))
            .collect()
    }

    fn wall(min: DVec3, max: DVec3) -> Polyhedron {
        Polyhedron::from_planes(&Aabb::from_corners(min, max).outward_planes()).unwrap()
    }

    #[test]
    fn a_swim_goes_straight_through_water_and_not_through_a_wall_or_air() {
        // A flooded shaft: its floor at centre height 1, a ledge 12 m up
        // beside it, under a surface at 14.
        let polys = vec![
            square(0.0, 0.0, 4.0, 4.0, 1.0, Some(0)),
            square(4.0, 0.0, 8.0, 4.0, 13.0, Some(0)),
        ];
        let water = vec![region(
            RegionKind::Water,
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(8.0, 14.0, 4.0),
        )];
        let swims = wet_swims(&polys, &water, &[]);
        assert!(
            swims.contains(&(0, 1)) && swims.contains(&(1, 0)),
            "{swims:?}"
        );
        let l = swim_links(
            0,
            &polys,
            &PolyGrid::new(&polys),
            &water,
            &[],
            DVec3::splat(0.5),
            0.56,
        );
        let up = l.iter().find(|l| (l.from, l.to) == (0, 1)).unwrap();
        assert!(
            (up.source[0].distance(up.dest[0]) - 12.0).abs() < 1e-9,
            "the nearest points, straight up: {up:?}"
        );
        // A slab over the floor between the two: no straight swim.
        let slab = wall(DVec3::new(-1.0, 5.0, -1.0), DVec3::new(9.0, 6.0, 5.0));
        assert!(wet_swims(&polys, &water, &[&slab]).is_empty());
        // Two pools joined only by boxes that leave air between the ends:
        // the straight line would leave the water.
        let pools = vec![
            region(RegionKind::Water, DVec3::ZERO, DVec3::new(4.0, 2.0, 4.0)),
            region(
                RegionKind::Water,
                DVec3::new(4.0, 0.0, 0.0),
                DVec3::new(8.0, 14.0, 4.0),
            ),
        ];
        let far = vec![
            square(0.0, 0.0, 1.0, 4.0, 1.0, Some(0)),
            square(7.0, 0.0, 8.0, 4.0, 13.0, Some(1)),
        ];
        assert!(wet_swims(&far, &pools, &[]).is_empty(), "through the air");
    }

    #[test]
    fn a_large_body_of_water_gets_a_bounded_number_of_swims_per_polygon() {
        // 400 wet floor tiles at four heights in one body.
        let polys: Vec<WalkPoly> = (0..400)
            .map(|i| {
                let (x, z) = ((i % 20) as f64, (i / 20) as f64);
                square(x, z, x + 1.0, z + 1.0, 1.0 + (i % 4) as f64, Some(0))
            })
            .collect();
        let water = vec![region(
            RegionKind::Water,
            DVec3::ZERO,
            DVec3::new(20.0, 10.0, 20.0),
        )];
        let swims = wet_swims(&polys, &water, &[]);
        let mut degree = vec![0; polys.len()];
        for &(a, _) in &swims {
            degree[a] += 1;
        }
        assert!(degree.iter().all(|&d| d >= 1), "every tile joined");
        assert!(
            swims.len() <= 2 * SWIM_CONES * polys.len(),
            "linear: {} links",
            swims.len()
        );
        let pairs: HashSet<(usize, usize)> = swims.iter().copied().collect();
        assert!(
            swims.iter().all(|&(a, b)| pairs.contains(&(b, a))),
            "both ways"
        );
        // A tile's walk neighbour within a step is left to the walk link.
        assert!(!pairs.contains(&(0, 20)), "same height, touching");
    }

    #[test]
    fn touching_water_brushes_are_one_body() {
        let w = |y0: f64, y1: f64, x0: f64| {
            Region::new(
                RegionKind::Water,
                DVec3::new(x0, y0, 0.0),
                DVec3::new(x0 + 1.0, y1, 1.0),
            )
        };
        let lava = Region::new(RegionKind::Lava, DVec3::ZERO, DVec3::ONE);
        let regions = vec![w(0.0, 1.0, 0.0), lava, w(5.0, 6.0, 9.0), w(1.0, 2.0, 0.0)];
        assert_eq!(water_bodies(&regions), vec![vec![0, 3], vec![2]]);
        assert!(water_bodies(&[]).is_empty());
    }

    #[test]
    fn water_joins_its_floors_and_the_shore_both_ways() {
        let half = DVec3::new(0.3, 0.9, 0.3);
        let polys = vec![
            square(0.0, 0.0, 2.0, 4.0, -2.1, Some(0)),
            square(2.0, 0.0, 4.0, 4.0, -1.1, Some(0)),
            square(4.0, 0.0, 8.0, 4.0, 0.9, None),
            square(20.0, 0.0, 24.0, 4.0, 0.9, None),
            square(4.0, 0.0, 8.0, 4.0, 4.9, None),
        ];
        let grid = PolyGrid::new(&polys);
        let water = vec![region(
            RegionKind::Water,
            DVec3::new(0.0, -3.0, 0.0),
            DVec3::new(4.0, 0.0, 4.0),
        )];
        let l = swim_links(0, &polys, &grid, &water, &[], half, 0.45);
        let pairs: Vec<(usize, usize)> = l.iter().map(|l| (l.from, l.to)).collect();
        assert!(pairs.contains(&(0, 1)) && pairs.contains(&(1, 0)));
        assert!(
            pairs.contains(&(2, 1)) && pairs.contains(&(1, 2)),
            "shore to nearest water floor"
        );
        assert!(!pairs.iter().any(|&(a, b)| a == 3 || b == 3), "far floor");
        assert!(
            !pairs.iter().any(|&(a, b)| a == 4 || b == 4),
            "too high to climb out to"
        );
        assert!(l.iter().all(|l| l.kind == LinkKind::Swim));
    }
}
