//! A* over the node graph, recording every step for a viewer.
//!
//! ## Costs
//! Crossing link `l` from node `a` to node `b` costs
//!
//! ```text
//! |P(a) - m| * k(a) + |m - P(b)| * k(b) + max(0, l.cost - (|P(a) - m| + |m - P(b)|))
//! ```
//!
//! where `P(n)` is the node's position (the start point for the start node,
//! the goal point for the goal node), `m` is the midpoint of the link's
//! crossing segment (without a segment the straight line `P(a) P(b)` is
//! split in half), and `k(n)` is the stance multiplier of the node's stance
//! ([`SearchOptions::stance_cost`]) times the mesh's cost of the node's area
//! ([`NavMesh::area_cost`]: Recast's area costs, e.g. water or grass marked
//! by convex volumes, 1 for an area the mesh does not list). Each half of the move is paid in the
//! stance of the node it is walked in, which is Kirst §32.5's advice: scale the
//! cost of moving through crouch-only (prone, swim, ...) space so that an
//! agent walks around the table rather than crawling under it, unless going
//! around is much longer. A link whose own `cost` is more than its walked
//! length (a ladder, a jump a pipeline priced higher) adds the difference.
//!
//! The heuristic is the straight-line distance to the goal point times the
//! smallest stance multiplier and the smallest area cost (at most 1). Every move costs at least that much, and the
//! heuristic obeys the triangle inequality, so it is admissible and
//! consistent: the first path to reach the goal is a cheapest one, and a
//! closed node is never reopened.
//!
//! ## Determinism
//! The open list is ordered by `f`, then `h` (closer to the goal first), then
//! node id; a node's parent changes only on a strictly cheaper path, links
//! being tried in their order in the mesh. The same mesh and options give the
//! same search, expansion by expansion.

use glam::DVec3;
use navscope_core::{Link, LinkKind, NavMesh, Stance};
use serde::{Deserialize, Serialize};

use crate::open::{Open, OpenHeap};
use crate::stance::stance_index;

/// Default for [`SearchOptions::max_expansions`]: far more nodes than any
/// level navscope ships has, small enough to bound the memory of the trace.
pub const DEFAULT_MAX_EXPANSIONS: usize = 1_000_000;

/// What the search may use and what it pays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchOptions {
    /// Which link kinds may be crossed, indexed like [`LinkKind::ALL`]
    /// (e.g. clear `Jump` for an agent that cannot jump).
    pub allowed: [bool; LinkKind::ALL.len()],
    /// Cost multiplier for moving through a node of each stance, indexed like
    /// [`Stance::ALL`]. Kirst §32.5 asks for non-standing space to cost more
    /// so agents avoid it when a standing route is not much longer; the paper
    /// gives no numbers. Values must be finite and `>= 0`; `f64::INFINITY`
    /// forbids the stance (its nodes are never entered).
    pub stance_cost: [f64; 5],
    /// Agent radius in metres: the funnel keeps the path this far from portal
    /// ends (see [`crate::funnel()`]). The search itself assumes the mesh was
    /// built for the agent, so it does not test portal widths.
    pub agent_radius: f64,
    /// The search gives up after expanding this many nodes.
    pub max_expansions: usize,
}

impl Default for SearchOptions {
    /// Everything allowed; stance multipliers stand 1, crouch 1.5, prone 3,
    /// swim 2, sidestep 2 (navscope's choice: Kirst §32.5 says only that
    /// non-standing movement should cost more); radius 0.
    fn default() -> Self {
        Self {
            allowed: [true; LinkKind::ALL.len()],
            stance_cost: [1.0, 1.5, 3.0, 2.0, 2.0],
            agent_radius: 0.0,
            max_expansions: DEFAULT_MAX_EXPANSIONS,
        }
    }
}

/// Index of a link kind in [`LinkKind::ALL`].
fn kind_index(k: LinkKind) -> usize {
    LinkKind::ALL.iter().position(|x| *x == k).unwrap_or(0)
}

impl SearchOptions {
    /// The same options with link kind `kind` allowed or forbidden.
    pub fn allow(mut self, kind: LinkKind, allowed: bool) -> Self {
        self.allowed[kind_index(kind)] = allowed;
        self
    }

    /// True when links of `kind` may be crossed.
    pub fn allows(&self, kind: LinkKind) -> bool {
        self.allowed[kind_index(kind)]
    }

