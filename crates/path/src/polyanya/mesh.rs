//! The search's view of a NavMesh: plan-view polygons with their
//! neighbours across each edge, shared vertices, and the links that are not
//! shared edges (jumps, ladders, teleports, ...), all built once per mesh.
//!
//! * Polygons are the NavMesh's polygon nodes seen from above, in plan
//!   coordinates (`world_to_plan`), counter-clockwise; point nodes and
//!   polygons of zero area are left out.
//! * Two polygons are neighbours across an edge when links of a walking
//!   kind ([`is_walking`]) join them both ways and their plan edges
//!   overlap along a stretch of positive length, the polygons on either
//!   side of it (the edges run opposite ways). Adjacency, not plan
//!   position, decides, so floors over each other stay apart; and
//!   polygons over each other in plan whose edges happen to lie on one
//!   line (a swim link from a pool up to the floor over it) are not
//!   neighbours but a point link: seen as neighbours, the search looked
//!   across the edge for a polygon that lies on its own side and found
//!   nothing beyond. Where several polygons claim one stretch of an edge
//!   (a floor beside it and a ledge over that floor, both joined to it),
//!   the one nearest in height takes it and the others are point links.
//!   Where one polygon's edge meets several neighbours (a T-junction) the
//!   edge is split at the neighbours' corners, so every edge piece has
//!   one polygon on each side.
//! * Vertices: the corners of neighbouring polygons that meet are one
//!   vertex, and so are corners with exactly the same 3D coordinates (free
//!   space touching itself at a point on one floor). A vertex is a corner of
//!   the free space (where a shortest path may bend) when an edge at it has
//!   no neighbour. Every corner takes its vertex's position, so the
//!   polygons round a vertex agree on where it is (orientation tests are
//!   exact, and two positions a rounding error apart would let a ray pass
//!   between them); an edge is never cut within the tolerance of its end,
//!   which would leave a piece of no length.
//! * Every other link between two polygons (other kinds, a walking link
//!   one way only, one whose stretch another polygon took, one between
//!   polygons that share no edge) is crossed by the rule A* with the
//!   funnel follows too (module `crossing`): a link crossed anywhere along
//!   its segment (a door, a lip, the stretch a one-way walk shares) is a
//!   gate ([`Gate`]), and the source polygon's vertices at a gate's ends
//!   are corners (a path may bend there into the gate); any other is a
//!   point link, from an entry point in its source polygon to an exit
//!   point in its target (a jump's takeoff and landing, a segment's
//!   middle, the node positions), at the link's cost (module docs of
//!   `polyanya`); a walking link's cost is the plan distance from its
//!   entry to its exit (its `cost` field is the length from node to node,
//!   which would count the walk twice).

use std::collections::{HashMap, HashSet};

use glam::{DVec2, DVec3};
use navscope_core::geom::{orient_value, world_to_plan};
use navscope_core::{LinkKind, NavMesh, Stance};

use crate::adjacency::{LINE_TOL, is_walking, overlap};
use crate::crossing::{Crossing, clamp_into, crossing_with, plan_polygon};
use crate::search::{above_walk, link_middle};

/// "No index".
pub(crate) const NONE: u32 = u32::MAX;

/// One searchable polygon: corners `start .. start + len` of the flat
/// corner arrays; edge `i` runs from corner `i` to corner `i + 1`.
#[derive(Clone, Debug)]
pub(crate) struct Poly {
    /// The NavMesh node.
    pub node: u32,
    /// Stance of the node (for the search's forbidden stances).
    pub stance: Stance,
    /// First corner.
    pub start: u32,
    /// Number of corners.
    pub len: u32,
    /// First point link leaving this polygon (into [`PolyMesh::links`]).
    pub links_start: u32,
    /// One past the last.
    pub links_end: u32,
    /// A dead end: one edge with a neighbour, no point link out, no vertex
    /// where the free space touches itself. A search that enters it across
    /// that edge can only come back (see [`PolyMesh::mark_dead_ends`]).
    pub dead_end: bool,
}

/// A link that is not a shared edge.
#[derive(Clone, Debug)]
pub(crate) struct PointLink {
    /// Index into the NavMesh's links.
    pub link: u32,
    /// Its kind.
    pub kind: LinkKind,
    /// Target polygon.
    pub to: u32,
    /// Where the agent takes the link, in the source polygon (plan).
    pub entry: DVec2,
    /// Where it arrives, in the target polygon (plan).
    pub exit: DVec2,
    /// The link's cost, paid on top of the walked length.
    pub cost: f64,
    /// For a link crossed like an edge, its crossing segment (see
    /// [`Gate`]), an index into [`PolyMesh::gates`]; [`NONE`] for a point
    /// link. (Kept apart: the search reads the links often, the gates
    /// rarely.)
    pub gate: u32,
}

