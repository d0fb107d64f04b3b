//! Stage 6, *extra links* (Golodetz §5): crouch links between the standing
//! and crouching meshes, vertical jump links and ladder links.
//!
//! * **Jump** (§5.3): "generated in the same way as step up links, but using
//!   a larger height threshold": Listing 4's bands for height differences
//!   in `(step, jump]`, both directions (a jump up and the drop back).
//! * **Crouch** (§5.1): the paper matches edges of the standing mesh that
//!   make no walk or step link with edges in the same vertical plane on the
//!   crouching mesh that do. A low ceiling usually does not cut the
//!   crouching mesh, so there is no crouching *edge* there; what the paper's
//!   matching asks is whether the crouching mesh continues across that
//!   plane. So: every interval of a standing edge not covered by a walk,
//!   step or jump link is probed just beyond the edge ([`PROBE`] metres
//!   out); where a crouching polygon lies there, at the edge's height minus
//!   the difference of the two half heights (within the step tolerance), a
//!   crouch link joins the two, both ways. Walls and drops end both meshes
//!   in the same plane (the sizes differ only in height), so they make no
//!   crouch links.
//! * **Ladder** (§5.2): each ladder entity's brushes (not solid) give a
//!   box. Walkable polygons within one agent width of its footprint, with a
//!   height between the box's bottom and top (plus the agent's half height,
//!   ± the step tolerance), are its candidates; the lowest and the highest
//!   are joined both ways when they differ by more than a step.
//! * **Ride** (a leg of a train's path, [`Ride`]): one elevator link, one
//!   way, from the polygon at the train's top where the leg leaves to the
//!   one at its top where it arrives. Each end, as a lift's: walkable
//!   polygons within one agent width of the train's plan there whose
//!   height is the top's (plus the half height) within the step
//!   tolerance, the nearest in height, then in plan to the train's
//!   centre. At the corner where the train rests that is its own top; at
//!   the others it is the floor beside the stop at the height of its top,
//!   which the player steps on from or off onto. No link when an end has
//!   no polygon or both ends are one polygon.

use std::collections::HashMap;

use glam::{DVec2, DVec3};
use navscope_core::LinkKind;
use navscope_core::geom::{Aabb, point_segment_distance, segments_properly_cross};
use serde::Serialize;

use crate::edge_plane::{EdgeRef, vertical_plane};
use crate::links::{LinkSeg, MIN_LINK};
use crate::walkable::WalkPoly;
use navscope_core::movers::Ride;

/// How far beyond a standing edge the crouching mesh is probed (metres).
pub const PROBE: f64 = 0.01;
/// Cell size of the plan grid used to find polygons near a point.
const CELL: f64 = 2.0;

/// A ladder: the box of one ladder entity's brushes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ladder {
    /// Index of the entity in the level.
    pub entity: usize,
    /// Box around its brushes.
    pub bounds: Aabb,
}

/// Most grid cells one polygon is entered in; a polygon whose box covers
/// more goes to the list every query returns instead, so the index holds at
/// most this many entries per polygon (a 10 km floor would otherwise fill
/// 25 million cells).
pub const MAX_CELLS_PER_POLY: i64 = 64;

/// A plan-grid index over walkable polygons.
pub struct PolyGrid {
    cells: HashMap<(i64, i64), Vec<usize>>,
    /// Polygons too large for the grid, ascending.
    large: Vec<usize>,
}

fn cell_of(x: f64, z: f64) -> (i64, i64) {
    ((x / CELL).floor() as i64, (z / CELL).floor() as i64)
}

impl PolyGrid {
    /// Indexes `polys` by their plan bounding boxes.
    pub fn new(polys: &[WalkPoly]) -> Self {
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        let mut large = Vec::new();
        for (i, p) in polys.iter().enumerate() {
            let b = Aabb::from_points(p.polygon.iter().copied());
            let (x0, z0) = cell_of(b.min.x, b.min.z);
            let (x1, z1) = cell_of(b.max.x, b.max.z);
            if (x1 - x0 + 1).saturating_mul(z1 - z0 + 1) > MAX_CELLS_PER_POLY {
                large.push(i);
                continue;
            }
            for x in x0..=x1 {
                for z in z0..=z1 {
                    cells.entry((x, z)).or_default().push(i);
                }
            }
        }
        Self { cells, large }
    }

