//! The search: a [`Searcher`] keeps its buffers between queries, so a
//! query in steady state allocates nothing.
//!
//! Open-list items are
//! * an interval node: a root and an interval of an edge through which the
//!   root sees the polygon behind it (Cui et al.'s search node);
//! * a vertex root: a vertex reached as a corner of the free space (or
//!   straight through, when a ray meets it exactly); it is expanded into
//!   every polygon around the vertex that a taut path can turn into (the
//!   vertex sees all of each; see `TurnWedge`);
//! * a point root: the start, or a link's exit point, inside a polygon;
//! * a goal candidate: a complete path, ordered by its exact cost.
//!
//! `f` is the root's cost plus the paper's interval heuristic (the
//! distance from the root through the interval to the goal, reflected
//! across the interval's line when the goal is on the root's side), capped
//! by the cheapest way a teleport-like point link (cheaper than the plan
//! distance it spans) could lead to the goal, so the heuristic stays a
//! lower bound.
//! The first goal candidate taken off the list is optimal.
//!
//! Instead of the paper's non-observable successors (the part of the next
//! polygon hidden behind an interval's end), the hidden part is reached
//! from the end's vertex as a new root, when that vertex is a corner of the
//! free space; each vertex keeps the cheapest cost it was reached at and a
//! costlier arrival is pruned (the paper's root-level pruning). The same
//! covers the collinear cases: a ray that runs along an edge or meets a
//! vertex exactly continues from that vertex at the same cost.
//!
//! A gate (a link crossed like an edge, see `PolyMesh`'s `Gate`) is
//! looked through from a root as an edge is: the stretch of the gate the
//! root sees becomes an interval of the target polygon whose root is a
//! copy of the root that costs the gate's price more (a root has one
//! cost, and the price is paid once, on crossing); the gate's ends, where
//! seen, become point roots in the target for what hides behind them,
//! and the crossing is written as a waypoint on the gate's segment. The
//! gate adds as many successors as an edge would, so the search stays
//! bounded as over shared edges.
//!
//! Point roots are pruned the same way, by place: a link's exit point is
//! dropped when a point root already placed in its polygon reaches it
//! at most as cheaply in a straight line (`place_point`), so links that
//! all lead into one polygon start one search there, not one each.
//!
//! A dead-end polygon (one shared edge, no point link out, no pinched
//! vertex; see `PolyMesh::mark_dead_ends`) is not entered unless it holds
//! the goal: every way on from it leads back.
//!
//! Rounding: the mesh gives every vertex one position (module `mesh`),
//! an interval end within `INTERVAL_TOL` of an edge's vertex is the
//! vertex, an interval shorter than that is a ray meeting a point, and a
//! root that close to an edge's line sees the edge edge-on. Without
//! these, slivers one rounding error wide went round a vertex, or through
//! a ring of polygons, at one cost until the expansion limit.

use std::collections::BinaryHeap;

use glam::{DVec2, DVec3};
use navscope_core::geom::{orient_value, plan_to_world, world_to_plan};
use navscope_core::{LinkKind, NavMesh};
use serde::{Deserialize, Serialize};

use super::mesh::{Gate, NONE, PolyMesh};
use crate::crossing::landing;
use crate::find::PathError;
use crate::funnel::{Waypoint, path_length};
use crate::locate::Location;
use crate::open::Open;
use crate::search::SearchOptions;
use crate::surface::height_at;

/// The orientation of `a b c` as [`orient_value`] gives it (positive when
/// counter-clockwise), with that predicate's first, floating-point stage
/// inlined here: when the rounded determinant is larger than its error
/// bound it has the exact sign and is the value `orient_value` returns;
/// only the near-collinear rest pays for the call and the exact stages.
/// The search asks several orientations per successor, and the call was a
/// tenth of its time.
#[inline]
fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    let left = (a.x - c.x) * (b.y - c.y);
    let right = (a.y - c.y) * (b.x - c.x);
    let det = left - right;
    // The bound of the `robust` crate's `orient2d` (Ozaki et al.).
    const THETA: f64 = 3.3306690621773722e-16;
    if det.abs() > THETA * (left + right).abs() {
        det
    } else {
        orient_value(a, b, c)
    }
}

/// What one search step looked at, for a viewer (world coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceStep {
    /// What was expanded.
    pub kind: StepKind,
    /// The root: the point the paths of this node bend at last.
    pub root: DVec3,
    /// The interval's left end as the root sees it (the root again for
    /// roots and goals).
    pub left: DVec3,
    /// The interval's right end.
    pub right: DVec3,
    /// The NavMesh node entered (the root's node for roots).
    pub node: u32,
    /// Cost from the start to the root.
    pub g: f64,
    /// `g` plus the estimate to the goal.
    pub f: f64,
}

/// The kinds of [`TraceStep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// A root and an interval (the paper's search node).
    Interval,
    /// A vertex root, expanded into every polygon around it.
    Vertex,
    /// The start or a link's exit, expanded into its polygon.
    Point,
    /// The goal, reached: the search ends.
    Goal,
}

/// A path found by [`Searcher::find`], borrowing the searcher's buffers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnyAnglePath<'s> {
    /// Length along the waypoints (3D, metres).
    pub length: f64,
    /// What the search minimised: plan-view length plus the point links'
    /// costs (see the `polyanya` module docs).
    pub cost: f64,
    /// Items taken off the open list.
    pub expansions: usize,
    /// Start, every bend, link ends, goal.
    pub waypoints: &'s [Waypoint],
    /// Indices into the NavMesh's links of the point links taken, in order.
    pub links: &'s [usize],
    /// The recorded search, when asked for.
    pub trace: Option<&'s [TraceStep]>,
}