/// The crossing segment of a link that is crossed like an edge (rule 1
/// of module `crossing`): in plan it lies on an edge of the source
/// polygon, and the target lies beyond it (a door, a lip, a portal on
/// another floor). The agent leaves the source anywhere along the
/// segment and goes on straight from there, as the funnel crosses a
/// portal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gate {
    /// Plan ends, in the direction the source polygon's edge runs (the
    /// source on its left, the target on its right).
    pub a: DVec2,
    pub b: DVec2,
    /// World ends, in the same order.
    pub a3: DVec3,
    pub b3: DVec3,
}

impl Gate {
    /// The gate of a crossing `[left, right]` crossed anywhere
    /// (`crossing::Crossing::Edge`).
    fn of([left, right]: [DVec3; 2]) -> Gate {
        Gate {
            a: world_to_plan(right),
            b: world_to_plan(left),
            a3: right,
            b3: left,
        }
    }

    /// World point where the plan line from `r` to `t` crosses the gate
    /// (clamped to the gate; its middle when the line runs along it).
    pub fn crossing(&self, r: DVec2, t: DVec2) -> DVec3 {
        let (oa, ob) = (orient_value(r, t, self.a), orient_value(r, t, self.b));
        let u = if oa == ob {
            0.5
        } else {
            (oa / (oa - ob)).clamp(0.0, 1.0)
        };
        self.a3.lerp(self.b3, u)
    }
}

/// A vertex of the mesh.
#[derive(Clone, Debug)]
pub(crate) struct Vertex {
    /// Plan position (of its first corner).
    pub p: DVec2,
    /// World position (of its first corner).
    pub p3: DVec3,
    /// True when an edge at the vertex has no neighbour.
    pub corner: bool,
    /// True when the free space touches itself here: more than one edge
    /// without a neighbour leaves the vertex.
    pub pinch: bool,
    /// True when the polygons round the vertex cover some directions
    /// twice (their angles at it add up to more than a full turn):
    /// polygons of more than one floor, joined by shared edges round it.
    pub stacked: bool,
    /// Range into [`PolyMesh::incident`].
    pub incident: (u32, u32),
}

/// The plan-view mesh Polyanya searches (see the module docs). Build it
/// once per NavMesh with [`PolyMesh::new`] and keep it beside the mesh.
#[derive(Clone, Debug, Default)]
pub struct PolyMesh {
    pub(crate) polys: Vec<Poly>,
    /// Polygon of each NavMesh node, [`NONE`] when it cannot be searched.
    pub(crate) node_poly: Vec<u32>,
    /// Plan position of every corner.
    pub(crate) corner_pt: Vec<DVec2>,
    /// Vertex of every corner.
    pub(crate) corner_vert: Vec<u32>,
    /// Polygon across the edge that starts at each corner, or [`NONE`].
    pub(crate) corner_nbr: Vec<u32>,
    /// The edge's index in that neighbour.
    pub(crate) corner_nbr_edge: Vec<u32>,
    /// Kind of the link that made the edge shared (for kind filters).
    pub(crate) corner_kind: Vec<LinkKind>,
    pub(crate) verts: Vec<Vertex>,
    /// `(polygon, corner index within it)` around each vertex.
    pub(crate) incident: Vec<(u32, u32)>,
    pub(crate) links: Vec<PointLink>,
    /// The gates' segments (see [`PointLink::gate`]).
    pub(crate) gates: Vec<Gate>,
}

/// Union-find root with path halving.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        parent[i as usize] = parent[parent[i as usize] as usize];
        i = parent[i as usize];
    }
    i
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

/// Per-polygon data gathered before the corner arrays are laid out.
struct Draft {
    node: u32,
    plan: Vec<DVec2>,
    world: Vec<DVec3>,
    /// Per original edge: `(t0, t1, neighbour polygon, kind)` stretches.
    shared: Vec<Vec<(f64, f64, u32, LinkKind)>>,
}

/// The stretches where two polygons' edges overlap (see [`overlap`]):
/// `(polygon, edge, t0, t1, other polygon)`, recorded on both sides, and
/// how far apart in height the two edges are at the stretches' middles
/// (the largest), which decides between polygons that claim one stretch.
struct Pair {
    stretches: Vec<(u32, usize, f64, f64, u32)>,
    gap: f64,
    kind: LinkKind,
}

impl Pair {
    /// The overlaps of polygons `key`, `None` when their edges share no
    /// stretch of positive length.
    fn of(drafts: &[Draft], key: (u32, u32), kind: LinkKind) -> Option<Pair> {
        let mut stretches = Vec::new();
        let mut gap = 0.0f64;
        for (x, y) in [key, (key.1, key.0)] {
            let (dx, dy) = (&drafts[x as usize], &drafts[y as usize]);
            let (nx, ny) = (dx.plan.len(), dy.plan.len());
            for i in 0..nx {
                let (a, b) = (dx.plan[i], dx.plan[(i + 1) % nx]);
                for j in 0..ny {
                    let (c, d) = (dy.plan[j], dy.plan[(j + 1) % ny]);
                    if let Some((t0, t1)) = overlap(a, b, c, d) {
                        let t = (t0 + t1) * 0.5;
                        let here = dx.world[i].lerp(dx.world[(i + 1) % nx], t);
                        let cd = d - c;
                        let u = ((a.lerp(b, t) - c).dot(cd) / cd.length_squared()).clamp(0.0, 1.0);
                        let there = dy.world[j].lerp(dy.world[(j + 1) % ny], u);
                        gap = gap.max((here.y - there.y).abs());
                        stretches.push((x, i, t0, t1, y));
                    }
                }
            }
        }
        (!stretches.is_empty()).then_some(Pair {
            stretches,
            gap,
            kind,
        })
    }
}

