//! The `movers` stage, mover links: the doors, lifts, teleporters and pushers of a
//! brush level (the [`Movers`] its conversion to a mesh carries, derived
//! by `navscope-core` as for `cspace`) as links of the voxel NavMesh.
//!
//! Each link end is attached to a node polygon: the one whose plan lies
//! within the **attach tolerance** of the end, `radius + 2 × cell_size`
//! of the standing pass (the mesh stops a radius short of walls and the
//! simplified outline may stray by about a cell), and whose surface there
//! is within the end's height range; among several, the rule of each kind
//! below picks one. An end with no polygon is named in the stage's
//! `skipped` list and its link left out.
//!
//! * **Door** (as `cspace`: entering a door's closed volume crosses a door
//!   link): every walk link whose crossing's midpoint lies inside the
//!   door's box, grown by the radius sideways, at a floor height from a
//!   step under the box to its top, becomes a `door` link. The conversion
//!   leaves a sliding door out of the mesh, puts one that moves up or down
//!   where it rests open and a floor panel where it is drawn
//!   ([`navscope_core::level::rests_solid`]), so the opening is walkable
//!   space. A door no walk link crosses is skipped.
//! * **Elevator**: the lift's plan at its low top (the floor on the lift at
//!   rest) and at its high top (the floors beside it up there), each end
//!   within a step of that height, the nearest in height; both ways.
//! * **Ride** (a leg of a train's path, [`navscope_core::movers::Ride`]):
//!   one way, from the train's top where the leg leaves to its top where
//!   it arrives. Each end is attached as a lift's: within the tolerance of
//!   the train's plan there, within a step of its top, the nearest in
//!   height. So the end is the train's own top where it rests (its first
//!   corner) and, at the other corners, the floor beside the stop at the
//!   height of its top: the floor the player steps on or off from.
//! * **Teleport**: every polygon the trigger's box touches (grown by the
//!   radius sideways, feet from an agent height under it to its top) links
//!   one way to the highest polygon under the destination (at most a step
//!   above it; Quake drops the player there).
//! * **Push** (`trigger_push`): from every polygon
//!   the trigger touches, the flight from the polygon's point nearest the
//!   trigger's centre ([`flight`]); the first other polygon the falling
//!   path crosses is where it lands. One `jump` link, one way.
//! * **Hole** (a floor panel door's, [`navscope_core::movers::Hole`], as
//!   `cspace`): the polygon over the hole's centre within a step of the
//!   panel's top links one way, a `door` link, to the highest polygon
//!   under that centre below the panel, when the hole is at least the
//!   agent's width both ways (the voxels are not asked about the fall: the
//!   panel fills them).
//!
//! Jump links and hole falls cost a hurting landing's cost on top of
//! their length ([`navscope_core::jump::Fall`]).
//!
//! Liquids are the voxelised water volumes' (the `flag` pass `swim`), and
//! exits make no link.

use glam::{DVec2, DVec3};
use navscope_core::geom::Aabb;
use navscope_core::movers::{Movers, Region, RegionKind, flight};
use navscope_core::navmesh::Link;
use navscope_core::{LinkKind, NavMesh};

/// The agent sizes the links are attached for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Attach tolerance in plan, metres.
    pub tolerance: f64,
    /// Agent radius, metres.
    pub radius: f64,
    /// Agent height, metres.
    pub height: f64,
    /// Highest step, metres.
    pub step: f64,
    /// The standing agent's running jump.
    pub jump: navscope_core::jump::Reach,
    /// What a hard landing costs.
    pub fall: navscope_core::jump::Fall,
}

/// The mover links of a NavMesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoverLinks {
    /// Indices into the NavMesh's links of the links this stage added or
    /// made door links.
    pub links: Vec<usize>,
    /// `door N: why`, `lift N: why`, ... for each mover left out.
    pub skipped: Vec<String>,
}

/// A node's polygon in plan with its heights.
struct Poly<'a> {
    id: u32,
    pts: &'a [DVec3],
    lo: DVec2,
    hi: DVec2,
}

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