    /// The same options with the multiplier of `stance` set to `multiplier`.
    pub fn with_stance_cost(mut self, stance: Stance, multiplier: f64) -> Self {
        self.stance_cost[stance_index(stance)] = multiplier;
        self
    }

    /// The cost multiplier of `stance`.
    pub fn stance_multiplier(&self, stance: Stance) -> f64 {
        self.stance_cost[stance_index(stance)]
    }

    /// Checks the values a caller may have typed: multipliers finite (or
    /// infinite, to forbid a stance) and `>= 0`, radius finite and `>= 0`.
    /// Returns a sentence naming the bad value.
    pub fn check(&self) -> Result<(), String> {
        for (s, m) in Stance::ALL.iter().zip(self.stance_cost) {
            if m.is_nan() || m < 0.0 {
                return Err(format!(
                    "the {} cost multiplier is {m}; it must be a number >= 0",
                    s.name()
                ));
            }
        }
        if !self.agent_radius.is_finite() || self.agent_radius < 0.0 {
            return Err(format!(
                "the agent radius is {}; it must be a finite number >= 0",
                self.agent_radius
            ));
        }
        Ok(())
    }

    /// Multiplier used by the search: invalid values forbid the stance.
    fn usable_multiplier(&self, stance: Stance) -> f64 {
        let m = self.stance_multiplier(stance);
        if m >= 0.0 { m } else { f64::INFINITY }
    }

    /// Smallest usable multiplier, the heuristic's scale.
    fn min_multiplier(&self) -> f64 {
        let m = Stance::ALL
            .iter()
            .map(|s| self.usable_multiplier(*s))
            .fold(f64::INFINITY, f64::min);
        if m.is_finite() { m } else { 0.0 }
    }
}

/// One node taken off the open list and expanded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expansion {
    /// The node expanded.
    pub node: u32,
    /// The node it was reached from (`None` for the start).
    pub parent: Option<u32>,
    /// Cost from the start.
    pub g: f64,
    /// Heuristic estimate to the goal.
    pub h: f64,
    /// `g + h`.
    pub f: f64,
}

/// Everything a viewer needs to replay a search.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchTrace {
    /// Every expansion, in order.
    pub expansions: Vec<Expansion>,
    /// Nodes on the open list when the search stopped, ascending ids.
    pub open: Vec<u32>,
    /// Nodes expanded (closed) when the search stopped, ascending ids.
    pub closed: Vec<u32>,
}

/// The outcome of [`astar`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Search {
    /// The nodes from start to goal, or `None` when the goal was not reached.
    pub nodes: Option<Vec<u32>>,
    /// Indices into `mesh.links` of the links crossed, one fewer than nodes.
    pub links: Vec<usize>,
    /// The cost of the path (see the module docs); infinite when none.
    pub cost: f64,
    /// True when the search stopped at [`SearchOptions::max_expansions`]
    /// with nodes still open, rather than running out of nodes.
    pub hit_limit: bool,
    /// The recorded search (empty unless recorded, see [`AStar::run`]).
    pub trace: SearchTrace,
    /// Nodes expanded, recorded or not (not serialised: a recorded trace
    /// lists them).
    #[serde(skip)]
    pub expanded: usize,
}

/// What link `l` costs above the length `walked` across it: `max(0,
/// l.cost - walked)`. A link's `cost` is its price from node to node, the
/// walk included; only what a jump, a ladder or a door asks beyond that
/// walk is a price of its own. Both searches price links by this one
/// rule, each subtracting the walk it measures itself: A* the two halves
/// through the link's middle ([`link_halves`], in 3D), Polyanya the same
/// halves seen from above (`polyanya::mesh`, its lengths are plan
/// lengths). So neither takes or shuns a link that the other prices
/// differently.
pub(crate) fn above_walk(l: &Link, walked: f64) -> f64 {
    (l.cost - walked).max(0.0)
}

/// Where link `l` from a node at `pa` to one at `pb` is crossed: the
/// middle of its segment, else halfway between the two.
pub(crate) fn link_middle(l: &Link, pa: DVec3, pb: DVec3) -> DVec3 {
    match l.segment() {
        Some([s0, s1]) => (s0 + s1) * 0.5,
        None => (pa + pb) * 0.5,
    }
}

/// The walked halves of a link: `(length in a, length in b)`.
pub(crate) fn link_halves(link: &Link, pa: DVec3, pb: DVec3) -> (f64, f64) {
    let m = link_middle(link, pa, pb);
    (pa.distance(m), m.distance(pb))
}