/// Records the shared stretches on the drafts' edges, one neighbour per
/// stretch: where several polygons' edges lie on one edge stretch (a
/// floor beside a cell and a ledge over that floor, both joined to it by
/// walking links), the pair nearest in height takes it and the others
/// become point links. Returns the pairs that share an edge.
fn claim_edges(
    drafts: &mut [Draft],
    pairs: HashMap<(u32, u32), Option<Pair>>,
) -> HashSet<(u32, u32)> {
    let mut order: Vec<((u32, u32), Pair)> = pairs
        .into_iter()
        .filter_map(|(k, p)| p.map(|p| (k, p)))
        .collect();
    order.sort_by(|a, b| a.1.gap.total_cmp(&b.1.gap).then(a.0.cmp(&b.0)));
    let mut shared = HashSet::new();
    for (key, pair) in order {
        let taken = pair.stretches.iter().any(|&(x, i, t0, t1, _)| {
            drafts[x as usize].shared[i]
                .iter()
                .any(|&(s0, s1, _, _)| s0.max(t0) < s1.min(t1) - LINE_TOL)
        });
        if taken {
            continue;
        }
        for (x, i, t0, t1, y) in pair.stretches {
            drafts[x as usize].shared[i].push((t0, t1, y, pair.kind));
        }
        shared.insert(key);
    }
    shared
}

impl PolyMesh {
    /// Builds the search mesh of `mesh` (see the module docs). Never fails:
    /// nodes that cannot be searched are left out ([`PolyMesh::searchable`]
    /// is false for them).
    pub fn new(mesh: &NavMesh) -> Self {
        let mut node_poly = vec![NONE; mesh.nodes.len()];
        let mut drafts: Vec<Draft> = Vec::new();
        for (i, n) in mesh.nodes.iter().enumerate() {
            let Some((plan, world)) = n.polygon.as_deref().and_then(plan_polygon) else {
                continue;
            };
            node_poly[i] = drafts.len() as u32;
            drafts.push(Draft {
                node: i as u32,
                shared: vec![Vec::new(); plan.len()],
                plan,
                world,
            });
        }
        // Shared stretches from walking links: each pair of polygons a
        // walking link joins, with the stretches where their edges overlap.
        // An edge is crossed both ways, so only pairs joined both ways (the
        // kind of the first link found) can share one; a walking link one
        // way only (a step down with no way back) is a point link.
        let mut ways: HashMap<(u32, u32), (LinkKind, u8)> = HashMap::new();
        for l in &mesh.links {
            let (Some(&p), Some(&q)) =
                (node_poly.get(l.from as usize), node_poly.get(l.to as usize))
            else {
                continue;
            };
            if p != NONE && q != NONE && p != q && is_walking(l.kind) {
                let way = if p < q { 1 } else { 2 };
                ways.entry((p.min(q), p.max(q))).or_insert((l.kind, 0)).1 |= way;
            }
        }
        let pairs = ways
            .into_iter()
            .filter(|(_, (_, w))| *w == 3)
            .map(|(key, (kind, _))| (key, Pair::of(&drafts, key, kind)))
            .collect();
        let shared = claim_edges(&mut drafts, pairs);
        let mut point_links: Vec<(u32, usize)> = Vec::new();
        for (li, l) in mesh.links.iter().enumerate() {
            let (Some(&p), Some(&q)) =
                (node_poly.get(l.from as usize), node_poly.get(l.to as usize))
            else {
                continue;
            };
            if p == NONE || q == NONE || p == q {
                continue;
            }
            if !(is_walking(l.kind) && shared.contains(&(p.min(q), p.max(q)))) {
                point_links.push((p, li));
            }
        }
        let mut pm = PolyMesh {
            node_poly,
            ..Self::default()
        };
        let world = pm.lay_out(mesh, &drafts);
        pm.join_vertices(&world);
        pm.add_point_links(mesh, &drafts, point_links);
        pm.mark_gate_ends();
        pm.mark_dead_ends();
        pm
    }

    /// Marks the dead ends. Entering one across its only shared edge, a
    /// search finds nothing it could not find without: every way on from
    /// it leads back across that edge, and the polygons round the edge's
    /// ends are the polygon and the one it was entered from (its other
    /// edges at those ends are walls and the free space does not touch
    /// itself there), so a bend at them sees nothing new. Polyanya skips
    /// them unless they hold the goal (Cui et al. prune dead ends the
    /// same way).
    fn mark_dead_ends(&mut self) {
        for p in 0..self.polys.len() as u32 {
            let poly = &self.polys[p as usize];
            let corners = (0..poly.len).map(|i| self.corner(p, i));
            let shared = corners
                .clone()
                .filter(|&c| self.corner_nbr[c] != NONE)
                .count();
            let pinched = corners
                .clone()
                .any(|c| self.verts[self.corner_vert[c] as usize].pinch);
            let dead = shared == 1 && poly.links_start == poly.links_end && !pinched;
            self.polys[p as usize].dead_end = dead;
        }
    }