impl Poly<'_> {
    /// True when the plan point is inside the convex polygon.
    fn holds(&self, p: DVec2) -> bool {
        let n = self.pts.len();
        let side = |i: usize| {
            let (a, b) = (plan(self.pts[i]), plan(self.pts[(i + 1) % n]));
            (b - a).perp_dot(p - a)
        };
        (0..n).all(|i| side(i) >= -1e-9) || (0..n).all(|i| side(i) <= 1e-9)
    }

    /// The surface height at plan point `p` (inside or on the polygon): the
    /// fan triangle holding it, interpolated; the nearest corner's height
    /// when no triangle holds it.
    fn height_at(&self, p: DVec2) -> f64 {
        let o = self.pts[0];
        for k in 1..self.pts.len() - 1 {
            let (a, b, c) = (plan(o), plan(self.pts[k]), plan(self.pts[k + 1]));
            let d = (b - a).perp_dot(c - a);
            if d.abs() < 1e-12 {
                continue;
            }
            let u = (p - a).perp_dot(c - a) / d;
            let v = (b - a).perp_dot(p - a) / d;
            if u >= -1e-9 && v >= -1e-9 && u + v <= 1.0 + 1e-9 {
                return o.y + u * (self.pts[k].y - o.y) + v * (self.pts[k + 1].y - o.y);
            }
        }
        self.pts
            .iter()
            .min_by(|x, y| plan(**x).distance(p).total_cmp(&plan(**y).distance(p)))
            .map_or(o.y, |x| x.y)
    }

    /// The polygon's point nearest to the plan rectangle `[lo, hi]`, with
    /// its plan distance to it.
    fn nearest_to_rect(&self, lo: DVec2, hi: DVec2) -> (f64, DVec3) {
        let centre = (lo + hi) * 0.5;
        if self.holds(centre) {
            return (0.0, self.at(centre));
        }
        let mut best = (f64::INFINITY, centre);
        let n = self.pts.len();
        for i in 0..n {
            let (a, b) = (plan(self.pts[i]), plan(self.pts[(i + 1) % n]));
            // Sample the edge finely enough for the attach tolerance; the
            // rectangle's nearest point to each sample gives the distance.
            let steps = ((a.distance(b) / 0.05).ceil() as usize).clamp(1, 400);
            for s in 0..=steps {
                let q = a + (b - a) * (s as f64 / steps as f64);
                let d = q.distance(q.clamp(lo, hi));
                if d < best.0 {
                    best = (d, q);
                }
            }
        }
        (best.0, self.at(best.1))
    }

    /// The surface point at plan point `p`.
    fn at(&self, p: DVec2) -> DVec3 {
        DVec3::new(p.x, self.height_at(p), p.y)
    }
}

/// Where a link end may attach: a plan rectangle and a height range.
struct End {
    lo: DVec2,
    hi: DVec2,
    low: f64,
    high: f64,
}

impl End {
    fn of_box(b: Aabb, grow: f64, low: f64, high: f64) -> End {
        End {
            lo: DVec2::new(b.min.x, b.min.z) - DVec2::splat(grow),
            hi: DVec2::new(b.max.x, b.max.z) + DVec2::splat(grow),
            low,
            high,
        }
    }

    /// Every polygon within `tolerance` of the end in plan whose surface
    /// there is in the height range: (polygon index, plan distance, point).
    fn candidates(&self, polys: &[Poly], tolerance: f64) -> Vec<(usize, f64, DVec3)> {
        let t = DVec2::splat(tolerance);
        polys
            .iter()
            .enumerate()
            .filter(|(_, p)| p.lo.cmple(self.hi + t).all() && p.hi.cmpge(self.lo - t).all())
            .filter_map(|(i, p)| {
                let (d, at) = p.nearest_to_rect(self.lo, self.hi);
                (d <= tolerance && at.y >= self.low && at.y <= self.high).then_some((i, d, at))
            })
            .collect()
    }

    /// The candidate nearest in height to `y`, then in plan.
    fn nearest_to(&self, polys: &[Poly], tolerance: f64, y: f64) -> Option<(usize, DVec3)> {
        self.candidates(polys, tolerance)
            .into_iter()
            .min_by(|a, b| {
                (a.2.y - y)
                    .abs()
                    .total_cmp(&(b.2.y - y).abs())
                    .then(a.1.total_cmp(&b.1))
                    .then(a.0.cmp(&b.0))
            })
            .map(|(i, _, at)| (i, at))
    }
}