#[derive(Clone, Copy, Debug)]
struct Root {
    p: DVec2,
    g: f64,
    /// The root before, [`NONE`] for the start.
    parent: u32,
    /// The NavMesh link taken to get here, [`NONE`] when walked; for the
    /// root's copy that crosses a gate (see `PolyMesh`'s `Gate`; the copy
    /// stands where the root does and costs the gate's price more),
    /// [`GATE`] with the point link's index in [`PolyMesh::links`].
    link: u32,
    vertex: u32,
    poly: u32,
}

/// The flag of [`Root::link`] that marks a gate's copy of a root (a mesh
/// has fewer links than this).
const GATE: u32 = 1 << 31;

impl Root {
    /// The gate (its index in [`PolyMesh::links`]) this copy of a root
    /// crosses, if it is one.
    fn gate(&self) -> Option<u32> {
        (self.link != NONE && self.link & GATE != 0).then_some(self.link & !GATE)
    }
}

#[derive(Clone, Copy, Debug)]
enum Item {
    Interval {
        root: u32,
        left: DVec2,
        right: DVec2,
        poly: u32,
        /// The edge of `poly` the interval lies on, [`NONE`] when it lies
        /// on a gate.
        edge: u32,
    },
    Vertex {
        root: u32,
    },
    Point {
        root: u32,
    },
    Goal {
        root: u32,
    },
}

/// Where a cone from a root lets it see: everything (`None`, the root is
/// inside or on the boundary of the polygon), or between the rays through
/// `left` and `right`.
type Cone = Option<(DVec2, DVec2)>;

/// Cost from root `r` to `x` in a polygon seen through `cone`, and the
/// interval end the path bends at when `x` is outside the cone.
fn through_cone(r: DVec2, cone: Cone, x: DVec2) -> (f64, Option<DVec2>) {
    if let Some((left, right)) = cone {
        if orient(r, right, x) < 0.0 {
            return (r.distance(right) + right.distance(x), Some(right));
        }
        if orient(r, left, x) > 0.0 {
            return (r.distance(left) + left.distance(x), Some(left));
        }
    }
    (r.distance(x), None)
}

/// The paper's interval heuristic: the shortest way from `r` through the
/// interval `left right` on the line `a b` to the goal `t`, with `t`
/// reflected across the line when it is on `r`'s side; the straight
/// distance when `r` is on the line (it then sees the whole polygon).
fn interval_h(r: DVec2, left: DVec2, right: DVec2, a: DVec2, b: DVec2, t: DVec2) -> f64 {
    let side_r = orient(a, b, r);
    if side_r == 0.0 {
        return r.distance(t);
    }
    let side_t = orient(a, b, t);
    let t = if side_r * side_t > 0.0 {
        let ab = b - a;
        let foot = a + ab * ((t - a).dot(ab) / ab.length_squared());
        foot * 2.0 - t
    } else {
        t
    };
    through_cone(r, Some((left, right)), t).0
}

/// The per-query facts the expansion reads.
struct Query<'q> {
    pm: &'q PolyMesh,
    opts: &'q SearchOptions,
    goal: DVec2,
    goal_poly: u32,
    /// Lower bound on reaching the goal through any point link.
    via_links: f64,
}

impl Query<'_> {
    fn h(&self, p: DVec2) -> f64 {
        p.distance(self.goal).min(self.via_links)
    }

    /// May the search enter polygon `p`? (Its stance is not forbidden.)
    fn enters(&self, p: u32) -> bool {
        self.opts
            .stance_multiplier(self.pm.polys[p as usize].stance)
            .is_finite()
    }

    fn allows(&self, kind: LinkKind) -> bool {
        self.opts.allows(kind)
    }
}

/// Polyanya's reusable state (see the module docs). One searcher answers
/// any number of queries on any [`PolyMesh`]; its buffers grow to the
/// largest search and are then reused.
#[derive(Clone, Debug, Default)]
pub struct Searcher {
    roots: Vec<Root>,
    items: Vec<Item>,
    heap: BinaryHeap<Open>,
    vertex_best: Vec<f64>,
    vertex_stamp: Vec<u32>,
    /// The last point root placed in each polygon (stamped), an index into
    /// `points`: the point roots of a polygon as a list (see
    /// [`Searcher::place_point`]).
    poly_points: Vec<u32>,
    poly_stamp: Vec<u32>,
    /// Point roots placed: position, cost, the one placed before in the
    /// same polygon.
    points: Vec<(DVec2, f64, u32)>,
    stamp: u32,
    waypoints: Vec<Waypoint>,
    /// Per waypoint: true for a gate's crossing, which is kept even where
    /// it lies on a straight leg (the height changes there).
    crossings: Vec<bool>,
    links: Vec<usize>,
    trace: Vec<TraceStep>,
}

impl Searcher {
    /// An empty searcher.
    pub fn new() -> Self {
        Self::default()
    }