    /// Corner arrays: every edge split at the ends of its shared stretches.
    /// Returns each corner's world position.
    fn lay_out(&mut self, mesh: &NavMesh, drafts: &[Draft]) -> Vec<DVec3> {
        let mut world = Vec::new();
        for d in drafts {
            let start = self.corner_pt.len() as u32;
            let n = d.plan.len();
            for i in 0..n {
                let (a, b) = (d.plan[i], d.plan[(i + 1) % n]);
                let mut cuts: Vec<f64> = vec![0.0];
                for (t0, t1, _, _) in &d.shared[i] {
                    // A cut within the tolerance of an end would leave a
                    // piece that the vertices' one position shrinks to
                    // nothing: an edge of zero length.
                    cuts.extend(
                        [*t0, *t1]
                            .into_iter()
                            .filter(|t| *t > LINE_TOL && *t < 1.0 - LINE_TOL),
                    );
                }
                cuts.sort_by(f64::total_cmp);
                cuts.dedup_by(|x, y| (*x - *y).abs() <= LINE_TOL);
                for (k, t) in cuts.iter().enumerate() {
                    let next = cuts.get(k + 1).copied().unwrap_or(1.0);
                    let mid = (t + next) * 0.5;
                    let across = d.shared[i]
                        .iter()
                        .find(|(t0, t1, _, _)| *t0 <= mid && mid <= *t1);
                    self.corner_pt
                        .push(if *t == 0.0 { a } else { a.lerp(b, *t) });
                    world.push(d.world[i].lerp(d.world[(i + 1) % n], *t));
                    self.corner_nbr.push(across.map_or(NONE, |s| s.2));
                    self.corner_kind
                        .push(across.map_or(LinkKind::Walk, |s| s.3));
                }
            }
            let len = self.corner_pt.len() as u32 - start;
            self.polys.push(Poly {
                node: d.node,
                stance: mesh.nodes[d.node as usize].stance,
                start,
                len,
                links_start: 0,
                links_end: 0,
                dead_end: false,
            });
        }
        self.corner_nbr_edge = vec![NONE; self.corner_pt.len()];
        world
    }

    /// The corners of polygon `p`.
    pub(crate) fn corners(&self, p: u32) -> &[DVec2] {
        let poly = &self.polys[p as usize];
        &self.corner_pt[poly.start as usize..(poly.start + poly.len) as usize]
    }

    /// Global corner index of corner `i` (taken modulo the length; `i`
    /// is below twice the length, as every caller's "next" or "previous"
    /// corner is) of `p`. A subtraction, not a division: the search asks
    /// this twice per edge it looks at, and the division was a tenth of
    /// its time.
    #[inline]
    pub(crate) fn corner(&self, p: u32, i: u32) -> usize {
        let poly = &self.polys[p as usize];
        debug_assert!(i < 2 * poly.len, "corner {i} of a {}-gon", poly.len);
        let i = if i >= poly.len { i - poly.len } else { i };
        (poly.start + i) as usize
    }

