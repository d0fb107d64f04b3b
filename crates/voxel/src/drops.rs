//! Stage `drops`: one-way drop links off ledges, as Recast users know them
//! (auto-generated off-mesh connections at ledge edges; Recast itself
//! leaves them to the user, Unity's "drop height" makes them).
//!
//! The voxel passes keep their agent a radius away from every drop deeper
//! than a step, so the floor at the foot of a ledge is a separate area with
//! no edge in common with the one on top: an agent that may walk off a
//! ledge and fall (Quake's player takes no damage from short falls) has no
//! way down. This stage adds it:
//!
//! * **Edges.** Every outline edge of every non-swim node is sampled at
//!   most every two agent radii (at least once, at its middle).
//! * **Probe.** From each sample, the probe moves out of the polygon, at
//!   right angles to the edge in plan, in steps of half a cell, up to
//!   [`crate::swim::max_gap`] of the agent's radius on both sides (the top
//!   and the foot of a cliff each stop about a radius from it, give or
//!   take a cell and a simplification error on each side). At each probe
//!   point the polygons of other nodes (swim nodes too) holding it are looked up,
//!   at their detail surface's height there. A surface no more than a step
//!   (plus a voxel) below the edge, or higher, ends the probe with no link:
//!   the ground goes on (a walk link crosses there) or rises. A surface
//!   lower than that but at most `max_drop` below the edge is the landing
//!   (the highest one, if several); a deeper one ends the probe (the agent
//!   would fall there first).
//! * **Clear fall.** The agent walks off at the edge's height along the
//!   probe's straight plan line and falls straight down at its end: every
//!   voxel column it crosses, from the edge's on, has open space from a
//!   step over the edge to the agent's height over it (the probe stops at
//!   the first that has not), and the landing column has open space from
//!   the landing floor (within a step) to that height, with the body's
//!   width fitting across the line there and its length along it
//!   ([`crate::swim::fits_across`]: strictly more than its width free,
//!   each column judged by the same rule; the whole body is off the edge
//!   when it falls). So there is no link through a wall, under a low
//!   ceiling, onto a floor under an overhang, or down a slot as narrow as
//!   the body (between the bars of a grate, or between a floor's edge and
//!   the first bar).
//! * **Links.** One `jump` link from the edge's node to the landing's node
//!   per pair of nodes (the first sample in node, edge and sample order),
//!   one-way (a drop is not climbed back), none between nodes already
//!   linked that way. Its segment runs from the point on the edge to the
//!   landing point; its cost is the distance from the first node's centre
//!   to the edge point, on to the landing point, and on to the second
//!   node's centre, as for the mover links, plus `fall_cost` when the
//!   landing hurts ([`navscope_core::jump::Fall`]: a walk-off deeper than
//!   `safe_fall`, or a jump whose drop plus rise is; a landing in water
//!   never hurts, as in Quake's `PlayerPostThink`).
//! * **Into water.** Drops and jumps start from the nodes of every stance
//!   but swim, and land on any, swim nodes included: the swim pass's
//!   nodes are the floors under deep water, so a fall into a pool (a
//!   flooded shaft under a ledge) lands on the floor the swimmer sinks
//!   to, and the swimmer swims from there ([`crate::swim_through`]).
//! * **Depth.** `max_drop` is capped at the height span of the NavMesh's
//!   nodes (no drop is deeper), so the probes of a body that takes every
//!   drop (Quake's player, `max_drop` at its maximum) end where the level
//!   does.
//!
//! * **Running jumps** (when the jump reach is above 0: a game agent's
//!   preset sets it). From the same edge samples of standing nodes, where
//!   the edge is a ledge (half a cell beyond it no surface lies within a
//!   step of its height), the agent runs straight out and jumps: the probe
//!   goes on in steps of a cell up to the reach of the deepest drop, and
//!   every surface it passes over that is higher than every landing found
//!   nearer (the drop's included), at most the jump's rise above the edge
//!   and within the reach of a jump landing that much lower or higher
//!   ([`navscope_core::jump::Reach::lands`], the model `cspace`'s gap jumps
//!   use), is a landing. The probe stops at a column the agent fits in
//!   neither at the edge's height nor at the top of its rise (a wall). The
//!   flight is checked as the fall is, for the body's width: every column
//!   under the line from the edge to the landing has room for the
//!   agent at the higher of the two heights, the body's width fits across
//!   the line there ([`crate::swim::fits_across`]), and the landing column
//!   has room from its floor up to there, for the body's width and length
//!   as a fall's. So a jump does not pass a pillar
//!   or through a slot as narrow as the body. Each is one `jump` link, one way, as a
//!   drop.
//!
//! `max_drop` 0 turns the stage off (the NavMesh passes through as it is).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use glam::{DVec2, DVec3};
use navscope_core::jump::Reach;
use navscope_core::navmesh::Link;
use navscope_core::{LinkKind, NavMesh, Stance};
use rayon::prelude::*;