/// Adds the mover links of `movers` to `nav` (see the module docs).
pub fn add_mover_links(nav: &mut NavMesh, movers: &Movers, reach: Reach) -> MoverLinks {
    let mut out = MoverLinks::default();
    for (r, region) in movers.regions.iter().enumerate() {
        if region.kind == RegionKind::Door {
            doors(nav, r, region, reach, &mut out);
        }
    }
    let polys: Vec<Poly> = nav
        .nodes
        .iter()
        .filter_map(|n| {
            let pts = n.polygon.as_deref().filter(|p| p.len() >= 3)?;
            let b = Aabb::from_points(pts.iter().copied());
            Some(Poly {
                id: n.id,
                pts,
                lo: DVec2::new(b.min.x, b.min.z),
                hi: DVec2::new(b.max.x, b.max.z),
            })
        })
        .collect();
    let mut new: Vec<(LinkKind, u32, DVec3, u32, DVec3)> = Vec::new();
    let tol = reach.tolerance;
    for (k, l) in movers.lifts.iter().enumerate() {
        let (low, high) = (l.bounds.min.y, l.bounds.max.y);
        let end = |y: f64| End::of_box(l.bounds, 0.0, y - reach.step, y + reach.step);
        match (
            end(low).nearest_to(&polys, tol, low),
            end(high).nearest_to(&polys, tol, high),
        ) {
            (Some((a, pa)), Some((b, pb))) if a != b => {
                new.push((LinkKind::Elevator, polys[a].id, pa, polys[b].id, pb));
                new.push((LinkKind::Elevator, polys[b].id, pb, polys[a].id, pa));
            }
            (Some(_), Some(_)) => out
                .skipped
                .push(format!("lift {k}: one polygon at both ends")),
            (None, _) => out
                .skipped
                .push(format!("lift {k}: no polygon at its low end")),
            (_, None) => out
                .skipped
                .push(format!("lift {k}: no polygon at its high end")),
        }
    }
    for (k, r) in movers.rides.iter().enumerate() {
        let end = |b: Aabb| {
            let top = b.max.y;
            End::of_box(b, 0.0, top - reach.step, top + reach.step).nearest_to(&polys, tol, top)
        };
        match (end(r.from), end(r.to)) {
            (Some((a, pa)), Some((b, pb))) if a != b => {
                new.push((LinkKind::Elevator, polys[a].id, pa, polys[b].id, pb));
            }
            (Some(_), Some(_)) => out
                .skipped
                .push(format!("ride {k}: one polygon at both stops")),
            (None, _) => out
                .skipped
                .push(format!("ride {k}: no polygon where it leaves")),
            (_, None) => out
                .skipped
                .push(format!("ride {k}: no polygon where it arrives")),
        }
    }
    for (r, region) in movers.regions.iter().enumerate() {
        let sources = || {
            let b = region.bounds;
            End::of_box(b, reach.radius, b.min.y - reach.height, b.max.y).candidates(&polys, tol)
        };
        match region.kind {
            RegionKind::Teleport(Some(dest)) => {
                let end = End {
                    lo: plan(dest),
                    hi: plan(dest),
                    low: f64::NEG_INFINITY,
                    high: dest.y + reach.step,
                };
                let Some((j, _, at)) = end
                    .candidates(&polys, tol)
                    .into_iter()
                    .max_by(|a, b| a.2.y.total_cmp(&b.2.y).then(b.1.total_cmp(&a.1)))
                else {
                    out.skipped
                        .push(format!("teleport {r}: no polygon under its destination"));
                    continue;
                };
                let from = sources();
                if from.is_empty() {
                    out.skipped.push(format!("teleport {r}: no polygon in it"));
                }
                for (i, _, pa) in from {
                    new.push((LinkKind::Teleport, polys[i].id, pa, polys[j].id, at));
                }
            }
            RegionKind::Push(v) => {
                let from = sources();
                if from.is_empty() {
                    out.skipped.push(format!("push {r}: no polygon in it"));
                }
                for (i, _, start) in from {
                    match landing(&polys, i, start, v, movers.gravity) {
                        Some((j, at)) => {
                            new.push((LinkKind::Jump, polys[i].id, start, polys[j].id, at))
                        }
                        None => out.skipped.push(format!(
                            "push {r}: the flight from node {} lands on no polygon",
                            polys[i].id
                        )),
                    }
                }
            }
            _ => {}
        }
    }
    for (k, h) in movers.holes.iter().enumerate() {
        let size = h.bounds.size();
        if size.x.min(size.z) < 2.0 * reach.radius {
            out.skipped
                .push(format!("hole {k}: narrower than the agent"));
            continue;
        }
        let c = h.bounds.center();
        let at = |low: f64, high: f64| End {
            lo: plan(c),
            hi: plan(c),
            low,
            high,
        };
        let top = h.bounds.max.y;
        let on = at(top - reach.step, top + reach.step).nearest_to(&polys, tol, top);
        let under = at(f64::NEG_INFINITY, h.bounds.min.y - reach.step)
            .candidates(&polys, tol)
            .into_iter()
            .max_by(|a, b| a.2.y.total_cmp(&b.2.y).then(b.1.total_cmp(&a.1)));
        match (on, under) {
            (Some((a, pa)), Some((b, _, pb))) => {
                new.push((LinkKind::Door, polys[a].id, pa, polys[b].id, pb))
            }
            (None, _) => out
                .skipped
                .push(format!("hole {k}: no polygon on its panel")),
            (_, None) => out.skipped.push(format!("hole {k}: no polygon under it")),
        }
    }
    for (kind, from, a, to, b) in new {
        let landing = match kind {
            LinkKind::Jump | LinkKind::Door => {
                let across = (b - a).with_y(0.0).length();
                reach.fall.cost(&reach.jump, across, a.y - b.y)
            }
            _ => 0.0,
        };
        let cost = nav.nodes[from as usize].position.distance(a)
            + a.distance(b)
            + b.distance(nav.nodes[to as usize].position)
            + landing;
        out.links.push(nav.links.len());
        nav.links
            .push(Link::new(from, to, kind, cost, Some([a, b])));
    }
    out
}