/// A* from node `start` to node `goal` of `mesh` (see the module docs for
/// costs, heuristic and tie-breaking). `start_pt` and `goal_pt` are where the
/// agent really starts and ends, inside those nodes; they replace the two
/// nodes' positions in the costs.
///
/// Never panics: unknown start or goal ids give an empty search, links to
/// unknown nodes are skipped.
pub fn astar(
    mesh: &NavMesh,
    start: u32,
    goal: u32,
    start_pt: DVec3,
    goal_pt: DVec3,
    opts: &SearchOptions,
) -> Search {
    AStar::new(mesh).run(mesh, start, goal, start_pt, goal_pt, opts, true)
}

/// [`astar`] with its state kept between queries on one mesh: the links
/// out of each node and each node's area cost are gathered once, the
/// per-node arrays are stamped with the query's number instead of cleared,
/// and the trace is recorded only when asked. Build it once per NavMesh
/// (a [`crate::PathFinder`] holds one).
#[derive(Clone, Debug, Default)]
pub struct AStar {
    /// Links out of node `v`: `out[out_start[v]..out_start[v + 1]]`.
    out_start: Vec<u32>,
    out: Vec<u32>,
    /// The walked halves ([`link_halves`]) of each link between its two
    /// nodes' positions; a query recomputes them only at its start and
    /// goal nodes, whose positions it replaces.
    halves: Vec<(f64, f64)>,
    /// The mesh's cost of each node's area.
    area: Vec<f64>,
    cheapest_area: f64,
    g: Vec<f64>,
    parent: Vec<(u32, u32)>,
    /// `seen[v] == stamp`: `g` and `parent` of `v` are this query's.
    seen: Vec<u32>,
    /// `closed[v] == stamp`: `v` was expanded in this query.
    closed: Vec<u32>,
    stamp: u32,
    heap: OpenHeap,
}

impl AStar {
    /// The search state for `mesh`.
    pub fn new(mesh: &NavMesh) -> Self {
        let n = mesh.nodes.len();
        let mut out_start = vec![0u32; n + 1];
        let valid = |l: &Link| (l.from as usize) < n && (l.to as usize) < n;
        for l in mesh.links.iter().filter(|l| valid(l)) {
            out_start[l.from as usize + 1] += 1;
        }
        for v in 0..n {
            out_start[v + 1] += out_start[v];
        }
        let mut fill = out_start.clone();
        let mut out = vec![0u32; out_start[n] as usize];
        for (i, l) in mesh.links.iter().enumerate().filter(|(_, l)| valid(l)) {
            out[fill[l.from as usize] as usize] = i as u32;
            fill[l.from as usize] += 1;
        }
        let halves = mesh
            .links
            .iter()
            .map(|l| {
                if valid(l) {
                    let node = |v: u32| mesh.nodes[v as usize].position;
                    link_halves(l, node(l.from), node(l.to))
                } else {
                    (0.0, 0.0)
                }
            })
            .collect();
        AStar {
            out_start,
            out,
            halves,
            area: mesh.nodes.iter().map(|v| mesh.area_cost(&v.area)).collect(),
            // Areas may cost less than 1: the heuristic scales by the cheapest.
            cheapest_area: mesh.area_costs.values().copied().fold(1.0, f64::min),
            g: vec![f64::INFINITY; n],
            parent: vec![(NO_PARENT, 0); n],
            seen: vec![0; n],
            closed: vec![0; n],
            stamp: 0,
            heap: OpenHeap::default(),
        }
    }

