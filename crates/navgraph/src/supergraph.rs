//! Stage 8, super-graph: regions of the dual graph joined by portals, the
//! article's two-level search, and start-node skipping.
//!
//! **Partition.** Regions grow from seeds taken in triangle order: a
//! breadth-first search over triangle adjacency adds a triangle when its
//! incentre lies within half the `region_size` of the seed's incentre, so
//! regions are connected and about `region_size` across. A vertex node
//! belongs to the region of its first incident triangle. A *portal* is a
//! base link between nodes of different regions.
//!
//! **Super-graph.** One point node per region at the mean of its
//! incentres, one two-way `portal` link per pair of regions that share a
//! portal, costing the distance between the region centres (the estimate
//! the article asks the super-graph to provide for A*'s heuristic).
//!
//! **Two-level search** ([`SuperGraph::route`]). Locate start and goal in
//! the dual graph (the triangle containing them), run navscope-path's A* on
//! the super-graph between their regions; "no path" there is the answer,
//! without touching the base graph. Otherwise A* runs on the base graph
//! restricted to the regions of the super path (and on the whole base graph
//! if that restriction disconnects them, which a repaired dual edge through
//! a vertex of a third region can do), or, on request, on the whole base
//! graph: region corridors chosen by centre distances can be much longer
//! than the best path (on `arena`, up to a third), so navscope's default
//! query uses the super-graph to answer "no path" and searches the base
//! graph freely otherwise. The node path is then shortened by line of
//! sight: the shortest subsequence of its points whose consecutive points
//! see each other; the first kept node after the start is the start-node
//! skip of the article.

use std::collections::VecDeque;

use glam::{DVec2, DVec3};
use navscope_core::geom::{plan_to_world, world_to_plan};
use navscope_core::{LinkKind, NavMesh, Stance};
use navscope_path::{Locator, SearchOptions, astar};
use serde::Serialize;

use crate::graphs::DualGraph;
use crate::triangulate::Triangulation;
use crate::walls::Walls;

/// The partition and the super-graph.
#[derive(Clone, Debug, Serialize)]
pub struct SuperGraph {
    /// Region of every base node (triangles first, then vertices).
    pub region_of: Vec<u32>,
    /// Number of regions.
    pub regions: u32,
    /// Base links (indices into the base mesh's links, one per direction
    /// pair) that cross between regions.
    pub portals: Vec<usize>,
    /// The super-graph: one point node per region, portal links.
    pub mesh: NavMesh,
}

/// How a two-level query runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct RouteOptions {
    /// How far outside every triangle (metres) a query point may lie and
    /// still be pulled onto the nearest one.
    pub snap: f64,
    /// Limit the base search to the regions of the super path.
    pub within_regions: bool,
}

/// The answer of a two-level query.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Route {
    /// True when a path exists.
    pub found: bool,
    /// Path points from start to goal after shortcutting (world).
    pub waypoints: Vec<DVec3>,
    /// Length of `waypoints`.
    pub length: f64,
    /// Nodes the super-graph search expanded.
    pub super_expansions: usize,
    /// Nodes the base-graph search expanded (0 when the super-graph said
    /// "no path").
    pub base_expansions: usize,
    /// Path nodes skipped at the start by the line-of-sight shortcut (the
    /// start's own triangle node counts: it is the nearest node the
    /// article's agent would otherwise walk back to).
    pub skipped_start_nodes: usize,
    /// The super path: regions from the start's to the goal's (empty when
    /// the super-graph found none).
    pub regions: Vec<u32>,
    /// The regions the super-graph search expanded, in order.
    pub expanded_regions: Vec<u32>,
}