/// Makes the walk links through door region `r` door links.
fn doors(nav: &mut NavMesh, r: usize, region: &Region, reach: Reach, out: &mut MoverLinks) {
    let b = region.bounds;
    let (lo, hi) = (
        DVec2::new(b.min.x, b.min.z) - DVec2::splat(reach.radius),
        DVec2::new(b.max.x, b.max.z) + DVec2::splat(reach.radius),
    );
    let mut any = false;
    for (i, l) in nav.links.iter_mut().enumerate() {
        let Some([a, c]) = l.segment() else { continue };
        let m = (a + c) * 0.5;
        let inside = plan(m).cmpge(lo).all()
            && plan(m).cmple(hi).all()
            && m.y >= b.min.y - reach.step
            && m.y <= b.max.y;
        if inside && l.kind == LinkKind::Walk {
            l.kind = LinkKind::Door;
            out.links.push(i);
            any = true;
        }
    }
    if !any {
        out.skipped
            .push(format!("door {r}: no walk link crosses its opening"));
    }
}

/// Where a flight from `start` (on polygon `from`) at velocity `v` first
/// comes down onto another polygon.
fn landing(
    polys: &[Poly],
    from: usize,
    start: DVec3,
    v: DVec3,
    gravity: f64,
) -> Option<(usize, DVec3)> {
    flight(start, v, gravity, |a, b| {
        let p = plan(b);
        polys
            .iter()
            .enumerate()
            .filter(|(j, q)| *j != from && q.lo.cmple(p).all() && q.hi.cmpge(p).all() && q.holds(p))
            .find(|(_, q)| {
                let h = q.height_at(p);
                a.y >= h && b.y <= h
            })
            .map(|(j, q)| (j, q.at(p)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::Stance;
    use navscope_core::movers::{Lift, Ride};

    fn square(nav: &mut NavMesh, x0: f64, z0: f64, x1: f64, z1: f64, y: f64) -> u32 {
        let pts = vec![
            DVec3::new(x0, y, z0),
            DVec3::new(x0, y, z1),
            DVec3::new(x1, y, z1),
            DVec3::new(x1, y, z0),
        ];
        let c = pts.iter().sum::<DVec3>() / 4.0;
        nav.add_node(c, Some(pts), Stance::Stand, 0)
    }

    const REACH: Reach = Reach {
        tolerance: 0.5,
        radius: 0.3,
        height: 1.8,
        step: 0.4,
        jump: navscope_core::jump::Reach {
            level: 0.0,
            height: 0.0,
            max_drop: 0.0,
            step: 0.4,
        },
        fall: navscope_core::jump::Fall::NONE,
    };

    fn region(kind: RegionKind, min: DVec3, max: DVec3) -> Region {
        Region::new(kind, min, max)
    }

    /// The ends and kinds of the links at `indices`.
    fn added(nav: &NavMesh, indices: &[usize]) -> Vec<(u32, u32, LinkKind)> {
        indices
            .iter()
            .map(|&i| (nav.links[i].from, nav.links[i].to, nav.links[i].kind))
            .collect()
    }

    #[test]
    fn walking_through_a_door_is_a_door_link_and_a_lift_joins_low_and_high() {
        let mut nav = NavMesh::new("voxel", "");
        let a = square(&mut nav, 0.0, 0.0, 5.0, 2.0, 0.0);
        let b = square(&mut nav, 5.0, 0.0, 10.0, 2.0, 0.0);
        let c = square(&mut nav, 20.0, 0.0, 22.0, 2.0, 0.0);
        let up = square(&mut nav, 22.5, 0.0, 26.0, 2.0, 3.0);
        let seg = [DVec3::new(5.0, 0.0, 0.0), DVec3::new(5.0, 0.0, 2.0)];
        nav.add_two_way(a, b, LinkKind::Walk, 5.0, Some(seg));
        let movers = Movers {
            regions: vec![
                region(
                    RegionKind::Door,
                    DVec3::new(4.9, 0.0, 0.0),
                    DVec3::new(5.1, 2.5, 2.0),
                ),
                region(
                    RegionKind::Door,
                    DVec3::new(40.0, 0.0, 0.0),
                    DVec3::new(41.0, 2.5, 2.0),
                ),
            ],
            lifts: vec![Lift {
                entity: 0,
                bounds: Aabb {
                    min: DVec3::new(20.0, 0.0, 0.0),
                    max: DVec3::new(22.0, 3.0, 2.0),
                },
            }],
            gravity: 10.0,
            holes: vec![],
            rides: vec![],
        };
        let got = add_mover_links(&mut nav, &movers, REACH);
        let kinds = added(&nav, &got.links);
        assert_eq!(
            kinds,
            [
                (a, b, LinkKind::Door),
                (b, a, LinkKind::Door),
                (c, up, LinkKind::Elevator),
                (up, c, LinkKind::Elevator)
            ]
        );
        assert_eq!(got.skipped, ["door 1: no walk link crosses its opening"]);
    }

    #[test]
    fn a_train_leg_rides_one_way_from_its_top_to_the_floor_beside_the_next_stop() {
        let mut nav = NavMesh::new("voxel", "");
        let on = square(&mut nav, 0.0, 0.0, 4.0, 4.0, 1.0);
        let beside = square(&mut nav, 12.0, 0.0, 16.0, 4.0, 1.0);
        let _below = square(&mut nav, 8.0, 0.0, 12.0, 4.0, -5.0);
        let train = |x: f64| Aabb {
            min: DVec3::new(x, 0.5, 0.0),
            max: DVec3::new(x + 4.0, 1.0, 4.0),
        };
        let ride = |from: f64, to: f64| Ride {
            entity: 0,
            from: train(from),
            to: train(to),
        };
        let movers = Movers {
            rides: vec![ride(0.0, 8.0), ride(0.0, 30.0)],
            gravity: 10.0,
            ..Movers::default()
        };
        let got = add_mover_links(&mut nav, &movers, REACH);
        assert_eq!(
            added(&nav, &got.links),
            [(on, beside, LinkKind::Elevator)],
            "one way, to the floor at the top's height, not the pit under the stop"
        );
        assert_eq!(got.skipped, ["ride 1: no polygon where it arrives"]);
    }

    #[test]
    fn teleports_land_under_their_destination_and_pushers_where_they_fall() {
        let mut nav = NavMesh::new("voxel", "");
        let pad = square(&mut nav, 0.0, 0.0, 1.0, 1.0, 0.0);
        let floor = square(&mut nav, 10.0, 10.0, 12.0, 12.0, 0.0);
        let _roof = square(&mut nav, 10.0, 10.0, 12.0, 12.0, 5.0);
        let high = square(&mut nav, 6.0, 0.0, 9.0, 1.0, 2.0);
        let movers = Movers {
            regions: vec![
                region(
                    RegionKind::Teleport(Some(DVec3::new(11.0, 1.0, 11.0))),
                    DVec3::new(0.2, 0.0, 0.2),
                    DVec3::new(0.8, 1.0, 0.8),
                ),
                region(
                    RegionKind::Push(DVec3::new(6.0, 8.0, 0.0)),
                    DVec3::new(0.2, 0.0, 0.2),
                    DVec3::new(0.8, 1.0, 0.8),
                ),
                region(
                    RegionKind::Teleport(Some(DVec3::new(50.0, 1.0, 50.0))),
                    DVec3::new(0.2, 0.0, 0.2),
                    DVec3::new(0.8, 1.0, 0.8),
                ),
            ],
            lifts: vec![],
            gravity: 10.0,
            holes: vec![],
            rides: vec![],
        };
        let got = add_mover_links(&mut nav, &movers, REACH);
        let kinds = added(&nav, &got.links);
        assert_eq!(
            kinds,
            [
                (pad, floor, LinkKind::Teleport),
                (pad, high, LinkKind::Jump)
            ],
            "the floor under the destination, not the roof above it"
        );
        assert_eq!(
            got.skipped,
            ["teleport 2: no polygon under its destination"]
        );
    }
}