    /// The optimal path from `start` to `goal` (both located on `mesh`,
    /// whose search mesh `pm` is) by Polyanya; `record` keeps a
    /// [`TraceStep`] per expansion. Link kinds, forbidden stances (an
    /// infinite multiplier) and the expansion limit come from `opts`.
    pub fn find<'s>(
        &'s mut self,
        mesh: &NavMesh,
        pm: &PolyMesh,
        start: Location,
        goal: Location,
        opts: &SearchOptions,
        record: bool,
    ) -> Result<AnyAnglePath<'s>, PathError> {
        opts.check()
            .map_err(|problem| PathError::InvalidOptions { problem })?;
        let not_searchable = |node: u32| PathError::NotSearchable { node };
        let sp = *pm
            .node_poly
            .get(start.node as usize)
            .filter(|p| **p != NONE)
            .ok_or(not_searchable(start.node))?;
        let gp = *pm
            .node_poly
            .get(goal.node as usize)
            .filter(|p| **p != NONE)
            .ok_or(not_searchable(goal.node))?;
        self.reset(pm);
        let goal2 = world_to_plan(goal.point);
        // Only a link cheaper than the plan distance it spans (a
        // teleport) can beat the straight line to the goal.
        let via_links = pm
            .links
            .iter()
            .filter(|l| opts.allows(l.kind) && l.gate == NONE && l.cost < l.entry.distance(l.exit))
            .map(|l| l.cost + l.exit.distance(goal2))
            .fold(f64::INFINITY, f64::min);
        let q = Query {
            pm,
            opts,
            goal: goal2,
            goal_poly: gp,
            via_links,
        };
        let no_path = |expansions| PathError::NoConnection {
            start_node: start.node,
            goal_node: goal.node,
            expansions,
        };
        if !q.enters(sp) || !q.enters(gp) {
            return Err(no_path(0));
        }
        let s2 = world_to_plan(start.point);
        self.place_point(sp, s2, 0.0);
        let root = self.add_root(s2, 0.0, NONE, NONE, NONE, sp);
        self.push(Item::Point { root }, 0.0, q.h(s2));
        let mut expansions = 0;
        while let Some(top) = self.heap.pop() {
            if expansions >= opts.max_expansions {
                return Err(PathError::ExpansionLimit {
                    start_node: start.node,
                    goal_node: goal.node,
                    limit: opts.max_expansions,
                });
            }
            let item = self.items[top.item as usize];
            if self.stale(item) {
                continue;
            }
            expansions += 1;
            if record {
                let step = self.step(mesh, pm, item, top);
                self.trace.push(step);
            }
            match item {
                Item::Goal { root } => {
                    self.write_path(mesh, pm, root, start.point, goal.point);
                    return Ok(AnyAnglePath {
                        length: path_length(&self.waypoints),
                        cost: self.roots[root as usize].g,
                        expansions,
                        waypoints: &self.waypoints,
                        links: &self.links,
                        trace: record.then_some(&self.trace[..]),
                    });
                }
                Item::Point { root } => self.expand_point(&q, root),
                Item::Vertex { root } => self.expand_vertex(&q, root),
                Item::Interval {
                    root,
                    left,
                    right,
                    poly,
                    edge,
                } => self.expand_interval(&q, root, left, right, poly, edge),
            }
        }
        Err(no_path(expansions))
    }

    fn reset(&mut self, pm: &PolyMesh) {
        self.roots.clear();
        self.points.clear();
        self.items.clear();
        self.heap.clear();
        self.waypoints.clear();
        self.crossings.clear();
        self.links.clear();
        self.trace.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.vertex_stamp.fill(0);
            self.poly_stamp.fill(0);
            self.stamp = 1;
        }
        if self.vertex_stamp.len() < pm.verts.len() {
            self.vertex_stamp.resize(pm.verts.len(), 0);
            self.vertex_best.resize(pm.verts.len(), f64::INFINITY);
        }
        if self.poly_stamp.len() < pm.polys.len() {
            self.poly_stamp.resize(pm.polys.len(), 0);
            self.poly_points.resize(pm.polys.len(), NONE);
        }
    }

    /// True for an item whose vertex root was since reached more cheaply.
    fn stale(&self, item: Item) -> bool {
        let root = match item {
            Item::Interval { root, .. } | Item::Vertex { root } => root,
            _ => return false,
        };
        let r = &self.roots[root as usize];
        r.vertex != NONE && r.g > self.vertex_best[r.vertex as usize]
    }

    fn add_root(
        &mut self,
        p: DVec2,
        g: f64,
        parent: u32,
        link: u32,
        vertex: u32,
        poly: u32,
    ) -> u32 {
        self.roots.push(Root {
            p,
            g,
            parent,
            link,
            vertex,
            poly,
        });
        (self.roots.len() - 1) as u32
    }

    /// Places a point root at `p` in polygon `poly` at cost `g`, unless a
    /// point root placed there before is at least as good: one at `y`
    /// with cost `gy` and `gy + |y p| <= g` walks to `p` straight (the
    /// polygon is convex) and on from there as cheaply, so no shortest
    /// path needs the new root. Without it, links that all lead into one
    /// polygon (a pool's swim links join every pair of its polygons)
    /// each start a search of their own from nearly the same place.
    fn place_point(&mut self, poly: u32, p: DVec2, g: f64) -> bool {
        let pi = poly as usize;
        let head = if self.poly_stamp[pi] == self.stamp {
            self.poly_points[pi]
        } else {
            NONE
        };
        let mut at = head;
        while at != NONE {
            let (y, gy, before) = self.points[at as usize];
            if gy + y.distance(p) <= g {
                return false;
            }
            at = before;
        }
        self.points.push((p, g, head));
        self.poly_points[pi] = (self.points.len() - 1) as u32;
        self.poly_stamp[pi] = self.stamp;
        true
    }

    fn push(&mut self, item: Item, g: f64, h: f64) {
        self.items.push(item);
        self.heap
            .push(Open::new(g, h, (self.items.len() - 1) as u32));
    }

    /// Reaches vertex `v` from root `from` at cost `g`, unless it was
    /// reached at most as cheaply before.
    fn reach_vertex(&mut self, q: &Query, v: u32, g: f64, from: u32, poly: u32) {
        let vi = v as usize;
        if self.vertex_stamp[vi] == self.stamp && g >= self.vertex_best[vi] {
            return;
        }
        self.vertex_stamp[vi] = self.stamp;
        self.vertex_best[vi] = g;
        let p = q.pm.corner_pt_of_vertex(v);
        let root = self.add_root(p, g, from, NONE, v, poly);
        self.push(Item::Vertex { root }, g, q.h(p));
    }

    /// A root at interval end `p` of polygon `poly` on the way to
    /// something hidden from `from`.
    fn bend_root(&mut self, q: &Query, from: u32, p: DVec2, poly: u32) -> u32 {
        let r = self.roots[from as usize];
        let vertex = q.pm.vertex_at(poly, p);
        self.add_root(p, r.g + r.p.distance(p), from, NONE, vertex, poly)
    }

    /// The goal and the point links of polygon `poly`, seen from `root`
    /// through `cone`.
    fn targets(&mut self, q: &Query, root: u32, cone: Cone, poly: u32) {
        let r = self.roots[root as usize];
        if poly == q.goal_poly {
            let (c, via) = through_cone(r.p, cone, q.goal);
            let parent = via.map_or(root, |v| self.bend_root(q, root, v, poly));
            let g = r.g + c;
            let goal = self.add_root(q.goal, g, parent, NONE, NONE, poly);
            self.push(Item::Goal { root: goal }, g, 0.0);
        }
        let range = q.pm.polys[poly as usize].links_start..q.pm.polys[poly as usize].links_end;
        for li in range {
            let l = &q.pm.links[li as usize];
            if !q.allows(l.kind) || !q.enters(l.to) {
                continue;
            }
            if let Some(gate) = q.pm.gate(li) {
                self.through_gate(q, root, cone, poly, li, gate);
            } else {
                self.point_link(q, root, cone, poly, li, l.entry, l.exit);
            }
        }
    }

    /// The gates of polygon `poly` alone, from a root on its boundary.
    fn gates(&mut self, q: &Query, root: u32, poly: u32) {
        let range = q.pm.polys[poly as usize].links_start..q.pm.polys[poly as usize].links_end;
        for li in range {
            let l = &q.pm.links[li as usize];
            if let Some(gate) = q.pm.gate(li)
                && q.allows(l.kind)
                && q.enters(l.to)
            {
                self.through_gate(q, root, None, poly, li, gate);
            }
        }
    }

    /// Point link `li` out of `poly`, taken at `entry` and left at `exit`,
    /// from `root` seen through `cone`.
    #[allow(clippy::too_many_arguments)]
    fn point_link(
        &mut self,
        q: &Query,
        root: u32,
        cone: Cone,
        poly: u32,
        li: u32,
        entry: DVec2,
        exit: DVec2,
    ) {
        let r = self.roots[root as usize];
        let l = &q.pm.links[li as usize];
        let (c, via) = through_cone(r.p, cone, entry);
        let g = r.g + c + l.cost;
        if !self.place_point(l.to, exit, g) {
            return;
        }
        let parent = via.map_or(root, |v| self.bend_root(q, root, v, poly));
        let entry = self.add_root(entry, r.g + c, parent, NONE, NONE, poly);
        let exit = self.add_root(exit, g, entry, l.link, NONE, l.to);
        self.push(
            Item::Point { root: exit },
            g,
            q.h(self.roots[exit as usize].p),
        );
    }

    /// Gate `li` (point link `li` crossed like an edge) seen from `root`
    /// through `cone`: the stretch of the gate the root sees becomes an
    /// interval of the target polygon with a copy of the root that pays
    /// the gate's price, so the rays go on straight through it as through
    /// a shared edge; the gate's ends, where the root sees them, become
    /// point roots in the target for what hides behind them. A root on
    /// the gate's line crosses at the gate's point nearest to it.
    fn through_gate(&mut self, q: &Query, root: u32, cone: Cone, poly: u32, li: u32, gate: Gate) {
        let r = self.roots[root as usize];
        let l = &q.pm.links[li as usize];
        let (a, b) = (gate.a, gate.b);
        let side = side_of_edge(a, b, r.p);
        if side < 0.0 {
            // The root sees the source polygon through the gate's own
            // edge, from the polygon beside it on the same floor: the
            // gate is then a point link at its middle (a straight way
            // through it would turn back at the gate's line). Not for the
            // way back through the gate the root just came through: that
            // pays twice to stand where the root saw already.
            let back = r
                .gate()
                .and_then(|li| q.pm.gate(li))
                .is_some_and(|g| g.a == b && g.b == a);
            if !back {
                self.point_link(q, root, cone, poly, li, l.entry, l.exit);
            }
            return;
        }
        if side == 0.0 {
            let ab = b - a;
            let t = ((r.p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            let x = a.lerp(b, t);
            self.point_link(q, root, cone, poly, li, x, x);
            return;
        }
        let (t0, t1) = match cone {
            None => (0.0, 1.0),
            Some((left, right)) => {
                let (sa, sb) = (orient(r.p, right, a), orient(r.p, right, b));
                let (ua, ub) = (orient(r.p, left, a), orient(r.p, left, b));
                if (sa < 0.0 && sb < 0.0) || (ua > 0.0 && ub > 0.0) {
                    return;
                }
                let t0 = if sa >= 0.0 { 0.0 } else { sa / (sa - sb) };
                let t1 = if ub <= 0.0 { 1.0 } else { ua / (ua - ub) };
                (t0, t1)
            }
        };
        let (t0, t1) = (
            if t0 <= INTERVAL_TOL { 0.0 } else { t0 },
            if t1 >= 1.0 - INTERVAL_TOL { 1.0 } else { t1 },
        );
        if t1 < t0 {
            return;
        }
        let g = r.g + l.cost;
        let copy = self.add_root(r.p, g, root, GATE | li, NONE, r.poly);
        if t1 - t0 > INTERVAL_TOL {
            let right = if t0 == 0.0 { a } else { a.lerp(b, t0) };
            let left = if t1 == 1.0 { b } else { a.lerp(b, t1) };
            let h = interval_h(r.p, left, right, a, b, q.goal).min(q.via_links);
            self.push(
                Item::Interval {
                    root: copy,
                    left,
                    right,
                    poly: l.to,
                    edge: NONE,
                },
                g,
                h,
            );
        }
        for (p, seen) in [(a, t0 == 0.0), (b, t1 == 1.0)] {
            let ge = g + r.p.distance(p);
            if seen && self.place_point(l.to, p, ge) {
                let end = self.add_root(p, ge, copy, NONE, NONE, l.to);
                self.push(Item::Point { root: end }, ge, q.h(p));
            }
        }
    }

    /// The interval node into the polygon across edge `e` of `poly`, over
    /// the stretch `t0 ..= t1` of that edge, seen from `root`.
    fn successor(&mut self, q: &Query, root: u32, poly: u32, e: u32, t0: f64, t1: f64) {
        let pm = q.pm;
        let (ca, cb) = (pm.corner(poly, e), pm.corner(poly, e + 1));
        let (a, b) = (pm.corner_pt[ca], pm.corner_pt[cb]);
        // Ends within the tolerance of a vertex are the vertex, and an
        // interval shorter than the tolerance is a ray meeting the edge in
        // one point: computed ends are rounded, and a sliver kept alive
        // by rounding can circle a vertex at one cost without end.
        let (t0, t1) = (
            if t0 <= INTERVAL_TOL { 0.0 } else { t0 },
            if t1 >= 1.0 - INTERVAL_TOL { 1.0 } else { t1 },
        );
        let right = if t0 == 0.0 { a } else { a.lerp(b, t0) };
        let left = if t1 == 1.0 { b } else { a.lerp(b, t1) };
        let r = self.roots[root as usize];
        if t1 - t0 <= INTERVAL_TOL {
            // A ray meets the edge in one point: at a vertex it goes on
            // from there; inside the edge it is one of two rays already
            // followed on either side.
            for (p, c, at_end) in [(a, ca, t0 == 0.0), (b, cb, t1 == 1.0)] {
                if at_end {
                    self.reach_vertex(q, pm.corner_vert[c], r.g + r.p.distance(p), root, poly);
                }
            }
            return;
        }
        let next = pm.corner_nbr[ca];
        if next == NONE {
            // A wall: its visible ends lead on only where the free space
            // touches itself there.
            for (p, end, c) in [(a, right, ca), (b, left, cb)] {
                let v = pm.corner_vert[c];
                if p == end && pm.verts[v as usize].pinch {
                    self.reach_vertex(q, v, r.g + r.p.distance(p), root, poly);
                }
            }
            return;
        }
        if !q.enters(next)
            || !q.allows(pm.corner_kind[ca])
            || (pm.polys[next as usize].dead_end && next != q.goal_poly)
        {
            return;
        }
        let edge = pm.corner_nbr_edge[ca];
        let h = interval_h(r.p, left, right, a, b, q.goal).min(q.via_links);
        self.push(
            Item::Interval {
                root,
                left,
                right,
                poly: next,
                edge,
            },
            r.g,
            h,
        );
    }

    /// The start or a link's exit: everything in its polygon is visible.
    fn expand_point(&mut self, q: &Query, root: u32) {
        let r = self.roots[root as usize];
        let poly = r.poly;
        self.targets(q, root, None, poly);
        if poly == q.goal_poly {
            return;
        }
        let n = q.pm.polys[poly as usize].len;
        for e in 0..n {
            let (ca, cb) = (q.pm.corner(poly, e), q.pm.corner(poly, e + 1));
            let (a, b) = (q.pm.corner_pt[ca], q.pm.corner_pt[cb]);
            if r.p == a || r.p == b {
                // On a vertex: go on from the vertex itself.
                let c = if r.p == a { ca } else { cb };
                self.reach_vertex(q, q.pm.corner_vert[c], r.g, root, poly);
                return;
            }
        }
        for e in 0..n {
            self.full_edge(q, root, poly, e);
        }
    }

    /// The whole edge `e` of `poly` seen from a root inside or on the
    /// boundary of `poly`: an interval, or, when the root is on the edge's
    /// line, its two vertices.
    fn full_edge(&mut self, q: &Query, root: u32, poly: u32, e: u32) {
        let r = self.roots[root as usize];
        let (ca, cb) = (q.pm.corner(poly, e), q.pm.corner(poly, e + 1));
        let (a, b) = (q.pm.corner_pt[ca], q.pm.corner_pt[cb]);
        if side_of_edge(a, b, r.p) == 0.0 {
            // Where along the edge the root is (NaN for an edge of no
            // length, which leads on through its vertices).
            let ab = b - a;
            let t = (r.p - a).dot(ab) / ab.length_squared();
            if t.abs() <= INTERVAL_TOL || (t - 1.0).abs() <= INTERVAL_TOL {
                // The root is this edge's vertex: the polygons around a
                // vertex are expanded from the vertex (a ring of them
                // seen through each other's edges would go round forever
                // at one cost).
                let (p, c) = if t.abs() <= INTERVAL_TOL {
                    (a, ca)
                } else {
                    (b, cb)
                };
                self.reach_vertex(q, q.pm.corner_vert[c], r.g + r.p.distance(p), root, poly);
            } else if t > 0.0 && t < 1.0 {
                // The root is on this edge: the polygon across sees it too.
                self.successor(q, root, poly, e, 0.0, 1.0);
            } else {
                for c in [ca, cb] {
                    let p = q.pm.corner_pt[c];
                    self.reach_vertex(q, q.pm.corner_vert[c], r.g + r.p.distance(p), root, poly);
                }
            }
            return;
        }
        self.successor(q, root, poly, e, 0.0, 1.0);
    }

    /// A vertex root: into every polygon around the vertex that a taut
    /// path can turn into (see [`TurnWedge`]).
    fn expand_vertex(&mut self, q: &Query, root: u32) {
        let r = self.roots[root as usize];
        let v = r.vertex;
        let (s, e) = q.pm.verts[v as usize].incident;
        let from = (r.parent != NONE).then(|| self.roots[r.parent as usize].p);
        let wedge = from.and_then(|from| TurnWedge::new(q, v, r.p, from));
        for k in s..e {
            let (poly, i) = q.pm.incident[k as usize];
            if !q.enters(poly) {
                continue;
            }
            if wedge.is_some_and(|w| !w.admits((k - s) as usize)) {
                // The way on into a gate at this vertex bends at the gate's
                // end, whatever the polygons round it on this floor.
                self.gates(q, root, poly);
                continue;
            }
            self.targets(q, root, None, poly);
            if poly == q.goal_poly {
                continue;
            }
            let n = q.pm.polys[poly as usize].len;
            for j in 1..n - 1 {
                self.full_edge(q, root, poly, wrap(i + j, n));
            }
        }
    }

    /// The paper's successors of an interval node.
    fn expand_interval(
        &mut self,
        q: &Query,
        root: u32,
        left: DVec2,
        right: DVec2,
        poly: u32,
        edge: u32,
    ) {
        let r = self.roots[root as usize];
        let pm = q.pm;
        let n = pm.polys[poly as usize].len;
        // The root sees through the interval, or lies on it (within the
        // tolerance: a link's exit kept inside its polygon lands on an
        // edge up to rounding) and then sees the whole polygon.
        let side = side_of_edge(right, left, r.p);
        let along = (r.p - right).dot(left - right) / right.distance_squared(left);
        let cone = if side > 0.0 {
            Some((left, right))
        } else if side == 0.0 && (-INTERVAL_TOL..=1.0 + INTERVAL_TOL).contains(&along) {
            None
        } else {
            return;
        };
        self.targets(q, root, cone, poly);
        if poly == q.goal_poly {
            return;
        }
        // Interval ends at corners of the free space: what hides behind
        // them is reached from there (a gate's ends are point roots
        // already, see `through_gate`).
        if cone.is_some() && edge != NONE {
            let (cl, cr) = (pm.corner(poly, edge), pm.corner(poly, edge + 1));
            for (p, c) in [(right, cr), (left, cl)] {
                let v = pm.corner_vert[c];
                if pm.corner_pt[c] == p && pm.verts[v as usize].corner {
                    self.reach_vertex(q, v, r.g + r.p.distance(p), root, poly);
                }
            }
        }
        // Through a gate, the rays leave by any edge of `poly`: the
        // edges on the gate's line face the root and are passed over.
        let (first, skip) = if edge == NONE { (0, 0) } else { (edge, 1) };
        for j in skip..n {
            let e = wrap(first + j, n);
            let Some((left, right)) = cone else {
                self.full_edge(q, root, poly, e);
                continue;
            };
            let (ca, cb) = (pm.corner(poly, e), pm.corner(poly, e + 1));
            let (a, b) = (pm.corner_pt[ca], pm.corner_pt[cb]);
            let side = side_of_edge(a, b, r.p);
            if side < 0.0 {
                continue;
            }
            let (sa, sb) = (orient(r.p, right, a), orient(r.p, right, b));
            let (ua, ub) = (orient(r.p, left, a), orient(r.p, left, b));
            if side == 0.0 {
                // The edge lies on a ray from the root: its visible ends.
                for (c, s, u) in [(ca, sa, ua), (cb, sb, ub)] {
                    if s >= 0.0 && u <= 0.0 {
                        let p = pm.corner_pt[c];
                        self.reach_vertex(q, pm.corner_vert[c], r.g + r.p.distance(p), root, poly);
                    }
                }
                continue;
            }
            if (sa < 0.0 && sb < 0.0) || (ua > 0.0 && ub > 0.0) {
                continue;
            }
            let t0 = if sa >= 0.0 { 0.0 } else { sa / (sa - sb) };
            let t1 = if ub <= 0.0 { 1.0 } else { ua / (ua - ub) };
            if t0 <= t1 {
                self.successor(q, root, poly, e, t0, t1);
            }
        }
    }

    /// World position of root `r`.
    fn root_world(&self, mesh: &NavMesh, pm: &PolyMesh, r: &Root) -> DVec3 {
        if r.vertex != NONE {
            pm.verts[r.vertex as usize].p3
        } else {
            lift(mesh, pm.polys[r.poly as usize].node, r.p)
        }
    }

    /// The waypoints and links of the path ending at root `goal`.
    fn write_path(
        &mut self,
        mesh: &NavMesh,
        pm: &PolyMesh,
        goal: u32,
        start: DVec3,
        goal_pt: DVec3,
    ) {
        let mut at = goal;
        // The last root written: a gate is crossed on the way to it.
        let mut ahead = world_to_plan(goal_pt);
        while at != NONE {
            let r = self.roots[at as usize];
            if let Some(li) = r.gate() {
                let l = &pm.links[li as usize];
                if let Some(gate) = pm.gate(li) {
                    let mut node = pm.polys[l.to as usize].node;
                    let mut position = gate.crossing(r.p, ahead);
                    // A jump at a lip rises or falls there: the point on
                    // the floor entered first (the path is written from
                    // its end), then the one on the floor left (module
                    // `crossing`).
                    let source = mesh.links[l.link as usize].from;
                    let (from, to) = (&mesh.nodes[source as usize], &mesh.nodes[node as usize]);
                    if let Some([[takeoff, _], [on, _]]) = landing(l.kind, from, to, [position; 2])
                    {
                        if self.waypoints.last().is_some_and(|w| w.position == on) {
                            *self.crossings.last_mut().unwrap() = true;
                        } else {
                            self.waypoints.push(Waypoint {
                                position: on,
                                stance: to.stance,
                                node,
                            });
                            self.crossings.push(true);
                        }
                        (position, node) = (takeoff, source);
                    }
                    if self
                        .waypoints
                        .last()
                        .is_some_and(|w| w.position == position)
                    {
                        *self.crossings.last_mut().unwrap() = true;
                    } else {
                        self.waypoints.push(Waypoint {
                            position,
                            stance: mesh.nodes[node as usize].stance,
                            node,
                        });
                        self.crossings.push(true);
                    }
                }
                self.links.push(l.link as usize);
                at = r.parent;
                continue;
            }
            ahead = r.p;
            let node = pm.polys[r.poly as usize].node;
            let position = if at == goal {
                goal_pt
            } else if r.parent == NONE {
                start
            } else {
                self.root_world(mesh, pm, &r)
            };
            if self.waypoints.last().is_none_or(|w| w.position != position) {
                self.waypoints.push(Waypoint {
                    position,
                    stance: mesh.nodes[node as usize].stance,
                    node,
                });
                self.crossings.push(false);
            }
            if r.link != NONE {
                self.links.push(r.link as usize);
            }
            at = r.parent;
        }
        self.waypoints.reverse();
        self.crossings.reverse();
        self.links.reverse();
        // Vertices a ray went straight through are no bends.
        let mut k = 1;
        while k + 1 < self.waypoints.len() {
            let (a, b, c) = (
                world_to_plan(self.waypoints[k - 1].position),
                world_to_plan(self.waypoints[k].position),
                world_to_plan(self.waypoints[k + 1].position),
            );
            if !self.crossings[k] && orient(a, b, c) == 0.0 && (b - a).dot(c - b) > 0.0 {
                self.waypoints.remove(k);
                self.crossings.remove(k);
            } else {
                k += 1;
            }
        }
    }

    fn step(&self, mesh: &NavMesh, pm: &PolyMesh, item: Item, top: Open) -> TraceStep {
        let (kind, root, ends) = match item {
            Item::Interval {
                root,
                left,
                right,
                poly,
                ..
            } => (StepKind::Interval, root, Some((left, right, poly))),
            Item::Vertex { root } => (StepKind::Vertex, root, None),
            Item::Point { root } => (StepKind::Point, root, None),
            Item::Goal { root } => (StepKind::Goal, root, None),
        };
        let r = &self.roots[root as usize];
        let at = self.root_world(mesh, pm, r);
        let (left, right, node) = match ends {
            Some((l, rt, poly)) => {
                let node = pm.polys[poly as usize].node;
                (lift(mesh, node, l), lift(mesh, node, rt), node)
            }
            None => (at, at, pm.polys[r.poly as usize].node),
        };
        TraceStep {
            kind,
            root: at,
            left,
            right,
            node,
            g: r.g,
            f: f64::from_bits(top.f),
        }
    }
}

/// Relative length (a fraction of the edge) below which an interval is a
/// point and within which an interval's end is the edge's vertex: far
/// below any length that matters, far above the rounding of an end.
const INTERVAL_TOL: f64 = 1e-9;

/// Which side of edge `a b` point `p` is on, as [`orient_value`], but 0
/// when `p` is within [`INTERVAL_TOL`] of the edge's length of its line: a
/// root that close sees the edge edge-on. Vertices that are collinear in
/// the level are rarely collinear after rounding, and a root that sees a
/// collinear neighbour edge at an angle of a rounding error would look
/// through it into slivers that lead back to where they began.
fn side_of_edge(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let v = orient(a, b, p);
    if v.abs() <= INTERVAL_TOL * a.distance_squared(b) {
        0.0
    } else {
        v
    }
}

/// Tolerance of the turn test, in [`TurnWedge::angle`]'s units: it only
/// ever keeps more.
const TURN_EPS: f64 = 1e-9;

/// [`TurnWedge::angle`] of straight on.
const STRAIGHT: f64 = 2.0;

/// At most this many polygons around a vertex are sorted out; around a
/// vertex with more, every polygon is expanded.
const MAX_SECTORS: usize = 16;

/// The directions in which a path that reached vertex `v` straight from
/// `from` may go on and still be taut (locally shortest): the angle at `v`
/// between the way back to `from` and the way on must hold an obstacle
/// (a direction no enterable polygon covers), or else a shortcut past `v`
/// is shorter. Directions are measured at `v` from the way back to
/// `from`, counter-clockwise positive; a way on is taut when it is at
/// least `ccw` (the first obstacle direction counter-clockwise) or at most
/// `-cw` (the first clockwise). Straight on is always kept, so a ray that
/// meets a vertex exactly goes on. An optimal path is taut at every bend,
/// so the polygons wholly outside these directions are not expanded from
/// `v`. Directions a T-junction hides from the vertex's polygon list count
/// as obstacles, which only keeps more.
#[derive(Clone, Copy, Debug)]
struct TurnWedge {
    ccw: f64,
    cw: f64,
    /// Each polygon's directions at the vertex, in the vertex's
    /// [`PolyMesh::incident`] order (forbidden ones empty).
    sectors: [(f64, f64); MAX_SECTORS],
}

impl TurnWedge {
    fn new(q: &Query, v: u32, at: DVec2, from: DVec2) -> Option<Self> {
        let back = (from - at).try_normalize()?;
        let pm = q.pm;
        // Polygons of more than one floor round the vertex (joined by
        // shared edges, such as a swim between floors side by side in
        // plan) cover some directions twice, and the directions do not
        // tell which polygons border each other: expand them all.
        if pm.verts[v as usize].stacked {
            return None;
        }
        let (s, e) = pm.verts[v as usize].incident;
        let n = (e - s) as usize;
        if n > MAX_SECTORS {
            return None;
        }
        const EMPTY: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut sectors = [EMPTY; MAX_SECTORS];
        for (k, sector) in (s..e).zip(sectors.iter_mut()) {
            let (poly, i) = pm.incident[k as usize];
            if q.enters(poly) {
                let len = pm.polys[poly as usize].len;
                let next = pm.corner_pt[pm.corner(poly, i + 1)];
                let prev = pm.corner_pt[pm.corner(poly, i + len - 1)];
                let lo = Self::angle(back, next - at);
                let mut hi = Self::angle(back, prev - at);
                if hi < lo {
                    hi += 2.0 * STRAIGHT;
                }
                *sector = (lo, hi);
            }
        }
        let sectors_n = &sectors[..n];
        // Sweep outward from the way back over the free directions until
        // a gap: the first obstacle on each side.
        let mut ccw = 0.0;
        while ccw < STRAIGHT {
            let reach = sectors_n
                .iter()
                .filter(|&&(lo, hi)| lo <= ccw + TURN_EPS && hi > ccw + TURN_EPS)
                .map(|&(_, hi)| hi)
                .fold(f64::NEG_INFINITY, f64::max);
            if reach == f64::NEG_INFINITY {
                break;
            }
            ccw = reach;
        }
        let mut cw = 0.0;
        while cw < STRAIGHT {
            // A sector past straight on, seen from the other side.
            let reach = sectors_n
                .iter()
                .flat_map(|&(lo, hi)| [(lo, hi), (lo - 2.0 * STRAIGHT, hi - 2.0 * STRAIGHT)])
                .filter(|&(lo, hi)| hi >= -cw - TURN_EPS && lo < -cw - TURN_EPS)
                .map(|(lo, _)| -lo)
                .fold(f64::NEG_INFINITY, f64::max);
            if reach == f64::NEG_INFINITY {
                break;
            }
            cw = reach;
        }
        Some(TurnWedge {
            ccw: ccw.min(STRAIGHT),
            cw: cw.min(STRAIGHT),
            sectors,
        })
    }

    /// A monotone stand-in for the angle of `d` from `back` (the "diamond
    /// angle"): in `(-2, 2]`, 0 along `back`, 1 at a right angle
    /// counter-clockwise, 2 straight opposite; no trigonometry.
    fn angle(back: DVec2, d: DVec2) -> f64 {
        let (x, y) = (back.dot(d), back.perp_dot(d));
        let t = x.abs() + y.abs();
        if t == 0.0 {
            return 0.0;
        }
        let a = 1.0 - x / t;
        if y >= 0.0 { a } else { -a }
    }

    /// Whether the `k`-th polygon around the vertex holds a taut way on.
    fn admits(&self, k: usize) -> bool {
        let (lo, hi) = self.sectors[k];
        lo <= hi && (hi >= self.ccw - TURN_EPS || lo <= -self.cw + TURN_EPS)
    }
}

/// `i` modulo `n` for `i < 2 n` (an edge index counted on from another),
/// without a division.
#[inline]
fn wrap(i: u32, n: u32) -> u32 {
    if i >= n { i - n } else { i }
}

/// World point of plan point `p` on polygon node `node`'s surface.
pub(crate) fn lift(mesh: &NavMesh, node: u32, p: DVec2) -> DVec3 {
    let y = mesh
        .nodes
        .get(node as usize)
        .and_then(|n| n.polygon.as_deref())
        .map_or(0.0, |poly| height_at(poly, p.x, -p.y));
    plan_to_world(p, y)
}