    /// [`astar`] on `mesh` (the mesh this state was built for); the trace's
    /// expansions, open and closed lists are filled only when `record`,
    /// [`Search::expanded`] always.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        mesh: &NavMesh,
        start: u32,
        goal: u32,
        start_pt: DVec3,
        goal_pt: DVec3,
        opts: &SearchOptions,
        record: bool,
    ) -> Search {
        let n = mesh.nodes.len();
        let mut search = Search {
            cost: f64::INFINITY,
            ..Search::default()
        };
        if start as usize >= n
            || goal as usize >= n
            || self.area.len() != n
            || self.halves.len() != mesh.links.len()
        {
            return search;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.closed.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.heap.clear();
        let position = |v: u32| {
            if v == start {
                start_pt
            } else if v == goal {
                goal_pt
            } else {
                mesh.nodes[v as usize].position
            }
        };
        let area = &self.area;
        let mult =
            |v: u32| opts.usable_multiplier(mesh.nodes[v as usize].stance) * area[v as usize];
        let scale = opts.min_multiplier() * self.cheapest_area;
        let heuristic = |v: u32| position(v).distance(goal_pt) * scale;

        self.g[start as usize] = 0.0;
        self.parent[start as usize] = (NO_PARENT, 0);
        self.seen[start as usize] = stamp;
        self.heap.push(Open::new(0.0, heuristic(start), start));

        let mut reached = false;
        while let Some(top) = self.heap.pop() {
            let v = top.item as usize;
            // An entry left behind when `v` was reached more cheaply pops
            // after the cheaper one (same `h`, larger `f`) and finds `v`
            // closed; in a tie of `f` after rounding, whichever pops
            // first expands `v` at its best `g`.
            if self.closed[v] == stamp {
                continue;
            }
            let g = self.g[v];
            if search.expanded >= opts.max_expansions {
                search.hit_limit = true;
                break;
            }
            self.closed[v] = stamp;
            search.expanded += 1;
            if record {
                let p = self.parent[v].0;
                search.trace.expansions.push(Expansion {
                    node: top.item,
                    parent: (p != NO_PARENT).then_some(p),
                    g,
                    h: f64::from_bits(top.h),
                    f: f64::from_bits(top.f),
                });
            }
            if top.item == goal {
                reached = true;
                break;
            }
            let here = position(top.item);
            let ka = mult(top.item);
            let (s, e) = (self.out_start[v], self.out_start[v + 1]);
            for k in s..e {
                let li = self.out[k as usize];
                let l = &mesh.links[li as usize];
                let w = l.to as usize;
                if self.closed[w] == stamp || !opts.allows(l.kind) {
                    continue;
                }
                let kb = mult(l.to);
                if !ka.is_finite() || !kb.is_finite() {
                    continue;
                }
                let ends = [top.item, l.to];
                let (da, db) = if ends.contains(&start) || ends.contains(&goal) {
                    link_halves(l, here, position(l.to))
                } else {
                    self.halves[li as usize]
                };
                let cost = da * ka + db * kb + above_walk(l, da + db);
                let ng = g + cost;
                if self.seen[w] != stamp || ng < self.g[w] {
                    self.seen[w] = stamp;
                    self.g[w] = ng;
                    self.parent[w] = (top.item, li);
                    self.heap.push(Open::new(ng, heuristic(l.to), l.to));
                }
            }
        }

        if record {
            search.trace.open = (0..n)
                .filter(|&i| self.seen[i] == stamp && self.closed[i] != stamp)
                .map(|i| i as u32)
                .collect();
            search.trace.closed = (0..n)
                .filter(|&i| self.closed[i] == stamp)
                .map(|i| i as u32)
                .collect();
        }
        if reached {
            // Counted first, so each list is one allocation.
            let mut steps = 0;
            let mut v = goal;
            while v != start {
                v = self.parent[v as usize].0;
                steps += 1;
            }
            let mut nodes = Vec::with_capacity(steps + 1);
            nodes.push(goal);
            let mut links = Vec::with_capacity(steps);
            let mut v = goal;
            while v != start {
                let (p, li) = self.parent[v as usize];
                nodes.push(p);
                links.push(li as usize);
                v = p;
            }
            nodes.reverse();
            links.reverse();
            search.cost = if start == goal {
                start_pt.distance(goal_pt) * mult(start)
            } else {
                self.g[goal as usize]
            };
            search.nodes = Some(nodes);
            search.links = links;
        }
        search
    }
}