/// Partitions the dual graph into regions about `size` metres across.
pub fn partition(tri: &Triangulation, dual: &DualGraph, size: f64) -> SuperGraph {
    let nt = tri.triangles.len();
    let mut region = vec![u32::MAX; nt];
    let mut regions = 0u32;
    let mut queue = VecDeque::new();
    let mut centres: Vec<(DVec2, u32)> = Vec::new();
    for seed in 0..nt {
        if region[seed] != u32::MAX {
            continue;
        }
        let id = regions;
        regions += 1;
        region[seed] = id;
        let c = dual.incentres[seed];
        let mut sum = (DVec2::ZERO, 0u32);
        queue.push_back(seed);
        while let Some(t) = queue.pop_front() {
            sum.0 += dual.incentres[t];
            sum.1 += 1;
            for u in tri.neighbours[t].iter().flatten() {
                let u = *u as usize;
                if region[u] == u32::MAX && dual.incentres[u].distance(c) <= size * 0.5 {
                    region[u] = id;
                    queue.push_back(u);
                }
            }
        }
        centres.push(sum);
    }
    let mut region_of = region;
    let mut first_tri = vec![u32::MAX; tri.vertices.len()];
    for (t, vs) in tri.triangles.iter().enumerate() {
        for &v in vs {
            if first_tri[v as usize] == u32::MAX {
                first_tri[v as usize] = t as u32;
            }
        }
    }
    for &v in &dual.vertex_nodes {
        region_of.push(region_of[first_tri[v as usize] as usize]);
    }
    let mut mesh = NavMesh::new("navgraph", "");
    for (sum, n) in &centres {
        mesh.add_node(
            plan_to_world(*sum / (*n).max(1) as f64, 0.0),
            None,
            Stance::Stand,
            0,
        );
    }
    let mut portals = Vec::new();
    let mut pairs = std::collections::BTreeSet::new();
    for (i, l) in dual.mesh.links.iter().enumerate() {
        let (ra, rb) = (region_of[l.from as usize], region_of[l.to as usize]);
        if ra != rb {
            if l.from < l.to {
                portals.push(i);
            }
            pairs.insert((ra.min(rb), ra.max(rb)));
        }
    }
    mesh.links.reserve_exact(2 * pairs.len());
    for (a, b) in pairs {
        let d = mesh.nodes[a as usize]
            .position
            .distance(mesh.nodes[b as usize].position);
        mesh.add_two_way(a, b, LinkKind::Portal, d, None);
    }
    SuperGraph {
        region_of,
        regions,
        portals,
        mesh,
    }
}

/// Line-of-sight shortening of a polyline whose first point is free: the
/// shortest subsequence of its points (same first and last) whose
/// consecutive points see each other, by dynamic programming over the
/// points (quadratic in their number, which is a path's node count).
/// Returns the kept points and how many were skipped right after the
/// first (the start-node skip).
pub fn shortcut(walls: &Walls, pts: &[DVec2]) -> (Vec<DVec2>, usize) {
    let n = pts.len();
    if n <= 2 {
        return (pts.to_vec(), 0);
    }
    let mut cost = vec![f64::INFINITY; n];
    let mut from = vec![0usize; n];
    cost[0] = 0.0;
    for j in 1..n {
        for i in 0..j {
            if !cost[i].is_finite() {
                continue;
            }
            let c = cost[i] + pts[i].distance(pts[j]);
            // Consecutive path points always see each other.
            if c < cost[j] && (i + 1 == j || walls.clear(pts[i], pts[j])) {
                cost[j] = c;
                from[j] = i;
            }
        }
    }
    let mut idx = vec![n - 1];
    while *idx.last().unwrap_or(&0) != 0 {
        let k = from[*idx.last().unwrap_or(&0)];
        idx.push(k);
    }
    idx.reverse();
    let skipped = idx.get(1).map_or(0, |&k| k - 1);
    (idx.iter().map(|&k| pts[k]).collect(), skipped)
}