use crate::grid::Grid;
use crate::heightfield::{Heightfield, OPEN, floor_i32, floor_i64};
use crate::settings::AgentParams;
use crate::swim::{Columns, fits_across, inside, max_gap, node_height, plan};

/// One drop found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LedgeDrop {
    /// The node at the top.
    pub from: u32,
    /// The node landed on.
    pub to: u32,
    /// The point on the top node's outline edge.
    pub top: DVec3,
    /// The landing point.
    pub bottom: DVec3,
}

/// The voxel grid and its columns, for the clear-fall check.
pub struct Voxels<'a> {
    /// The grid.
    pub grid: &'a Grid,
    /// The heightfields, per tile.
    pub tiles: &'a [Arc<Heightfield>],
    /// The simplification error (m), part of the probe's reach.
    pub max_error: f64,
}

/// The open spans `[floor, ceil)` of the column under plan point `p`
/// (world metres); none where the grid has no column there. An iterator,
/// not a list: the probe asks for a column at every step.
fn open_spans<'c>(
    v: &'c Voxels,
    cols: &'c Columns,
    p: DVec2,
) -> impl Iterator<Item = (f64, f64)> + 'c {
    let g = v.grid;
    let (x, z) = (
        floor_i32((p.x - g.origin.x) / g.cs),
        floor_i32((p.y - g.origin.z) / g.cs),
    );
    cols.spans(x, z).unwrap_or(&[]).iter().map(|s| {
        let ceil = if s.ceil == OPEN {
            f64::INFINITY
        } else {
            g.y(s.ceil)
        };
        (g.y(s.floor), ceil)
    })
}

/// The clear-fall rule of the module docs for one voxel column, under
/// plan point `p`: room for the agent walking at height `top` over it
/// (`bottom` = `None`), or for it falling from `top` onto the floor at
/// `bottom`.
pub(crate) fn room(
    v: &Voxels,
    cols: &Columns,
    agent: &AgentParams,
    p: DVec2,
    top: f64,
    bottom: Option<f64>,
) -> bool {
    let step = agent.max_step + v.grid.ch;
    let head = top + agent.height - v.grid.ch;
    let mut spans = open_spans(v, cols, p).peekable();
    match bottom {
        None => spans.peek().is_none() || spans.any(|(f, c)| f <= top + step && c >= head),
        // Open from the landing floor (or lower: a floor the voxels do
        // not hold, such as a door's bridge, lies inside an open span) up
        // to the head.
        Some(b) => spans.any(|(f, c)| f <= b + step && c >= head),
    }
}

/// A multiply-and-fold hasher for the small integer keys of this stage's
/// maps (bucket cells, node pairs): the probe looks a bucket up at every
/// step, and SipHash showed in its profile. None of the maps is iterated,
/// so the hasher cannot change the output.
#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        let p = u128::from(self.0 ^ v) * 0x9e37_79b9_7f4a_7c15;
        self.0 = (p as u64) ^ ((p >> 64) as u64);
    }
}

/// The maps' hasher.
type Fold = BuildHasherDefault<FoldHasher>;