/// [`AStar::parent`] of the start.
const NO_PARENT: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::grid_mesh;

    fn centre(i: usize, j: usize) -> DVec3 {
        DVec3::new(i as f64 + 0.5, 0.0, j as f64 + 0.5)
    }

    fn node_at(m: &NavMesh, i: usize, j: usize) -> u32 {
        m.nodes
            .iter()
            .find(|n| n.position == centre(i, j))
            .unwrap()
            .id
    }

    #[test]
    fn a_kept_state_answers_every_query_as_a_fresh_search_recorded_or_not() {
        // Walls every 3 columns with alternate openings: paths snake, and
        // queries in turn revisit nodes the query before touched.
        let m = grid_mesh(9, 6, |i, j| {
            i % 3 == 1 && if i % 2 == 0 { j < 5 } else { j > 0 }
        });
        let opts = SearchOptions::default();
        let mut kept = AStar::new(&m);
        let free: Vec<u32> = m.nodes.iter().map(|n| n.id).collect();
        for (k, &a) in free.iter().enumerate() {
            let b = free[(k * 7 + 3) % free.len()];
            let (pa, pb) = (m.nodes[a as usize].position, m.nodes[b as usize].position);
            let fresh = astar(&m, a, b, pa, pb, &opts);
            let recorded = kept.run(&m, a, b, pa, pb, &opts, true);
            assert_eq!(recorded, fresh, "{a} -> {b}");
            assert_eq!(fresh.expanded, fresh.trace.expansions.len());
            let quiet = kept.run(&m, a, b, pa, pb, &opts, false);
            assert_eq!((quiet.nodes, quiet.links), (fresh.nodes, fresh.links));
            assert_eq!((quiet.cost, quiet.expanded), (fresh.cost, fresh.expanded));
            assert!(quiet.trace.expansions.is_empty() && quiet.trace.closed.is_empty());
        }
    }

    #[test]
    fn straight_corridor_costs_its_length_and_records_the_trace() {
        let m = grid_mesh(5, 1, |_, _| false);
        let s = astar(
            &m,
            0,
            4,
            centre(0, 0),
            centre(4, 0),
            &SearchOptions::default(),
        );
        assert_eq!(s.nodes, Some(vec![0, 1, 2, 3, 4]));
        assert_eq!(s.links.len(), 4);
        for (k, li) in s.links.iter().enumerate() {
            assert_eq!(
                (m.links[*li].from, m.links[*li].to),
                (k as u32, k as u32 + 1)
            );
        }
        assert!((s.cost - 4.0).abs() < 1e-12);
        // Straight line: the heuristic is exact, only the path is expanded.
        let order: Vec<u32> = s.trace.expansions.iter().map(|e| e.node).collect();
        assert_eq!(order, vec![0, 1, 2, 3, 4]);
        assert_eq!(s.trace.expansions[2].parent, Some(1));
        assert!((s.trace.expansions[2].g - 2.0).abs() < 1e-12);
        assert!((s.trace.expansions[2].h - 2.0).abs() < 1e-12);
        assert!(
            s.trace
                .expansions
                .iter()
                .all(|e| (e.f - e.g - e.h).abs() < 1e-12)
        );
        assert_eq!(s.trace.closed, vec![0, 1, 2, 3, 4]);
        assert!(s.trace.open.is_empty());
        assert!(!s.hit_limit);
    }

    #[test]
    fn expansions_have_non_decreasing_f() {
        // Consistency: f never decreases along the expansion order.
        let m = grid_mesh(8, 8, |i, j| (i == 3 && j < 6) || (i == 5 && j > 1));
        let s = astar(
            &m,
            node_at(&m, 0, 0),
            node_at(&m, 7, 7),
            centre(0, 0),
            centre(7, 7),
            &SearchOptions::default(),
        );
        assert!(s.nodes.is_some());
        for w in s.trace.expansions.windows(2) {
            assert!(w[1].f >= w[0].f - 1e-9, "{:?}", w);
        }
    }

    #[test]
    fn ties_break_deterministically() {
        let m = grid_mesh(6, 6, |_, _| false);
        let opts = SearchOptions::default();
        let a = astar(&m, 0, 35, centre(0, 0), centre(5, 5), &opts);
        let b = astar(&m, 0, 35, centre(0, 0), centre(5, 5), &opts);
        assert_eq!(a, b);
        assert!((a.cost - 10.0).abs() < 1e-12);
    }

    #[test]
    fn start_equals_goal() {
        let m = grid_mesh(2, 1, |_, _| false);
        let s = astar(
            &m,
            1,
            1,
            DVec3::new(1.2, 0., 0.5),
            DVec3::new(1.8, 0., 0.5),
            &SearchOptions::default(),
        );
        assert_eq!(s.nodes, Some(vec![1]));
        assert!(s.links.is_empty());
        assert!((s.cost - 0.6).abs() < 1e-12);
        assert_eq!(s.trace.expansions.len(), 1);
    }

    #[test]
    fn unknown_ids_and_bad_links_do_not_panic() {
        let mut m = grid_mesh(2, 1, |_, _| false);
        assert_eq!(
            astar(
                &m,
                0,
                9,
                DVec3::ZERO,
                DVec3::ZERO,
                &SearchOptions::default()
            )
            .nodes,
            None
        );
        m.links.push(Link {
            from: 7,
            to: 0,
            kind: LinkKind::Walk,
            cost: 1.0,
            segment: None,
        });
        m.links.push(Link {
            from: 0,
            to: 7,
            kind: LinkKind::Walk,
            cost: 1.0,
            segment: None,
        });
        assert!(
            astar(
                &m,
                0,
                1,
                centre(0, 0),
                centre(1, 0),
                &SearchOptions::default()
            )
            .nodes
            .is_some()
        );
    }

    #[test]
    fn expansion_limit_stops_the_search() {
        let m = grid_mesh(10, 1, |_, _| false);
        let opts = SearchOptions {
            max_expansions: 3,
            ..SearchOptions::default()
        };
        let s = astar(&m, 0, 9, centre(0, 0), centre(9, 0), &opts);
        assert_eq!(s.nodes, None);
        assert!(s.hit_limit);
        assert_eq!(s.trace.expansions.len(), 3);
        assert_eq!(s.trace.open, vec![3]);
    }

    #[test]
    fn link_cost_above_walked_length_is_paid() {
        let mut m = grid_mesh(2, 1, |_, _| false);
        for l in &mut m.links {
            l.cost = 5.0;
        }
        let s = astar(
            &m,
            0,
            1,
            centre(0, 0),
            centre(1, 0),
            &SearchOptions::default(),
        );
        assert!((s.cost - 5.0).abs() < 1e-12);
    }

    #[test]
    fn an_expensive_area_is_walked_around_and_a_cheap_one_keeps_the_heuristic_admissible() {
        // A 5 x 3 grid; the straight row j = 1 crosses column 2 through "water".
        let mut m = grid_mesh(5, 3, |_, _| false);
        let water = node_at(&m, 2, 1);
        m.nodes[water as usize].area = "water".into();
        let (a, b) = (node_at(&m, 0, 1), node_at(&m, 4, 1));
        let opts = SearchOptions::default();
        let plain = astar(&m, a, b, centre(0, 1), centre(4, 1), &opts);
        assert!(plain.nodes.as_ref().unwrap().contains(&water));
        assert!((plain.cost - 4.0).abs() < 1e-12);
        m.area_costs.insert("water".into(), 10.0);
        let around = astar(&m, a, b, centre(0, 1), centre(4, 1), &opts);
        let nodes = around.nodes.unwrap();
        assert!(!nodes.contains(&water), "{nodes:?}");
        assert!(around.cost < 4.0 + 9.0 && around.cost > 4.0);
        // A cheap area: the search still finds the cheapest path (through it).
        m.area_costs.insert("water".into(), 0.25);
        let through = astar(&m, a, b, centre(0, 1), centre(4, 1), &opts);
        assert!(through.nodes.unwrap().contains(&water));
        assert!((through.cost - 3.25).abs() < 1e-12, "{}", through.cost);
    }

    #[test]
    fn forbidden_stance_is_never_entered() {
        let mut m = grid_mesh(3, 1, |_, _| false);
        m.nodes[1].stance = Stance::Swim;
        let opts = SearchOptions::default().with_stance_cost(Stance::Swim, f64::INFINITY);
        let s = astar(&m, 0, 2, centre(0, 0), centre(2, 0), &opts);
        assert_eq!(s.nodes, None);
        assert!(!s.hit_limit);
        assert_eq!(s.trace.closed, vec![0]);
    }

    #[test]
    fn options_helpers_and_checks() {
        let o = SearchOptions::default().allow(LinkKind::Jump, false);
        assert!(!o.allows(LinkKind::Jump));
        assert!(o.allows(LinkKind::Walk));
        assert_eq!(o.allowed.iter().filter(|a| !**a).count(), 1);
        assert_eq!(o.stance_multiplier(Stance::Crouch), 1.5);
        assert_eq!(o.stance_multiplier(Stance::Prone), 3.0);
        assert!(o.check().is_ok());
        let bad = o.clone().with_stance_cost(Stance::Crouch, -1.0);
        assert_eq!(
            bad.check().unwrap_err(),
            "the crouch cost multiplier is -1; it must be a number >= 0"
        );
        let bad = SearchOptions {
            agent_radius: f64::NAN,
            ..o
        };
        assert!(bad.check().unwrap_err().contains("agent radius"));
    }
}