impl SuperGraph {
    /// The two-level query from `from` to `to` (world points) over the
    /// dual graph `dual` (located with `locator`, built on `dual.mesh`); see
    /// the module docs. With `opts.within_regions` the base search is limited to
    /// the regions of the super path (the article's scheme: less work,
    /// possibly longer paths); without, the super-graph only screens out
    /// unreachable queries and the base search is free. A point outside
    /// every triangle but within `opts.snap` metres of one (simplification may
    /// shave a pixel centre off) starts from the nearest point of that
    /// triangle; farther away it is an error naming the point.
    pub fn route(
        &self,
        dual: &DualGraph,
        locator: &Locator,
        walls: &Walls,
        from: DVec3,
        to: DVec3,
        opts: RouteOptions,
    ) -> Result<Route, String> {
        let nt = dual.incentres.len() as u32;
        let locate = |p: DVec3, what: &str| -> Result<(u32, DVec3), String> {
            let l = locator
                .locate(p)
                .filter(|l| l.node < nt && (l.inside || l.distance <= opts.snap))
                .ok_or_else(|| format!("{what} {p} is not in navigable space"))?;
            Ok((l.node, if l.inside { p } else { l.point }))
        };
        let (original_from, original_to) = (from, to);
        let (s, from) = locate(from, "start")?;
        let (g, to) = locate(to, "goal")?;
        let (rs, rg) = (self.region_of[s as usize], self.region_of[g as usize]);
        let search = SearchOptions::default();
        let top = astar(
            &self.mesh,
            rs,
            rg,
            self.mesh.nodes[rs as usize].position,
            self.mesh.nodes[rg as usize].position,
            &search,
        );
        let super_expansions = top.trace.expansions.len();
        let Some(region_path) = top.nodes else {
            return Ok(Route {
                super_expansions,
                expanded_regions: top.trace.expansions.iter().map(|e| e.node).collect(),
                ..Default::default()
            });
        };
        let mut allowed = vec![false; self.regions as usize];
        for r in &region_path {
            allowed[*r as usize] = true;
        }
        let whole = || astar(&dual.mesh, s, g, from, to, &search);
        // A super path through every region filters nothing: search the
        // base graph itself rather than a copy of all of it.
        let filters = region_path.len() < self.regions as usize;
        let (first, fall_back) = if opts.within_regions && filters {
            let (sub, map, back) = restrict(&dual.mesh, |n| allowed[self.region_of[n] as usize]);
            let mut r = astar(&sub, map[s as usize], map[g as usize], from, to, &search);
            if let Some(n) = &mut r.nodes {
                n.iter_mut().for_each(|k| *k = back[*k as usize]);
            }
            (r, true)
        } else {
            (whole(), false)
        };
        let mut base_expansions = first.trace.expansions.len();
        let nodes: Vec<u32> = match first.nodes {
            Some(n) => n,
            None => {
                let full = if fall_back { whole() } else { first };
                if fall_back {
                    base_expansions += full.trace.expansions.len();
                }
                match full.nodes {
                    Some(n) => n,
                    None => {
                        return Ok(Route {
                            super_expansions,
                            base_expansions,
                            regions: region_path,
                            ..Default::default()
                        });
                    }
                }
            }
        };
        // The start and goal nodes stay in the polyline: a query point sees
        // its own triangle's incentre (a triangle is convex), and every link
        // of the base graph is clear, so consecutive points see each other
        // and the shortcut's line-of-sight tests decide every other leg.
        let mut pts = vec![world_to_plan(from)];
        pts.extend(
            nodes
                .iter()
                .map(|&n| world_to_plan(dual.mesh.nodes[n as usize].position)),
        );
        pts.push(world_to_plan(to));
        let (kept, skipped) = shortcut(walls, &pts);
        let mut waypoints: Vec<DVec3> = kept.iter().map(|p| plan_to_world(*p, 0.0)).collect();
        if original_from != from {
            waypoints.insert(0, original_from);
        }
        if original_to != to {
            waypoints.push(original_to);
        }
        let length = waypoints.windows(2).map(|w| w[0].distance(w[1])).sum();
        Ok(Route {
            found: true,
            waypoints,
            length,
            super_expansions,
            base_expansions,
            skipped_start_nodes: skipped,
            regions: region_path,
            expanded_regions: top.trace.expansions.iter().map(|e| e.node).collect(),
        })
    }
}