/// The drops and running jumps of `nav` (see the module docs): `agent`
/// gives each stance's agent (`None`: no drops from or onto that stance's
/// nodes); `jump` the standing agent's running jump (its `max_drop` is
/// `max_drop`'s; a level reach of 0: no jumps).
pub fn find_drops(
    nav: &NavMesh,
    agent: impl Fn(Stance) -> Option<AgentParams> + Sync,
    voxels: &Voxels,
    max_drop: f64,
    jump: Reach,
) -> Vec<LedgeDrop> {
    if max_drop <= 0.0 {
        return Vec::new();
    }
    // No drop is deeper than the nodes' height span, however deep the
    // deepest drop taken (Quake's player takes any).
    let max_drop = max_drop.min(height_span(nav));
    let jump = Reach { max_drop, ..jump };
    let polys: Vec<Option<Vec<DVec2>>> = nav
        .nodes
        .iter()
        .map(|n| {
            let p = n.polygon.as_ref().filter(|p| p.len() >= 3)?;
            agent(n.stance)
                .is_some()
                .then(|| p.iter().map(|&v| plan(v)).collect())
        })
        .collect();
    let reach_of = |a: &AgentParams| max_gap(a.radius, a.radius, voxels.grid.cs, voxels.max_error);
    let widest = nav
        .nodes
        .iter()
        .filter_map(|n| agent(n.stance))
        .map(|a| reach_of(&a))
        .fold(voxels.grid.cs, f64::max);
    // Nodes by plan bucket of the widest reach.
    let bucket = |v: f64| floor_i64(v / widest);
    let mut buckets: HashMap<(i64, i64), Vec<u32>, Fold> = HashMap::default();
    for (i, t) in polys.iter().enumerate() {
        let Some(t) = t else { continue };
        let lo = t.iter().fold(t[0], |m, &v| m.min(v));
        let hi = t.iter().fold(t[0], |m, &v| m.max(v));
        for bx in bucket(lo.x)..=bucket(hi.x) {
            for bz in bucket(lo.y)..=bucket(hi.y) {
                buckets.entry((bx, bz)).or_default().push(i as u32);
            }
        }
    }
    // Only a standing agent jumps (a crouched or swimming one does not).
    let leaps_from = |st: Stance| st == Stance::Stand && jump.longest() > 0.0;
    let linked: HashSet<(u32, u32), Fold> = nav.links.iter().map(|l| (l.from, l.to)).collect();
    let cols = Columns::new(voxels.tiles);
    // The surfaces of other nodes over plan point `q`: (node, height).
    let surfaces = |me: usize, q: DVec2| -> Vec<(u32, f64)> {
        let Some(list) = buckets.get(&(bucket(q.x), bucket(q.y))) else {
            return Vec::new();
        };
        list.iter()
            .filter(|&&j| j as usize != me)
            .filter(|&&j| polys[j as usize].as_ref().is_some_and(|t| inside(t, q)))
            .filter_map(|&j| Some((j, node_height(&nav.nodes[j as usize], q)?)))
            .collect()
    };
    // A node's drops depend on no other node's (a pair starts at its node),
    // so the nodes are probed in parallel and their drops joined in node
    // order: the links are the same whatever the thread count.
    let of_node = |i: usize, t: &[DVec2]| -> Vec<LedgeDrop> {
        let mut out = Vec::new();
        // A swimmer does not drop: only a fall onto water lands on a swim
        // node.
        let Some(a) = agent(nav.nodes[i].stance).filter(|_| nav.nodes[i].stance != Stance::Swim)
        else {
            return out;
        };
        let mut made: HashSet<u32, Fold> = HashSet::default();
        let (step, reach) = (a.max_step + voxels.grid.ch, reach_of(&a));
        let area: f64 = (0..t.len())
            .map(|k| t[k].perp_dot(t[(k + 1) % t.len()]))
            .sum();
        let spacing = (2.0 * a.radius).max(2.0 * voxels.grid.cs);
        let delta = voxels.grid.cs * 0.5;
        for k in 0..t.len() {
            let (p, q) = (t[k], t[(k + 1) % t.len()]);
            let len = p.distance(q);
            if len == 0.0 {
                continue;
            }
            let d = (q - p) / len;
            // Outward: to the right of a counter-clockwise ring.
            let out_dir = DVec2::new(d.y, -d.x) * area.signum();
            let samples = (len / spacing).ceil().max(1.0) as usize;
            for s in 0..samples {
                let e = p + (q - p) * ((s as f64 + 0.5) / samples as f64);
                let Some(he) = node_height(&nav.nodes[i], e) else {
                    continue;
                };
                // The body's width, across the probe's line, and its
                // length along it where it falls: the whole body must be
                // off the edge and clear of what lies beyond it.
                let across = DVec2::new(-out_dir.y, out_dir.x);
                let body_room = |x: DVec2, top: f64, bottom: f64| {
                    let open = |q: DVec2| room(voxels, &cols, &a, q, top, Some(bottom));
                    open(x)
                        && fits_across(voxels.grid, x, across, a.radius, open)
                        && fits_across(voxels.grid, x, out_dir, a.radius, open)
                };
                let found = probe(
                    e,
                    out_dir,
                    he,
                    (step, max_drop),
                    (delta, reach),
                    |x| surfaces(i, x),
                    |x| room(voxels, &cols, &a, x, he, None),
                );
                let mut landings = Vec::new();
                let mut above = f64::NEG_INFINITY;
                if let Some((j, probe, h)) = found
                    && body_room(probe, he, h)
                {
                    landings.push((j, probe, h));
                    above = h;
                }
                if leaps_from(nav.nodes[i].stance) {
                    let ground_goes_on = surfaces(i, e + out_dir * delta)
                        .iter()
                        .any(|&(_, h)| (h - he).abs() <= step);
                    if !ground_goes_on {
                        landings.extend(leaps(
                            (e, out_dir, he),
                            &jump,
                            voxels.grid.cs,
                            above,
                            |x| surfaces(i, x),
                            |x, top| room(voxels, &cols, &a, x, top, None),
                            body_room,
                            |x, top| {
                                let open = |q: DVec2| room(voxels, &cols, &a, q, top, None);
                                fits_across(voxels.grid, x, across, a.radius, open)
                            },
                        ));
                    }
                }
                for (j, probe, h) in landings {
                    if linked.contains(&(i as u32, j)) || !made.insert(j) {
                        continue;
                    }
                    out.push(LedgeDrop {
                        from: i as u32,
                        to: j,
                        top: DVec3::new(e.x, he, e.y),
                        bottom: DVec3::new(probe.x, h, probe.y),
                    });
                }
            }
        }
        out
    };
    polys
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, t)| t.as_deref().map(|t| of_node(i, t)).unwrap_or_default())
        .collect()
}