    /// Matches every shared edge piece with its twin, and merges corners into
    /// vertices.
    fn join_vertices(&mut self, world: &[DVec3]) {
        let total = self.corner_pt.len();
        let mut parent: Vec<u32> = (0..total as u32).collect();
        let scale = |p: DVec2| LINE_TOL * p.abs().max_element().max(1.0);
        for p in 0..self.polys.len() as u32 {
            let n = self.polys[p as usize].len;
            for i in 0..n {
                let c = self.corner(p, i);
                let q = self.corner_nbr[c];
                if q == NONE {
                    continue;
                }
                let (a, b) = (self.corner_pt[c], self.corner_pt[self.corner(p, i + 1)]);
                let m = self.polys[q as usize].len;
                let twin = (0..m).find(|&j| {
                    let (c2, d2) = (
                        self.corner_pt[self.corner(q, j)],
                        self.corner_pt[self.corner(q, j + 1)],
                    );
                    self.corner_nbr[self.corner(q, j)] == p
                        && c2.distance(b) <= scale(b)
                        && d2.distance(a) <= scale(a)
                });
                match twin {
                    Some(j) => {
                        self.corner_nbr_edge[c] = j;
                        union(&mut parent, c as u32, self.corner(q, j + 1) as u32);
                        union(
                            &mut parent,
                            self.corner(p, i + 1) as u32,
                            self.corner(q, j) as u32,
                        );
                    }
                    None => self.corner_nbr[c] = NONE,
                }
            }
        }
        // Corners of one floor at exactly the same point are one vertex.
        let mut same: HashMap<[u64; 3], u32> = HashMap::new();
        for (c, w) in world.iter().enumerate() {
            let key = [w.x.to_bits(), w.y.to_bits(), w.z.to_bits()];
            let first = *same.entry(key).or_insert(c as u32);
            union(&mut parent, first, c as u32);
        }
        let mut vert_of_root: HashMap<u32, u32> = HashMap::new();
        self.corner_vert = vec![NONE; total];
        let mut members: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut walls: Vec<u32> = Vec::new();
        for p in 0..self.polys.len() as u32 {
            for i in 0..self.polys[p as usize].len {
                let c = self.corner(p, i);
                let r = find(&mut parent, c as u32);
                let v = *vert_of_root.entry(r).or_insert_with(|| {
                    self.verts.push(Vertex {
                        p: self.corner_pt[c],
                        p3: world[c],
                        corner: false,
                        pinch: false,
                        stacked: false,
                        incident: (0, 0),
                    });
                    members.push(Vec::new());
                    walls.push(0);
                    (self.verts.len() - 1) as u32
                });
                self.corner_vert[c] = v;
                // One position per vertex: the polygons around it agree on
                // where it is, so orientation tests against a shared edge
                // or vertex give the same answer from every side.
                self.corner_pt[c] = self.verts[v as usize].p;
                members[v as usize].push((p, i));
                let prev = self.corner(p, i + self.polys[p as usize].len - 1);
                if self.corner_nbr[c] == NONE || self.corner_nbr[prev] == NONE {
                    self.verts[v as usize].corner = true;
                }
                if self.corner_nbr[c] == NONE {
                    walls[v as usize] += 1;
                }
            }
        }
        for (v, w) in walls.into_iter().enumerate() {
            self.verts[v].pinch = w > 1;
        }
        for (v, m) in members.into_iter().enumerate() {
            let turn: f64 = m
                .iter()
                .map(|&(p, i)| {
                    let len = self.polys[p as usize].len;
                    let at = self.corner_pt[self.corner(p, i)];
                    let next = self.corner_pt[self.corner(p, i + 1)] - at;
                    let prev = self.corner_pt[self.corner(p, i + len - 1)] - at;
                    next.perp_dot(prev).atan2(next.dot(prev))
                })
                .sum();
            self.verts[v].stacked = turn > std::f64::consts::TAU + 1e-9;
            let s = self.incident.len() as u32;
            self.incident.extend(m);
            self.verts[v].incident = (s, self.incident.len() as u32);
        }
    }

    /// Makes the vertices of the source polygon at a gate's ends corners:
    /// a path may bend there into the gate (from the polygon beside the
    /// gate on the same floor, touching the source only at that vertex)
    /// even where no wall meets the vertex.
    fn mark_gate_ends(&mut self) {
        for p in 0..self.polys.len() as u32 {
            let poly = &self.polys[p as usize];
            for li in poly.links_start..poly.links_end {
                let Some(gate) = self.gate(li) else {
                    continue;
                };
                for end in [gate.a, gate.b] {
                    let near = (0..self.polys[p as usize].len)
                        .map(|i| self.corner(p, i))
                        .find(|&c| {
                            self.corner_pt[c].distance(end)
                                <= LINE_TOL * end.abs().max_element().max(1.0)
                        });
                    if let Some(c) = near {
                        let v = self.corner_vert[c] as usize;
                        self.verts[v].corner = true;
                    }
                }
            }
        }
    }

    /// Point links and gates, grouped by source polygon.
    fn add_point_links(&mut self, mesh: &NavMesh, drafts: &[Draft], mut found: Vec<(u32, usize)>) {
        found.sort();
        found.dedup();
        let mut at = 0;
        for p in 0..self.polys.len() as u32 {
            self.polys[p as usize].links_start = self.links.len() as u32;
            while at < found.len() && found[at].0 == p {
                let l = &mesh.links[found[at].1];
                let q = self.node_poly[l.to as usize];
                let (from, to) = (&mesh.nodes[l.from as usize], &mesh.nodes[l.to as usize]);
                let (entry, exit, gate) = match crossing_with(
                    from,
                    &drafts[p as usize].plan,
                    to,
                    &drafts[q as usize].plan,
                    Some(l),
                ) {
                    Crossing::Edge(ends) => {
                        // Taken as a point link (see the search's
                        // `through_gate`) at its middle.
                        let m = world_to_plan((ends[0] + ends[1]) * 0.5);
                        (m, m, Some(Gate::of(ends)))
                    }
                    // Kept inside the search's polygons, whose corners
                    // took their vertices' positions.
                    Crossing::Points(e, x) => (
                        clamp_into(self.corners(p), world_to_plan(e)),
                        clamp_into(self.corners(q), world_to_plan(x)),
                        None,
                    ),
                };
                // The walk from entry to exit, and what the link asks
                // above its walk from node to node by A*'s rule
                // (`search::above_walk`, the walk seen from above); a
                // teleport carries the agent, so its cost is all it
                // costs.
                let cost = if l.kind == LinkKind::Teleport {
                    l.cost.max(0.0)
                } else {
                    let (pa, pb) = (
                        mesh.nodes[l.from as usize].position,
                        mesh.nodes[l.to as usize].position,
                    );
                    let m = world_to_plan(link_middle(l, pa, pb));
                    let walked = world_to_plan(pa).distance(m) + m.distance(world_to_plan(pb));
                    // A gate is crossed where the agent leaves the source:
                    // no walk between entry and exit.
                    let between = if gate.is_some() {
                        0.0
                    } else {
                        entry.distance(exit)
                    };
                    between + above_walk(l, walked)
                };
                self.links.push(PointLink {
                    link: found[at].1 as u32,
                    kind: l.kind,
                    to: q,
                    entry,
                    exit,
                    cost,
                    gate: match gate {
                        Some(g) => {
                            self.gates.push(g);
                            (self.gates.len() - 1) as u32
                        }
                        None => NONE,
                    },
                });
                at += 1;
            }
            self.polys[p as usize].links_end = self.links.len() as u32;
        }
    }