/// The sub-mesh of the nodes `keep` accepts (only those are copied), the
/// map from old node ids to new ones (`u32::MAX` for dropped nodes) and
/// back.
fn restrict(mesh: &NavMesh, keep: impl Fn(usize) -> bool) -> (NavMesh, Vec<u32>, Vec<u32>) {
    let mut sub = NavMesh::new(&mesh.pipeline, &mesh.level);
    let mut map = vec![u32::MAX; mesh.nodes.len()];
    let mut back = Vec::new();
    for (i, n) in mesh.nodes.iter().enumerate() {
        if keep(i) {
            map[i] = sub.add_node(n.position, n.polygon.clone(), n.stance, n.layer);
            back.push(i as u32);
        }
    }
    for l in &mesh.links {
        let (a, b) = (map[l.from as usize], map[l.to as usize]);
        if a != u32::MAX && b != u32::MAX {
            let mut l = l.clone();
            l.from = a;
            l.to = b;
            sub.links.push(l);
        }
    }
    (sub, map, back)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphs::dual_graph;
    use crate::triangulate::triangulate;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// Two separate rooms (two outer rings): no path between them.
    fn islands() -> Vec<Vec<DVec2>> {
        let room = |x0: f64| vec![v(x0, 0.), v(x0 + 40., 0.), v(x0 + 40., 40.), v(x0, 40.)];
        let pillar = |x0: f64, y0: f64| {
            vec![
                v(x0, y0),
                v(x0, y0 + 2.),
                v(x0 + 2., y0 + 2.),
                v(x0 + 2., y0),
            ]
        };
        let mut rings = vec![room(0.), room(50.)];
        for k in 0..5 {
            rings.push(pillar(5. + 7. * k as f64, 10.));
            rings.push(pillar(55. + 7. * k as f64, 25.));
        }
        rings
    }

    #[test]
    fn unreachable_queries_are_answered_on_the_super_graph() {
        let rings = islands();
        let tri = triangulate(&rings).unwrap();
        let walls = Walls::new(rings);
        let dual = dual_graph(&tri, &walls);
        let sg = partition(&tri, &dual, 10.0);
        assert!(sg.regions >= 4);
        let loc = Locator::new(&dual.mesh);
        let a = plan_to_world(v(1., 1.), 0.);
        let b = plan_to_world(v(89., 39.), 0.);
        // Every query starts at `a`: goal, snap distance, within_regions.
        let route = |to, snap, within_regions| {
            sg.route(
                &dual,
                &loc,
                &walls,
                a,
                to,
                RouteOptions {
                    snap,
                    within_regions,
                },
            )
        };
        let r = route(b, 0.0, true).unwrap();
        assert!(!r.found);
        assert_eq!(r.base_expansions, 0);
        assert!(r.super_expansions > 0 && r.super_expansions < sg.regions as usize);
        // A plain A* on the base graph expands a whole room first.
        let full = astar(
            &dual.mesh,
            loc.locate(a).unwrap().node,
            loc.locate(b).unwrap().node,
            a,
            b,
            &SearchOptions::default(),
        );
        assert!(
            full.nodes.is_none() && full.trace.expansions.len() > 2 * r.super_expansions,
            "{} vs {}",
            full.trace.expansions.len(),
            r.super_expansions
        );
        // Reachable inside a room: a straight line after shortcutting.
        let c = plan_to_world(v(39., 39.), 0.);
        let r = route(plan_to_world(v(39., 1.), 0.), 0.0, true).unwrap();
        assert!(r.found && (r.length - 38.0).abs() < 1e-9, "{r:?}");
        let r = route(c, 0.0, false).unwrap();
        assert!(r.found && r.waypoints.len() >= 2);
        assert!(
            route(plan_to_world(v(45., 1.), 0.), 1.0, false)
                .unwrap_err()
                .contains("goal")
        );
        // Within the snap distance the goal is pulled onto the mesh.
        let r = route(plan_to_world(v(40.5, 1.), 0.), 1.0, false).unwrap();
        assert!(r.found && (r.length - 39.5).abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn shortcut_skips_start_nodes_it_sees_past() {
        let walls = Walls::new(vec![vec![v(0., 0.), v(10., 0.), v(10., 10.), v(0., 10.)]]);
        let (k, skipped) = shortcut(&walls, &[v(1., 1.), v(0.5, 0.5), v(2., 8.), v(9., 9.)]);
        assert_eq!(k, vec![v(1., 1.), v(9., 9.)]);
        assert_eq!(skipped, 2);
        // Round a pillar: the corner stays, the detour nodes go.
        let walls = Walls::new(vec![
            vec![v(0., 0.), v(10., 0.), v(10., 10.), v(0., 10.)],
            vec![v(4., 4.), v(4., 6.), v(6., 6.), v(6., 4.)],
        ]);
        let (k, skipped) = shortcut(
            &walls,
            &[
                v(1., 5.),
                v(2., 8.),
                v(4., 6.),
                v(5., 9.),
                v(6., 6.),
                v(9., 5.),
            ],
        );
        assert_eq!(k, vec![v(1., 5.), v(4., 6.), v(6., 6.), v(9., 5.)]);
        assert_eq!(skipped, 1);
    }
}