/// The probe of the module docs from `e` (height `he`) along `dir`, in
/// steps of `delta` up to `reach`, for a drop deeper than `step` and at
/// most `max_drop`, while `walk_room` says the agent has room at the
/// edge's height: the landing's node, plan point and height, if any.
fn probe(
    e: DVec2,
    dir: DVec2,
    he: f64,
    (step, max_drop): (f64, f64),
    (delta, reach): (f64, f64),
    surfaces: impl Fn(DVec2) -> Vec<(u32, f64)>,
    walk_room: impl Fn(DVec2) -> bool,
) -> Option<(u32, DVec2, f64)> {
    let mut t = 0.0;
    while t <= reach + 1e-9 {
        let x = e + dir * t;
        if !walk_room(x) {
            return None;
        }
        if t == 0.0 {
            t += delta;
            continue;
        }
        let found = surfaces(x);
        if found.iter().any(|&(_, h)| h >= he - step) {
            return None;
        }
        if let Some(&(j, h)) = found
            .iter()
            .filter(|&&(_, h)| he - h <= max_drop)
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        {
            return Some((j, x, h));
        }
        if !found.is_empty() {
            return None;
        }
        t += delta;
    }
    None
}

/// The running-jump landings of the module docs from edge point `e`
/// (height `he`) along `dir`, probing every `pace` metres, higher than
/// `above`: node, plan point and height of each, nearest first. `room(x,
/// top, bottom)` is the clear-fall rule of [`room`] for column `x`, and
/// `fits(x, top)` says the body's width fits across the flight at `x` at
/// height `top` ([`fits_across`]); the flight is clear where both hold
/// along its line. `lands(x, top, floor)` says the body comes down at `x`
/// from `top` onto `floor`, its width and length clear.
#[allow(clippy::too_many_arguments)]
fn leaps(
    (e, dir, he): (DVec2, DVec2, f64),
    jump: &Reach,
    pace: f64,
    mut above: f64,
    surfaces: impl Fn(DVec2) -> Vec<(u32, f64)>,
    room: impl Fn(DVec2, f64) -> bool,
    lands: impl Fn(DVec2, f64, f64) -> bool,
    fits: impl Fn(DVec2, f64) -> bool,
) -> Vec<(u32, DVec2, f64)> {
    let longest = jump.longest();
    let mut out = Vec::new();
    let flight_clear = |to: DVec2, top: f64| {
        let n = (e.distance(to) / (pace * 0.5)).ceil().max(1.0) as usize;
        (0..n).all(|k| {
            let p = e.lerp(to, k as f64 / n as f64);
            room(p, top) && fits(p, top)
        })
    };
    let mut t = pace;
    while t <= longest + 1e-9 {
        let x = e + dir * t;
        let landing = surfaces(x)
            .into_iter()
            .filter(|&(_, h)| h > above && jump.lands(t, he - h))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        if let Some((j, h)) = landing {
            let top = he.max(h);
            if flight_clear(x, top) && lands(x, top, h) {
                out.push((j, x, h));
                above = h;
            }
        }
        if !room(x, he) && !room(x, he + jump.height) {
            break;
        }
        t += pace;
    }
    out
}