    /// The gate of point link `li`, if it is one.
    pub(crate) fn gate(&self, li: u32) -> Option<Gate> {
        let g = self.links[li as usize].gate;
        (g != NONE).then(|| self.gates[g as usize])
    }

    /// Plan position of vertex `v`.
    pub(crate) fn corner_pt_of_vertex(&self, v: u32) -> DVec2 {
        self.verts[v as usize].p
    }

    /// The vertex at corner point `p` of polygon `poly`, [`NONE`] when `p`
    /// is no corner of it.
    pub(crate) fn vertex_at(&self, poly: u32, p: DVec2) -> u32 {
        let poly_ref = &self.polys[poly as usize];
        (poly_ref.start..poly_ref.start + poly_ref.len)
            .find(|c| self.corner_pt[*c as usize] == p)
            .map_or(NONE, |c| self.corner_vert[c as usize])
    }

    /// Number of searchable polygons.
    pub fn len(&self) -> usize {
        self.polys.len()
    }

    /// True when no polygon can be searched.
    pub fn is_empty(&self) -> bool {
        self.polys.is_empty()
    }

    /// True when NavMesh node `node` is a searchable polygon.
    pub fn searchable(&self, node: u32) -> bool {
        self.node_poly
            .get(node as usize)
            .is_some_and(|p| *p != NONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::grid_mesh;

    #[test]
    fn dead_ends_are_cells_with_one_neighbour_and_no_way_out() {
        // A T: cells (0, 0), (1, 0), (2, 0) in a row and (1, 1) on the
        // middle one. The three arms are dead ends, the middle is not.
        let m = grid_mesh(3, 2, |i, j| j == 1 && i != 1);
        let dead = |pm: &PolyMesh| -> Vec<bool> {
            pm.node_poly
                .iter()
                .map(|&p| pm.polys[p as usize].dead_end)
                .collect()
        };
        assert_eq!(dead(&PolyMesh::new(&m)), [true, false, true, true]);
        // A jump out of an arm (a point link) keeps it open.
        let mut jump = m.clone();
        jump.links
            .push(navscope_core::Link::new(3, 0, LinkKind::Jump, 3.0, None));
        assert_eq!(dead(&PolyMesh::new(&jump)), [true, false, true, false]);
        // Cells (0, 0) and (1, 0) side by side, and (2, 1) touching (1, 0)
        // only at a corner, where the free space touches itself: (1, 0)
        // leads on through that corner, so only (0, 0) is a dead end.
        let pinch = grid_mesh(3, 2, |i, j| !((j == 0 && i < 2) || (i, j) == (2, 1)));
        assert_eq!(dead(&PolyMesh::new(&pinch)), [true, false, false]);
    }

    #[test]
    fn grid_cells_share_edges_and_vertices() {
        let m = grid_mesh(2, 2, |_, _| false);
        let pm = PolyMesh::new(&m);
        assert_eq!(pm.len(), 4);
        // 3 x 3 grid points; the centre is the only vertex that is no corner.
        assert_eq!(pm.verts.len(), 9);
        assert_eq!(pm.verts.iter().filter(|v| !v.corner).count(), 1);
        let shared = pm.corner_nbr.iter().filter(|n| **n != NONE).count();
        assert_eq!(shared, 8);
        assert!(pm.links.is_empty());
    }

    #[test]
    fn a_t_junction_splits_the_long_edge() {
        // One 2 x 1 cell beside two 1 x 1 cells.
        let mut m = NavMesh::new("t", "t");
        let sq = |x0: f64, z0: f64, x1: f64, z1: f64| {
            vec![
                DVec3::new(x0, 0., z1),
                DVec3::new(x1, 0., z1),
                DVec3::new(x1, 0., z0),
                DVec3::new(x0, 0., z0),
            ]
        };
        m.add_node(DVec3::ZERO, Some(sq(0., 0., 1., 2.)), Stance::Stand, 0);
        m.add_node(DVec3::ZERO, Some(sq(1., 0., 2., 1.)), Stance::Stand, 0);
        m.add_node(DVec3::ZERO, Some(sq(1., 1., 2., 2.)), Stance::Stand, 0);
        m.add_two_way(0, 1, LinkKind::Portal, 1.0, None);
        m.add_two_way(0, 2, LinkKind::Portal, 1.0, None);
        m.add_two_way(1, 2, LinkKind::Portal, 1.0, None);
        let pm = PolyMesh::new(&m);
        assert_eq!(pm.polys[0].len, 5);
        let nbrs: Vec<u32> = (0..5).map(|i| pm.corner_nbr[pm.corner(0, i)]).collect();
        assert_eq!(nbrs.iter().filter(|n| **n == 1).count(), 1);
        assert_eq!(nbrs.iter().filter(|n| **n == 2).count(), 1);
        // The junction point is one vertex of all three cells, not a corner.
        let v = pm.vertex_at(1, DVec2::new(1.0, -1.0));
        let (s, e) = pm.verts[v as usize].incident;
        assert_eq!(e - s, 3);
        assert!(!pm.verts[v as usize].corner);
    }

    #[test]
    fn stacked_floors_stay_apart_and_jumps_are_point_links() {
        let mut m = grid_mesh(1, 1, |_, _| false);
        let mut up = m.nodes[0].polygon.clone().unwrap();
        for p in &mut up {
            p.y = 3.0;
        }
        m.add_node(DVec3::new(0.5, 3., 0.5), Some(up), Stance::Stand, 1);
        m.links
            .push(navscope_core::Link::new(0, 1, LinkKind::Ladder, 4.0, None));
        let pm = PolyMesh::new(&m);
        assert!(pm.corner_nbr.iter().all(|n| *n == NONE));
        assert_eq!(pm.verts.len(), 8);
        assert_eq!(pm.links.len(), 1);
        assert_eq!(pm.links[0].entry, DVec2::new(0.5, -0.5));
        assert_eq!(pm.links[0].cost, 4.0);
    }

    #[test]
    fn a_walking_link_between_polygons_over_each_other_is_a_point_link() {
        // A pool cell under a floor cell of the same plan square: every
        // edge of one lies on an edge of the other, running the same way.
        let mut m = grid_mesh(1, 1, |_, _| false);
        let mut up = m.nodes[0].polygon.clone().unwrap();
        for p in &mut up {
            p.y = 3.0;
        }
        m.add_node(DVec3::new(0.5, 3., 0.5), Some(up), Stance::Stand, 0);
        m.add_two_way(0, 1, LinkKind::Swim, 3.0, None);
        let pm = PolyMesh::new(&m);
        assert!(pm.corner_nbr.iter().all(|n| *n == NONE));
        assert_eq!(pm.links.len(), 2);
        assert!(pm.links.iter().all(|l| l.kind == LinkKind::Swim));
        // The same two cells side by side on one floor share their edge.
        let beside = grid_mesh(2, 1, |_, _| false);
        let pm = PolyMesh::new(&beside);
        assert_eq!(pm.corner_nbr.iter().filter(|n| **n != NONE).count(), 2);
        assert!(pm.links.is_empty());
    }

    #[test]
    fn a_walking_link_one_way_only_is_a_point_link() {
        // Two cells side by side joined one way: walking back across the
        // edge would take a link that is not there.
        let mut m = grid_mesh(2, 1, |_, _| false);
        m.links.retain(|l| l.from == 0);
        let pm = PolyMesh::new(&m);
        assert!(pm.corner_nbr.iter().all(|n| *n == NONE));
        assert_eq!(pm.links.len(), 1);
    }

    #[test]
    fn an_edge_two_floors_claim_goes_to_the_one_at_its_height() {
        // Cells 0 and 1 side by side on the ground; cell 2 over cell 1,
        // 2.5 m up, swum to from cell 0 across the same plan edge (x = 1).
        let mut m = grid_mesh(2, 1, |_, _| false);
        let mut up = m.nodes[1].polygon.clone().unwrap();
        for p in &mut up {
            p.y = 2.5;
        }
        m.add_node(DVec3::new(1.5, 2.5, 0.5), Some(up), Stance::Stand, 1);
        m.add_two_way(0, 2, LinkKind::Swim, 1.0, None);
        let pm = PolyMesh::new(&m);
        let across: Vec<u32> = pm
            .corner_nbr
            .iter()
            .copied()
            .filter(|n| *n != NONE)
            .collect();
        assert_eq!(across, vec![1, 0], "cells 0 and 1 share the edge");
        assert_eq!(pm.links.len(), 2, "the swim both ways is a point link");
        assert!(pm.links.iter().all(|l| l.kind == LinkKind::Swim));
    }

    #[test]
    fn a_segment_on_both_polygons_edges_is_a_gate_unless_it_has_no_length() {
        // Cell 0 on the ground, cell 1 beside it (x from 1 to 2) a metre
        // up, joined by a door one way across their plan edge x = 1.
        let mut m = grid_mesh(2, 1, |_, _| false);
        m.links.clear();
        for p in m.nodes[1].polygon.as_mut().unwrap() {
            p.y = 1.0;
        }
        let door = |z0: f64, z1: f64| Some([DVec3::new(1.0, 0.0, z0), DVec3::new(1.0, 0.0, z1)]);
        m.links.push(navscope_core::Link::new(
            0,
            1,
            LinkKind::Door,
            1.0,
            door(0.0, 1.0),
        ));
        let pm = PolyMesh::new(&m);
        assert_eq!(pm.links.len(), 1);
        let gate = pm.gate(0).expect("a gate");
        // Oriented as cell 0's edge runs (counter-clockwise in plan, whose
        // y is -z): cell 0 on its left.
        assert_eq!(
            (gate.a, gate.b),
            (DVec2::new(1.0, -1.0), DVec2::new(1.0, 0.0))
        );
        // Its ends are corners of cell 0's free space.
        for end in [gate.a, gate.b] {
            assert!(pm.verts[pm.vertex_at(0, end) as usize].corner);
        }
        // A segment a rounding error long is a point, so a point link.
        m.links[0] = navscope_core::Link::new(0, 1, LinkKind::Door, 1.0, door(0.5, 0.5 + 1e-14));
        assert!(PolyMesh::new(&m).gate(0).is_none());
        // So is one inside cell 0, off its edges.
        let inside = Some([DVec3::new(0.5, 0.0, 0.2), DVec3::new(0.5, 0.0, 0.8)]);
        m.links[0] = navscope_core::Link::new(0, 1, LinkKind::Door, 1.0, inside);
        assert!(PolyMesh::new(&m).gate(0).is_none());
    }

    #[test]
    fn degenerate_polygons_are_left_out() {
        let mut m = NavMesh::new("t", "t");
        m.add_node(
            DVec3::ZERO,
            Some(vec![DVec3::ZERO, DVec3::X, DVec3::X * 2.0]),
            Stance::Stand,
            0,
        );
        m.add_node(DVec3::ZERO, None, Stance::Stand, 0);
        let pm = PolyMesh::new(&m);
        assert!(pm.is_empty());
        assert!(!pm.searchable(0) && !pm.searchable(1) && !pm.searchable(7));
    }

    /// Three polygons of `lq_e0m5.map`'s cspace NavMesh as built: a floor
    /// whose long edge meets two neighbours (one half a metre up) at a
    /// point each of the three holds a rounding error apart. Cutting the
    /// long edge there once left a piece of zero length, a wall that made
    /// the point a corner of the free space; a root there looked through
    /// the edges at it round the ring of polygons without end.
    #[test]
    fn neighbours_a_rounding_error_apart_share_one_vertex_and_no_sliver() {
        let mut m = NavMesh::new("lq_e0m5 excerpt", "cspace");
        let v = DVec3::new;
        let (y, up) = (17.5, 18.0);
        m.add_node(
            v(-6.25, y, 0.0),
            Some(vec![
                v(-4.0, y, 5.5),
                v(-4.0, y, -5.5),
                v(-8.5, y, -5.5),
                v(-8.5, y, 5.5),
            ]),
            Stance::Stand,
            0,
        );
        m.add_node(
            v(-3.29, y, -5.1),
            Some(vec![
                v(-4.0, y, -7.5),
                v(-4.0, y, -2.000000000000001),
                v(-2.5, y, -3.5000000000000018),
                v(-2.5, y, -7.5),
            ]),
            Stance::Stand,
            0,
        );
        m.add_node(
            v(-1.78, up, -2.36),
            Some(vec![
                v(-2.000000000000001, up, -4.000000000000001),
                v(-4.000000000000002, up, -2.0),
                v(-4.000000000000002, up, -0.9999999999999982),
                v(-2.3333333333333335, up, -0.16666666666666607),
                v(0.49999999999999856, up, -2.9999999999999982),
                v(0.9999999999999997, up, -4.0),
            ]),
            Stance::Stand,
            0,
        );
        m.add_two_way(0, 1, LinkKind::Walk, 5.9, None);
        m.add_two_way(0, 2, LinkKind::StepUp, 5.6, None);
        m.add_two_way(1, 2, LinkKind::StepUp, 4.4, None);
        let pm = PolyMesh::new(&m);
        for p in 0..pm.len() as u32 {
            for i in 0..pm.polys[p as usize].len {
                let (c, d) = (pm.corner(p, i), pm.corner(p, i + 1));
                assert_ne!(
                    pm.corner_vert[c], pm.corner_vert[d],
                    "edge {i} of polygon {p} has no length"
                );
                assert_eq!(pm.corner_pt[c], pm.verts[pm.corner_vert[c] as usize].p);
            }
        }
        // The point where the three meet is one vertex, inside the free
        // space (the ring round it is closed).
        let at = DVec2::new(-4.0, 2.0);
        let near: Vec<&Vertex> = pm
            .verts
            .iter()
            .filter(|x| x.p.distance(at) < 1e-9)
            .collect();
        assert_eq!(near.len(), 1);
        assert!(!near[0].corner);
        assert_eq!(near[0].incident.1 - near[0].incident.0, 3);
    }
}