    /// Number of (cell, polygon) entries: at most [`MAX_CELLS_PER_POLY`]
    /// per polygon.
    pub fn entries(&self) -> usize {
        self.cells.values().map(Vec::len).sum()
    }

    /// Polygons whose box may meet the plan box `min..max`, ascending.
    pub fn near(&self, min: DVec2, max: DVec2) -> Vec<usize> {
        let (x0, z0) = cell_of(min.x, min.y);
        let (x1, z1) = cell_of(max.x, max.y);
        let mut out = self.large.clone();
        if (x1 - x0 + 1).saturating_mul(z1 - z0 + 1) > 1_000_000 {
            out.extend(self.cells.values().flatten().copied());
        } else {
            for x in x0..=x1 {
                for z in z0..=z1 {
                    out.extend(self.cells.get(&(x, z)).into_iter().flatten());
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Crouch links from the standing mesh (`stand`, with its walk, step and
/// jump links `covered`) to the crouching mesh and back. `drop` is the
/// standing half height minus the crouching one.
pub fn crouch_links(
    stand: &[WalkPoly],
    covered: &[LinkSeg],
    crouch: &[WalkPoly],
    drop: f64,
    step: f64,
    stand_mesh: usize,
    crouch_mesh: usize,
) -> Vec<LinkSeg> {
    let grid = PolyGrid::new(crouch);
    let mut by_edge: HashMap<(usize, usize), Vec<(f64, f64)>> = HashMap::new();
    for l in covered {
        if let Some(e) = l.edge {
            let (a, b) = e.points(stand);
            let d = b - a;
            let t = |p: DVec3| (p - a).dot(d) / d.length_squared();
            let (t0, t1) = (t(l.source[0]), t(l.source[1]));
            by_edge
                .entry((e.poly, e.edge))
                .or_default()
                .push((t0.min(t1), t0.max(t1)));
        }
    }
    let mut out = Vec::new();
    for (pi, poly) in stand.iter().enumerate() {
        let n = poly.polygon.len();
        for ei in 0..n {
            let (a, b) = (poly.polygon[ei], poly.polygon[(ei + 1) % n]);
            let Some(vp) = vertical_plane(a, b) else {
                continue;
            };
            let len = (b - a).length();
            let mut cover = by_edge.get(&(pi, ei)).cloned().unwrap_or_default();
            cover.sort_by(|x, y| x.0.total_cmp(&y.0));
            for (t0, t1) in uncovered(&cover, MIN_LINK / len) {
                let at = |t: f64| a + (b - a) * t;
                let probe = |t: f64| at(t) + vp.normal * PROBE;
                let (p0, p1) = (probe(t0), probe(t1));
                let lo = DVec2::new(p0.x.min(p1.x), p0.z.min(p1.z));
                let hi = DVec2::new(p0.x.max(p1.x), p0.z.max(p1.z));
                for qi in grid.near(lo, hi) {
                    let q = &crouch[qi];
                    let Some((s0, s1)) = clip_to_poly(&q.polygon, p0, p1) else {
                        continue;
                    };
                    let (u0, u1) = (t0 + (t1 - t0) * s0, t0 + (t1 - t0) * s1);
                    if (u1 - u0) * len < MIN_LINK {
                        continue;
                    }
                    let on_q = |t: f64| {
                        let p = probe(t);
                        DVec3::new(p.x, q.height_at(p.x, p.z), p.z)
                    };
                    let (d0, d1) = (on_q(u0), on_q(u1));
                    let (s0w, s1w) = (at(u0), at(u1));
                    if (d0.y - (s0w.y - drop)).abs() > step || (d1.y - (s1w.y - drop)).abs() > step
                    {
                        continue;
                    }
                    let edge = Some(EdgeRef { poly: pi, edge: ei });
                    out.push(LinkSeg {
                        from_mesh: stand_mesh,
                        from: pi,
                        to_mesh: crouch_mesh,
                        to: qi,
                        kind: LinkKind::Crouch,
                        source: [s0w, s1w],
                        dest: [d0, d1],
                        across: vp.normal,
                        edge,
                    });
                    out.push(LinkSeg {
                        from_mesh: crouch_mesh,
                        from: qi,
                        to_mesh: stand_mesh,
                        to: pi,
                        kind: LinkKind::Crouch,
                        source: [d0, d1],
                        dest: [s0w, s1w],
                        across: -vp.normal,
                        edge: None,
                    });
                }
            }
        }
    }
    out
}

/// The sub-intervals of `[0, 1]` not covered by the sorted intervals
/// `cover`, longer than `min`.
pub fn uncovered(cover: &[(f64, f64)], min: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut t = 0.0;
    for &(a, b) in cover {
        if a - t > min {
            out.push((t, a.min(1.0)));
        }
        t = t.max(b);
    }
    if 1.0 - t > min {
        out.push((t, 1.0));
    }
    out
}

/// The parameter range `[s0, s1]` of the plan segment `p0 → p1` inside the
/// convex polygon `poly` (counter-clockwise seen from above).
fn clip_to_poly(poly: &[DVec3], p0: DVec3, p1: DVec3) -> Option<(f64, f64)> {
    let (mut s0, mut s1) = (0.0f64, 1.0f64);
    let n = poly.len();
    for i in 0..n {
        let Some(vp) = vertical_plane(poly[i], poly[(i + 1) % n]) else {
            continue;
        };
        let flat = |p: DVec3| vp.normal.x * p.x + vp.normal.z * p.z - vp.d;
        let (d0, d1) = (flat(p0), flat(p1));
        if d0 > 0.0 && d1 > 0.0 {
            return None;
        }
        if d0 > 0.0 {
            s0 = s0.max(d0 / (d0 - d1));
        } else if d1 > 0.0 {
            s1 = s1.min(d0 / (d0 - d1));
        }
    }
    (s1 > s0).then_some((s0, s1))
}

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

/// Plan distance between a convex polygon and an axis-aligned rectangle.
fn poly_rect_distance(poly: &[DVec3], min: DVec2, max: DVec2) -> f64 {
    let rect = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
    let pts: Vec<DVec2> = poly.iter().map(|p| plan(*p)).collect();
    if pts.iter().any(|p| p.cmpge(min).all() && p.cmple(max).all())
        || inside_plan(&pts, (min + max) * 0.5)
    {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        for j in 0..4 {
            let (c, d) = (rect[j], rect[(j + 1) % 4]);
            if segments_properly_cross(a, b, c, d) {
                return 0.0;
            }
            best = best
                .min(point_segment_distance(c, d, a))
                .min(point_segment_distance(a, b, c));
        }
    }
    best
}

/// True when `p` is inside the plan polygon (either winding).
fn inside_plan(pts: &[DVec2], p: DVec2) -> bool {
    let n = pts.len();
    let sides: Vec<f64> = (0..n)
        .map(|i| (pts[(i + 1) % n] - pts[i]).perp_dot(p - pts[i]))
        .collect();
    sides.iter().all(|&s| s >= 0.0) || sides.iter().all(|&s| s <= 0.0)
}

/// The point of the convex polygon nearest to the plan point `p`, at the
/// polygon's height.
pub(crate) fn nearest_on_poly(poly: &WalkPoly, p: DVec2) -> DVec3 {
    let pts: Vec<DVec2> = poly.polygon.iter().map(|v| plan(*v)).collect();
    let q = if inside_plan(&pts, p) {
        p
    } else {
        let mut best = (f64::INFINITY, pts[0]);
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            let d = b - a;
            let t = if d.length_squared() > 0.0 {
                ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let c = a + d * t;
            if c.distance(p) < best.0 {
                best = (c.distance(p), c);
            }
        }
        best.1
    };
    DVec3::new(q.x, poly.height_at(q.x, q.y), q.y)
}

/// The polygons within `reach` (in plan) of the plan box `min..max`,
/// each with its point nearest the box's centre: where a ladder's or a
/// train's ends may be.
fn beside_box<'a>(
    polys: &'a [WalkPoly],
    grid: &PolyGrid,
    min: DVec2,
    max: DVec2,
    reach: f64,
) -> impl Iterator<Item = (usize, DVec3)> + 'a {
    let centre = (min + max) * 0.5;
    grid.near(min - DVec2::splat(reach), max + DVec2::splat(reach))
        .into_iter()
        .filter(move |&i| poly_rect_distance(&polys[i].polygon, min, max) <= reach)
        .map(move |i| (i, nearest_on_poly(&polys[i], centre)))
}

/// Ladder links (or, with `kind` elevator, lift links) of one mesh for one
/// ladder or lift box, both ways (empty when it does not join two
/// polygons).
pub fn ladder_links(
    kind: LinkKind,
    mesh: usize,
    polys: &[WalkPoly],
    grid: &PolyGrid,
    ladder: &Ladder,
    half: DVec3,
    step: f64,
) -> Vec<LinkSeg> {
    let reach = 2.0 * half.x.max(half.z);
    let min = DVec2::new(ladder.bounds.min.x, ladder.bounds.min.z);
    let max = DVec2::new(ladder.bounds.max.x, ladder.bounds.max.z);
    let centre = (min + max) * 0.5;
    let (low, high) = (
        ladder.bounds.min.y + half.y - step,
        ladder.bounds.max.y + half.y + step,
    );
    let ends: Vec<(f64, f64, usize, DVec3)> = beside_box(polys, grid, min, max, reach)
        .filter(|(_, at)| at.y >= low && at.y <= high)
        .map(|(i, at)| (at.y, plan(at).distance(centre), i, at))
        .collect();
    let bottom = ends.iter().min_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    let top = ends.iter().min_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    match (bottom, top) {
        (Some(b), Some(t)) if t.0 - b.0 > step && b.2 != t.2 => {
            let across = DVec3::new(t.3.x - b.3.x, 0.0, t.3.z - b.3.z)
                .try_normalize()
                .unwrap_or(DVec3::ZERO);
            vec![
                LinkSeg {
                    from_mesh: mesh,
                    from: b.2,
                    to_mesh: mesh,
                    to: t.2,
                    kind,
                    source: [b.3, b.3],
                    dest: [t.3, t.3],
                    across,
                    edge: None,
                },
                LinkSeg {
                    from_mesh: mesh,
                    from: t.2,
                    to_mesh: mesh,
                    to: b.2,
                    kind,
                    source: [t.3, t.3],
                    dest: [b.3, b.3],
                    across: -across,
                    edge: None,
                },
            ]
        }
        _ => Vec::new(),
    }
}

/// The link of one train leg on one mesh (see the module docs).
pub fn ride_link(
    mesh: usize,
    polys: &[WalkPoly],
    grid: &PolyGrid,
    ride: &Ride,
    half: DVec3,
    step: f64,
) -> Option<LinkSeg> {
    let reach = 2.0 * half.x.max(half.z);
    let end = |b: Aabb| {
        let (min, max) = (DVec2::new(b.min.x, b.min.z), DVec2::new(b.max.x, b.max.z));
        let centre = (min + max) * 0.5;
        let y = b.max.y + half.y;
        beside_box(polys, grid, min, max, reach)
            .filter(|(_, at)| (at.y - y).abs() <= step)
            .min_by(|a, b| {
                (a.1.y - y)
                    .abs()
                    .total_cmp(&(b.1.y - y).abs())
                    .then(
                        plan(a.1)
                            .distance(centre)
                            .total_cmp(&plan(b.1).distance(centre)),
                    )
                    .then(a.0.cmp(&b.0))
            })
    };
    let ((a, pa), (b, pb)) = (end(ride.from)?, end(ride.to)?);
    (a != b).then(|| LinkSeg {
        from_mesh: mesh,
        from: a,
        to_mesh: mesh,
        to: b,
        kind: LinkKind::Elevator,
        source: [pa, pa],
        dest: [pb, pb],
        across: (pb - pa).with_y(0.0).try_normalize().unwrap_or(DVec3::ZERO),
        edge: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walkable::test_square as square;

    #[test]
    fn a_huge_floor_does_not_fill_the_grid_and_is_still_found() {
        // A 10 km floor plus a small one: the floor is kept off the grid.
        let polys = vec![
            square(-5000.0, -5000.0, 5000.0, 5000.0, 0.9),
            square(1.0, 1.0, 2.0, 2.0, 0.9),
        ];
        let grid = PolyGrid::new(&polys);
        assert!(
            grid.entries() <= 2 * MAX_CELLS_PER_POLY as usize,
            "{}",
            grid.entries()
        );
        let at = DVec2::new(1.5, 1.5);
        assert_eq!(grid.near(at, at), vec![0, 1]);
        let far = DVec2::new(4000.0, -4000.0);
        assert_eq!(grid.near(far, far), vec![0]);
    }

    #[test]
    fn a_train_leg_links_its_top_one_way_to_the_floor_beside_the_next_stop() {
        let polys = vec![
            square(0.0, 0.0, 4.0, 4.0, 0.9),
            square(12.0, 0.0, 16.0, 4.0, 0.9),
            square(8.0, 0.0, 12.0, 4.0, -4.1),
        ];
        let grid = PolyGrid::new(&polys);
        let train = |x: f64| Aabb {
            min: DVec3::new(x, -0.5, 0.0),
            max: DVec3::new(x + 4.0, 0.0, 4.0),
        };
        let ride = |from: f64, to: f64| Ride {
            entity: 0,
            from: train(from),
            to: train(to),
        };
        let half = DVec3::new(0.3, 0.9, 0.3);
        let link = ride_link(0, &polys, &grid, &ride(0.0, 8.0), half, 0.4).unwrap();
        assert_eq!((link.from, link.to, link.kind), (0, 1, LinkKind::Elevator));
        assert!(link.across.x > 0.99, "{:?}", link.across);
        let back = ride_link(0, &polys, &grid, &ride(8.0, 0.0), half, 0.4).unwrap();
        assert_eq!((back.from, back.to), (1, 0), "the leg's own direction");
        assert_eq!(
            ride_link(0, &polys, &grid, &ride(0.0, 30.0), half, 0.4),
            None
        );
        assert_eq!(
            ride_link(0, &polys, &grid, &ride(0.0, 0.5), half, 0.4),
            None
        );
    }

    #[test]
    fn uncovered_intervals_are_the_gaps() {
        assert_eq!(uncovered(&[], 0.01), vec![(0.0, 1.0)]);
        assert_eq!(
            uncovered(&[(0.2, 0.4), (0.3, 0.5)], 0.01),
            vec![(0.0, 0.2), (0.5, 1.0)]
        );
        assert_eq!(uncovered(&[(0.0, 1.0)], 0.01), vec![]);
    }

    #[test]
    fn standing_edge_under_a_low_ceiling_gets_crouch_links_both_ways() {
        // Standing floor ends at x = 2 (ceiling beyond); crouching floor runs on.
        let stand = vec![square(0.0, 0.0, 2.0, 1.0, 0.9)];
        let crouch = vec![square(0.0, 0.0, 5.0, 1.0, 0.5)];
        let l = crouch_links(&stand, &[], &crouch, 0.4, 0.45, 0, 1);
        let right: Vec<_> = l
            .iter()
            .filter(|l| {
                l.from_mesh == 0
                    && (l.source[0].x - 2.0).abs() < 1e-9
                    && (l.source[1].x - 2.0).abs() < 1e-9
            })
            .collect();
        assert_eq!(right.len(), 1);
        assert!((right[0].dest[0].y - 0.5).abs() < 1e-9);
        assert_eq!(
            l.iter().filter(|l| l.from_mesh == 1).count(),
            l.iter().filter(|l| l.from_mesh == 0).count()
        );
        // The other three edges have no crouching floor beyond them.
        assert_eq!(l.len(), 2);
    }

    #[test]
    fn a_ladder_joins_the_lowest_and_highest_polygons_near_it() {
        let polys = vec![
            square(0.0, 0.0, 4.0, 4.0, 0.9),
            square(0.0, 4.3, 4.0, 8.0, 3.9),
            square(10.0, 0.0, 12.0, 2.0, 0.9),
        ];
        let grid = PolyGrid::new(&polys);
        let ladder = Ladder {
            entity: 0,
            bounds: Aabb {
                min: DVec3::new(1.5, 0.0, 4.3),
                max: DVec3::new(2.5, 3.0, 4.4),
            },
        };
        let l = ladder_links(
            LinkKind::Ladder,
            0,
            &polys,
            &grid,
            &ladder,
            DVec3::new(0.3, 0.9, 0.3),
            0.45,
        );
        assert_eq!(l.len(), 2);
        assert_eq!((l[0].from, l[0].to, l[0].kind), (0, 1, LinkKind::Ladder));
        assert_eq!((l[1].from, l[1].to), (1, 0));
    }
}