/// Height between the lowest and the highest vertex of `nav`'s node
/// polygons (0 with none): no drop is deeper.
fn height_span(nav: &NavMesh) -> f64 {
    let ys = nav
        .nodes
        .iter()
        .filter_map(|n| n.polygon.as_ref())
        .flatten()
        .map(|v| v.y);
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    (hi - lo).max(0.0)
}

/// Adds `drops` to `nav` as one-way jump links; their indices. A link
/// costs the length of its way (node centre, edge, landing, node centre)
/// plus `landing(drop)`, what its landing adds (a hurting fall's cost).
pub fn add_drop_links(
    nav: &mut NavMesh,
    drops: &[LedgeDrop],
    landing: impl Fn(&LedgeDrop) -> f64,
) -> Vec<usize> {
    drops
        .iter()
        .map(|d| {
            let cost = nav.nodes[d.from as usize].position.distance(d.top)
                + d.top.distance(d.bottom)
                + d.bottom.distance(nav.nodes[d.to as usize].position)
                + landing(d);
            nav.links.push(Link::new(
                d.from,
                d.to,
                LinkKind::Jump,
                cost,
                Some([d.top, d.bottom]),
            ));
            nav.links.len() - 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::MeshBuilder;
    use crate::settings::MAX_DROP;
    use navscope_core::ParamValue;
    use navscope_core::ParamValues;
    use navscope_core::level::{Level, LevelData};
    use navscope_core::{Artifact, StageContext};
    use proptest::prelude::*;

    /// The last stage's NavMesh of `b` built standing only, with `set`.
    fn navmesh(b: &MeshBuilder, set: &[(&str, f64)]) -> NavMesh {
        let level = Level {
            source: "test".into(),
            data: LevelData::Mesh(b.level()),
        };
        let pipeline = crate::pipeline();
        let mut params = ParamValues::defaults(&pipeline.params);
        let specs = &pipeline.params;
        params
            .set(specs, "passes", ParamValue::Text("stand".into()))
            .unwrap();
        params
            .set(specs, "reuse_tiles", ParamValue::Bool(false))
            .unwrap();
        for (k, v) in set {
            params.set(specs, k, ParamValue::Float(*v)).unwrap();
        }
        let mut done: Vec<(&'static str, Arc<dyn Artifact>)> = Vec::new();
        for stage in &pipeline.stages {
            let ctx = StageContext::new(&level, &params, done.clone());
            done.push((stage.info.id, (stage.run)(&ctx).unwrap()));
        }
        done.last().unwrap().1.navmesh().unwrap().clone()
    }

    /// A 4 x 4 m platform `high` metres up beside a 4 x 4 m floor, with
    /// an optional wall of `wall` metres between them.
    fn platform(high: f32, wall: Option<f32>) -> MeshBuilder {
        let mut b = MeshBuilder::new();
        b.solid("platform", [0., -0.1, 0.], [4., high, 4.]);
        let x = match wall {
            Some(w) => {
                b.solid("wall", [4., -0.1, 0.], [4. + w, 3., 4.]);
                4. + w
            }
            None => 4.,
        };
        b.solid("floor", [x, -0.1, 0.], [x + 4., 0., 4.]);
        b
    }

    fn drops(nav: &NavMesh) -> Vec<&Link> {
        nav.links
            .iter()
            .filter(|l| l.kind == LinkKind::Jump)
            .collect()
    }

    /// True when plan point `p` is within `tol` of node `n`'s polygon.
    fn on_node(nav: &NavMesh, n: u32, p: DVec3, tol: f64) -> bool {
        let t: Vec<DVec2> = nav.nodes[n as usize]
            .polygon
            .as_ref()
            .unwrap()
            .iter()
            .map(|&v| plan(v))
            .collect();
        let q = plan(p);
        inside(&t, q)
            || (0..t.len()).any(|k| {
                let (a, b) = (t[k], t[(k + 1) % t.len()]);
                let u = ((q - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                (a + (b - a) * u).distance(q) <= tol
            })
    }

    #[test]
    fn a_ledge_gives_one_way_drops_onto_the_floor_below_and_a_path_down_only() {
        let nav = navmesh(&platform(1.0, None), &[]);
        let d = drops(&nav);
        assert!(!d.is_empty(), "a 1 m ledge over a floor gives drop links");
        for l in &d {
            let [top, bottom] = l.segment().unwrap();
            let fall = top.y - bottom.y;
            assert!(fall > 0.5 && fall <= 2.0, "a drop of {fall} m");
            assert!(on_node(&nav, l.from, top, 1e-6), "the top is on its edge");
            assert!(
                on_node(&nav, l.to, bottom, 1e-6),
                "the landing is on its node"
            );
            assert!(
                !nav.links.iter().any(|r| r.from == l.to && r.to == l.from),
                "drops are one-way"
            );
            assert!(top.x < 4.0 && bottom.x > 4.0, "off the platform's edge");
        }
        let up = |n: u32| nav.nodes[n as usize].position.y > 0.5;
        let high = (0..nav.nodes.len() as u32).find(|&n| up(n)).unwrap();
        let low = (0..nav.nodes.len() as u32).find(|&n| !up(n)).unwrap();
        let reach = |from: u32, to: u32| {
            let opts = navscope_path::SearchOptions::default();
            let (a, b) = (
                nav.nodes[from as usize].position,
                nav.nodes[to as usize].position,
            );
            navscope_path::astar(&nav, from, to, a, b, &opts)
                .nodes
                .is_some()
        };
        assert!(reach(high, low), "down by the drop");
        assert!(!reach(low, high), "no way back up");
    }

    #[test]
    fn no_drop_deeper_than_the_max_through_a_wall_or_when_off() {
        assert!(
            drops(&navmesh(&platform(3.0, None), &[])).is_empty(),
            "3 m is deeper than 2 m"
        );
        assert!(!drops(&navmesh(&platform(3.0, None), &[(MAX_DROP, 3.5)])).is_empty());
        assert!(drops(&navmesh(&platform(1.0, None), &[(MAX_DROP, 0.0)])).is_empty());
        assert!(
            drops(&navmesh(&platform(1.0, Some(0.3)), &[])).is_empty(),
            "a wall 0.3 m thick, 3 m high, between the two"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// Drops exist where the ledge is deeper than a step and at most
        /// the max drop deep (with a voxel of rounding either side), and
        /// every drop goes down by that much.
        #[test]
        fn drops_follow_the_ledge_height(high in 0.2f32..3.5, max_drop in 0.5f64..3.0) {
            let nav = navmesh(&platform(high, None), &[(MAX_DROP, max_drop), ("cell_size", 0.2)]);
            let d = drops(&nav);
            let (step, ch) = (0.5, 0.05);
            let h = high as f64;
            if h > step + 2.0 * ch && h <= max_drop - 2.0 * ch {
                prop_assert!(!d.is_empty(), "a {h} m ledge, max drop {max_drop}");
            }
            if h <= step - ch || h > max_drop + 2.0 * ch {
                prop_assert!(d.is_empty(), "a {h} m ledge, max drop {max_drop}: {} drops", d.len());
            }
            for l in d {
                let [top, bottom] = l.segment().unwrap();
                prop_assert!(top.y - bottom.y > step && top.y - bottom.y <= max_drop);
            }
        }
    }
}
