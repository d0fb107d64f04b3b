//! Stage 7, graphs from the triangulation: the dual graph at incentres
//! extended with the triangulation's vertices and edges, and the
//! art-gallery graph.
//!
//! **Dual graph.** One node per triangle at its incentre, with the
//! inscribed-circle radius as its node radius (and the triangle as its
//! polygon in the NavMesh); one node per triangulation vertex. Links: each
//! incentre to its three corners, every triangulation edge, and each pair of
//! adjacent triangles' incentres when the straight segment between them is
//! clear. When it is not, the dual edge is *repaired*: the two triangles are
//! joined through the shared corner that makes the shorter detour, which
//! the corner links already provide; the repair is recorded for drawing.
//! Triangle nodes carry their inscribed radius as the NavMesh node
//! `radius` (vertex nodes have none). A kept dual edge is *narrow* when its
//! corridor, the two incircles joined by their outer mutual tangents (the
//! article's "2D cylinder with the bases at the nodes", each base with its
//! own node's radius), is entered by a wall ([`Walls::corridor_clear`]):
//! an agent switching nodes anywhere within a node's radius may then cut
//! the corner. Narrow edges stay in the graph (their centre segment is
//! clear) and are drawn apart.
//!
//! **Art-gallery graph.** Guards stand on triangulation vertices. The first
//! guard is a vertex of the highest order (most incident triangles); then
//! the triangles are scanned in order and the first one not entirely seen
//! by a guard gets a guard at its highest-order corner. A triangle counts as
//! seen when the convex hull of the guard and the triangle is free
//! ([`Walls::sees_triangle`]); the search for triangles a new guard sees
//! grows through neighbouring seen triangles and stops after
//! [`SEEN_SEARCH_LIMIT`] triangles (this only ever adds guards). The search
//! decides most triangles in constant time from the one it came through
//! ([`crate::sight`]), so a guard that sees far costs no more than one that
//! sees near. `walls` must be the rings `tri` triangulates. Guards need
//! not see each other, so connecting nodes are added through the mesh: a
//! multi-source Dijkstra over the triangulation edges gives each vertex its
//! nearest guard; for every pair of guards whose vertex sets touch, the
//! shortest such vertex path between them is shortcut by line of sight and
//! its remaining inner vertices become connecting nodes.

use std::collections::{BTreeMap, BinaryHeap};

use glam::DVec2;
use navscope_core::geom::plan_to_world;
use navscope_core::heap::MinCost;
use navscope_core::{LinkKind, NavMesh, Stance};
use rayon::prelude::*;
use serde::Serialize;

use crate::sight::Sight;
use crate::triangulate::{Triangulation, incircle};
use crate::walls::Walls;

/// At most this many triangles are tested when finding what a new guard
/// sees.
pub const SEEN_SEARCH_LIMIT: usize = 4096;

/// The dual graph extended with the triangulation's vertices and edges.
#[derive(Clone, Debug, Serialize)]
pub struct DualGraph {
    /// Incentre of every triangle (node `t`).
    pub incentres: Vec<DVec2>,
    /// Inscribed-circle radius of every triangle.
    pub radii: Vec<f64>,
    /// Triangulation vertex of node `triangles + k`.
    pub vertex_nodes: Vec<u32>,
    /// Direct dual edges (triangle pairs, smaller first).
    pub dual_edges: Vec<(u32, u32)>,
    /// Repaired dual edges: triangles `a`, `b` and the shared vertex joining them.
    pub repaired: Vec<(u32, u32, u32)>,
    /// Direct dual edges whose corridor between the two incircles a wall
    /// enters (a subset of `dual_edges`).
    pub narrow: Vec<(u32, u32)>,
    /// The graph as a NavMesh: triangles first (polygon nodes), then vertices.
    pub mesh: NavMesh,
}

/// The art-gallery graph.
#[derive(Clone, Debug, Serialize)]
pub struct GalleryGraph {
    /// Triangulation vertices holding guards, in placement order (node `k`).
    pub guards: Vec<u32>,
    /// Connecting triangulation vertices (nodes after the guards).
    pub connectors: Vec<u32>,
    /// Links as node pairs (smaller first).
    pub edges: Vec<(u32, u32)>,
    /// For every triangle, the guard (index into `guards`) that sees it.
    pub seen_by: Vec<u32>,
    /// For every guard, the unseen triangle that called for it (`None` for
    /// the first guard, placed at a vertex of highest order).
    pub placed_for: Vec<Option<u32>>,
    /// The graph as a NavMesh of point nodes.
    pub mesh: NavMesh,
}

fn w(p: DVec2) -> glam::DVec3 {
    plan_to_world(p, 0.0)
}

/// Incident triangles of every vertex.
pub fn vertex_triangles(tri: &Triangulation) -> Vec<Vec<u32>> {
    let mut inc = vec![Vec::new(); tri.vertices.len()];
    for (t, vs) in tri.triangles.iter().enumerate() {
        for &v in vs {
            inc[v as usize].push(t as u32);
        }
    }
    inc
}

/// Every triangulation edge once, as vertex pairs.
pub fn triangulation_edges(tri: &Triangulation) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (t, vs) in tri.triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (vs[k], vs[(k + 1) % 3]);
            if tri.neighbours[t][k].is_none() || a < b {
                out.push((a.min(b), a.max(b)));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// What the walls say of the dual edge between two neighbouring
/// triangles' incentres.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DualEdge {
    /// No edge to test here: no neighbour, or the pair is tested from the
    /// other triangle (the one with the smaller index).
    Skip,
    /// The segment between the incentres crosses a wall: repaired.
    Blocked,
    /// Clear, and so is the corridor between the two incircles.
    Wide,
    /// Clear, but a wall enters the corridor between the incircles.
    Narrow,
}

/// Every triangle's incircle (centre and radius), in triangle order: the
/// dual graph's node positions and clearances, and what its edge tests
/// read.
pub fn incircles(tri: &Triangulation) -> Vec<(DVec2, f64)> {
    (0..tri.triangles.len())
        .map(|t| {
            let [a, b, c] = tri.corners(t);
            incircle(a, b, c)
        })
        .collect()
}

/// The line-of-sight and corridor tests of every dual edge, per triangle
/// and edge (`[t][k]` for the neighbour across edge `k` of triangle `t`),
/// between the triangles' `circles` ([`incircles`]), run in parallel: they
/// are independent and read-only, and the order of the result does not
/// depend on the thread count. These walks are most of the dual graph's
/// time on a large raster.
pub fn dual_edge_tests(
    tri: &Triangulation,
    walls: &Walls,
    circles: &[(DVec2, f64)],
) -> Vec<[DualEdge; 3]> {
    (0..tri.triangles.len())
        .into_par_iter()
        .map(|t| {
            let (ct, rt) = circles[t];
            let mut out = [DualEdge::Skip; 3];
            for (k, slot) in out.iter_mut().enumerate() {
                let Some(u) = tri.neighbours[t][k] else {
                    continue;
                };
                if (u as usize) < t {
                    continue;
                }
                let (cu, ru) = circles[u as usize];
                *slot = if !walls.clear(ct, cu) {
                    DualEdge::Blocked
                } else if walls.corridor_clear(ct, rt, cu, ru) {
                    DualEdge::Wide
                } else {
                    DualEdge::Narrow
                };
            }
            out
        })
        .collect()
}

/// Builds the extended dual graph.
///
/// Every vector is sized before it is filled (the NavMesh's links from
/// their count: three corner links per triangle, one per triangulation
/// edge and at most one per pair of neighbouring triangles), so none grows
/// by doubling: on a large raster the links alone are over a gigabyte.
/// The wall tests of the dual edges come first, in parallel
/// ([`dual_edge_tests`]); the graph is then filled in triangle order.
pub fn dual_graph(tri: &Triangulation, walls: &Walls) -> DualGraph {
    let circles = incircles(tri);
    let tests = dual_edge_tests(tri, walls, &circles);
    let nt = tri.triangles.len();
    let edges = triangulation_edges(tri);
    let neighbour_pairs = tri
        .neighbours
        .iter()
        .enumerate()
        .map(|(t, ns)| ns.iter().flatten().filter(|&&u| u as usize > t).count())
        .sum::<usize>();
    let mut node_of = vec![u32::MAX; tri.vertices.len()];
    for vs in &tri.triangles {
        for &v in vs {
            node_of[v as usize] = 0;
        }
    }
    let used = node_of.iter().filter(|&&n| n == 0).count();
    let mut g = DualGraph {
        incentres: Vec::with_capacity(nt),
        radii: Vec::with_capacity(nt),
        vertex_nodes: Vec::with_capacity(used),
        dual_edges: Vec::with_capacity(neighbour_pairs),
        repaired: Vec::new(),
        narrow: Vec::new(),
        mesh: NavMesh::new("navgraph", ""),
    };
    g.mesh.nodes.reserve_exact(nt + used);
    g.mesh
        .links
        .reserve_exact(2 * (3 * nt + edges.len() + neighbour_pairs));
    for (t, &(centre, r)) in circles.iter().enumerate() {
        let [a, b, c] = tri.corners(t);
        g.incentres.push(centre);
        g.radii.push(r);
        let id = g
            .mesh
            .add_node(w(centre), Some(vec![w(a), w(b), w(c)]), Stance::Stand, 0);
        g.mesh.nodes[id as usize].radius = Some(r);
    }
    for (v, slot) in node_of.iter_mut().enumerate() {
        if *slot == 0 {
            *slot = g.mesh.add_node(w(tri.vertices[v]), None, Stance::Stand, 0);
            g.vertex_nodes.push(v as u32);
        }
    }
    for (t, test) in tests.iter().enumerate() {
        let vs = tri.triangles[t];
        for k in 0..3 {
            let Some(u) = tri.neighbours[t][k] else {
                continue;
            };
            if (u as usize) < t {
                continue;
            }
            let (a, b) = (vs[k], vs[(k + 1) % 3]);
            let (ct, cu) = (g.incentres[t], g.incentres[u as usize]);
            if test[k] != DualEdge::Blocked {
                g.dual_edges.push((t as u32, u));
                if test[k] == DualEdge::Narrow {
                    g.narrow.push((t as u32, u));
                }
                let seg = [w(tri.vertices[a as usize]), w(tri.vertices[b as usize])];
                g.mesh
                    .add_two_way(t as u32, u, LinkKind::Walk, ct.distance(cu), Some(seg));
            } else {
                let detour = |v: u32| {
                    ct.distance(tri.vertices[v as usize]) + tri.vertices[v as usize].distance(cu)
                };
                let via = if detour(a) <= detour(b) { a } else { b };
                g.repaired.push((t as u32, u, via));
            }
        }
        for &v in &vs {
            let p = tri.vertices[v as usize];
            g.mesh.add_two_way(
                t as u32,
                node_of[v as usize],
                LinkKind::Walk,
                g.incentres[t].distance(p),
                None,
            );
        }
    }
    for (a, b) in edges {
        let (pa, pb) = (tri.vertices[a as usize], tri.vertices[b as usize]);
        g.mesh.add_two_way(
            node_of[a as usize],
            node_of[b as usize],
            LinkKind::Walk,
            pa.distance(pb),
            None,
        );
    }
    g.narrow.sort_unstable();
    g
}

/// The neighbours of every vertex along the triangulation edges, in one
/// flat list (one allocation instead of one per vertex: a large raster has
/// a million vertices). Each vertex's neighbours are in the order of
/// `edges`, as pushing them one by one would give.
struct Adjacency {
    start: Vec<u32>,
    neighbours: Vec<u32>,
}

impl Adjacency {
    fn new(vertices: usize, edges: &[(u32, u32)]) -> Self {
        let mut start = vec![0u32; vertices + 1];
        for &(a, b) in edges {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for i in 0..vertices {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut neighbours = vec![0u32; 2 * edges.len()];
        for &(a, b) in edges {
            for (from, to) in [(a, b), (b, a)] {
                neighbours[fill[from as usize] as usize] = to;
                fill[from as usize] += 1;
            }
        }
        Self { start, neighbours }
    }

    fn of(&self, v: u32) -> &[u32] {
        &self.neighbours[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

/// The vertex path from the guard of `a` to `a`, then from `b` to the
/// guard of `b` (following `pred`, the nearest-guard tree), shortcut
/// greedily by line of sight: from each kept vertex, on to the farthest
/// vertex of the path it sees.
fn shortcut(tri: &Triangulation, walls: &Walls, pred: &[u32], a: u32, b: u32) -> Vec<u32> {
    let mut path = Vec::new();
    let mut v = a;
    while v != u32::MAX {
        path.push(v);
        v = pred[v as usize];
    }
    path.reverse();
    let mut v = b;
    while v != u32::MAX {
        path.push(v);
        v = pred[v as usize];
    }
    let mut i = 0;
    let mut kept = vec![path[0]];
    while i + 1 < path.len() {
        let pi = tri.vertices[path[i] as usize];
        let mut j = path.len() - 1;
        while j > i + 1 && !walls.clear(pi, tri.vertices[path[j] as usize]) {
            j -= 1;
        }
        kept.push(path[j]);
        i = j;
    }
    kept
}

/// Places the art-gallery guards (module docs): for every guard, its
/// triangulation vertex in `guards` and the triangle that called for it in
/// `placed_for`; for every triangle, the guard that sees it in `seen_by`.
/// `inc` are the triangles of every vertex.
fn place_guards(
    tri: &Triangulation,
    walls: &Walls,
    inc: &[Vec<u32>],
    seen_by: &mut [u32],
    guards: &mut Vec<u32>,
    placed_for: &mut Vec<Option<u32>>,
) {
    let nt = tri.triangles.len();
    let order = |v: u32| inc[v as usize].len();
    let mut visited = vec![u32::MAX; nt];
    let mut sight = Sight::new(tri, walls);
    let mut place = |g: u32, guards: &mut Vec<u32>, seen_by: &mut [u32]| {
        let id = guards.len() as u32;
        guards.push(g);
        sight.start(g, &inc[g as usize]);
        let mut queue: std::collections::VecDeque<u32> = inc[g as usize].iter().copied().collect();
        for &t in &inc[g as usize] {
            visited[t as usize] = id;
            if seen_by[t as usize] == u32::MAX {
                seen_by[t as usize] = id;
            }
        }
        let mut tested = 0;
        while let Some(t) = queue.pop_front() {
            for u in tri.neighbours[t as usize].iter().flatten() {
                let u = *u as usize;
                if visited[u] == id || tested >= SEEN_SEARCH_LIMIT {
                    continue;
                }
                visited[u] = id;
                tested += 1;
                if sight.sees(t, u as u32) {
                    if seen_by[u] == u32::MAX {
                        seen_by[u] = id;
                    }
                    queue.push_back(u as u32);
                }
            }
        }
    };
    if let Some(first) = (0..tri.vertices.len() as u32)
        .filter(|&v| order(v) > 0)
        .max_by(|&a, &b| order(a).cmp(&order(b)).then(b.cmp(&a)))
    {
        place(first, guards, seen_by);
        placed_for.push(None);
    }
    for t in 0..nt {
        if seen_by[t] == u32::MAX {
            let vs = tri.triangles[t];
            let g = vs
                .iter()
                .copied()
                .max_by(|&a, &b| order(a).cmp(&order(b)).then(b.cmp(&a)))
                .unwrap_or(vs[0]);
            place(g, guards, seen_by);
            placed_for.push(Some(t as u32));
        }
    }
}

/// Builds the art-gallery graph.
pub fn gallery_graph(tri: &Triangulation, walls: &Walls) -> GalleryGraph {
    let nt = tri.triangles.len();
    let inc = vertex_triangles(tri);
    let mut seen_by = vec![u32::MAX; nt];
    let mut guards: Vec<u32> = Vec::new();
    let mut placed_for = Vec::new();
    // The vertex adjacency for the nearest-guard search below does not
    // depend on the guards: built by an idle thread, if there is one,
    // while they are placed.
    let nv = tri.vertices.len();
    let ((edges, adj), ()) = rayon::join(
        || {
            let edges = triangulation_edges(tri);
            let adj = Adjacency::new(nv, &edges);
            (edges, adj)
        },
        || place_guards(tri, walls, &inc, &mut seen_by, &mut guards, &mut placed_for),
    );
    // Nearest guard of every vertex over the triangulation edges.
    let (mut dist, mut owner, mut pred) = (
        vec![f64::INFINITY; nv],
        vec![u32::MAX; nv],
        vec![u32::MAX; nv],
    );
    let mut heap = BinaryHeap::new();
    for (k, &g) in guards.iter().enumerate() {
        if dist[g as usize] > 0.0 {
            dist[g as usize] = 0.0;
            owner[g as usize] = k as u32;
            heap.push(MinCost(0.0, g));
        }
    }
    while let Some(MinCost(d, v)) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        for &u in adj.of(v) {
            let nd = d + tri.vertices[v as usize].distance(tri.vertices[u as usize]);
            if nd < dist[u as usize] {
                dist[u as usize] = nd;
                owner[u as usize] = owner[v as usize];
                pred[u as usize] = v;
                heap.push(MinCost(nd, u));
            }
        }
    }
    // The shortest touching edge per guard pair.
    let mut best: BTreeMap<(u32, u32), (f64, u32, u32)> = BTreeMap::new();
    for &(a, b) in &edges {
        let (oa, ob) = (owner[a as usize], owner[b as usize]);
        if oa == u32::MAX || ob == u32::MAX || oa == ob {
            continue;
        }
        let len = dist[a as usize]
            + tri.vertices[a as usize].distance(tri.vertices[b as usize])
            + dist[b as usize];
        let key = (oa.min(ob), oa.max(ob));
        let (a, b) = if oa < ob { (a, b) } else { (b, a) };
        if best.get(&key).is_none_or(|e| len < e.0) {
            best.insert(key, (len, a, b));
        }
    }
    let mut graph = GalleryGraph {
        guards: Vec::new(),
        connectors: Vec::new(),
        edges: Vec::new(),
        seen_by,
        placed_for,
        mesh: NavMesh::new("navgraph", ""),
    };
    let mut node_of: BTreeMap<u32, u32> = BTreeMap::new();
    for (k, &g) in guards.iter().enumerate() {
        node_of.insert(g, k as u32);
        graph
            .mesh
            .add_node(w(tri.vertices[g as usize]), None, Stance::Stand, 0);
    }
    let mut edge_set: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    // The shortcut paths are independent of each other: found in
    // parallel, then added in the order of `best`.
    let best: Vec<(u32, u32)> = best.into_values().map(|(_, a, b)| (a, b)).collect();
    let shortcuts: Vec<Vec<u32>> = best
        .par_iter()
        .map(|&(a, b)| shortcut(tri, walls, &pred, a, b))
        .collect();
    for kept in shortcuts {
        for pair in kept.windows(2) {
            let ids: Vec<u32> = pair
                .iter()
                .map(|&v| {
                    *node_of.entry(v).or_insert_with(|| {
                        graph.connectors.push(v);
                        graph
                            .mesh
                            .add_node(w(tri.vertices[v as usize]), None, Stance::Stand, 0)
                    })
                })
                .collect();
            let len = tri.vertices[pair[0] as usize].distance(tri.vertices[pair[1] as usize]);
            edge_set.insert((ids[0].min(ids[1]), ids[0].max(ids[1])), len);
        }
    }
    for ((a, b), len) in edge_set {
        graph.mesh.add_two_way(a, b, LinkKind::Walk, len, None);
        graph.edges.push((a, b));
    }
    graph.guards = guards;
    graph
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::reference_dual_edge_tests;
    use crate::triangulate::triangulate;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// Two rooms joined by a door: 0..10 and 12..22 with a wall 10..12
    /// open at 4..6.
    fn rooms() -> Vec<Vec<DVec2>> {
        vec![vec![
            v(0., 0.),
            v(10., 0.),
            v(10., 4.),
            v(12., 4.),
            v(12., 0.),
            v(22., 0.),
            v(22., 10.),
            v(12., 10.),
            v(12., 6.),
            v(10., 6.),
            v(10., 10.),
            v(0., 10.),
        ]]
    }

    #[test]
    fn the_gallery_of_two_rooms_is_connected_and_sees_everything() {
        let rings = rooms();
        let tri = triangulate(&rings).unwrap();
        let walls = Walls::new(rings);
        let g = gallery_graph(&tri, &walls);
        assert!(!g.guards.is_empty());
        for t in 0..tri.triangles.len() {
            let guard = g.guards[g.seen_by[t] as usize];
            assert!(walls.sees_triangle(tri.vertices[guard as usize], tri.corners(t)));
        }
        // Connected.
        let n = g.mesh.nodes.len();
        let mut seen = vec![false; n];
        let adj = g.mesh.adjacency();
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(a) = stack.pop() {
            for &l in &adj[a] {
                let b = g.mesh.links[l].to as usize;
                if !seen[b] {
                    seen[b] = true;
                    stack.push(b);
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "{g:?}");
        for &(a, b) in &g.edges {
            let (pa, pb) = (
                g.mesh.nodes[a as usize].position,
                g.mesh.nodes[b as usize].position,
            );
            assert!(walls.clear(DVec2::new(pa.x, -pa.z), DVec2::new(pb.x, -pb.z)));
        }
    }

    #[test]
    fn dual_edges_are_clear_and_repairs_use_a_shared_corner() {
        let rings = rooms();
        let tri = triangulate(&rings).unwrap();
        let walls = Walls::new(rings);
        let g = dual_graph(&tri, &walls);
        g.mesh.validate().unwrap();
        for &(a, b) in &g.dual_edges {
            assert!(walls.clear(g.incentres[a as usize], g.incentres[b as usize]));
        }
        for &(a, b, via) in &g.repaired {
            assert!(
                tri.triangles[a as usize].contains(&via)
                    && tri.triangles[b as usize].contains(&via)
            );
        }
        assert_eq!(
            g.dual_edges.len() + g.repaired.len(),
            tri.triangles.len() - 1
        );
        for (t, r) in g.radii.iter().enumerate() {
            assert!(*r > 0.0 && *r <= tri.area(t).sqrt());
        }
    }

    /// A room of up to 8 × 8 square pillars on a two-metre grid, each of
    /// side 0.5, 1 or 1.5 m at a half-metre offset, so many corners are
    /// collinear and many dual edges graze a corner.
    fn pillar_room(spots: &[(u8, u8, u8)]) -> Vec<Vec<DVec2>> {
        let mut rings = vec![vec![v(0., 0.), v(16., 0.), v(16., 16.), v(0., 16.)]];
        let mut taken = [[false; 8]; 8];
        for &(x, y, s) in spots {
            let (x, y) = (usize::from(x % 8), usize::from(y % 8));
            if std::mem::replace(&mut taken[x][y], true) {
                continue;
            }
            let (x0, y0, side) = (
                2.0 * x as f64 + 0.25,
                2.0 * y as f64 + 0.25,
                f64::from(s % 3 + 1) * 0.5,
            );
            rings.push(vec![
                v(x0, y0),
                v(x0, y0 + side),
                v(x0 + side, y0 + side),
                v(x0 + side, y0),
            ]);
        }
        rings
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(60))]

        /// The parallel wall tests give the sequential answers on one
        /// thread and on several, and the dual graph's edges and narrow
        /// edges follow them.
        #[test]
        fn parallel_dual_edge_tests_equal_the_sequential_ones(
            spots in proptest::collection::vec((0u8..8, 0u8..8, 0u8..3), 0..40),
        ) {
            let rings = pillar_room(&spots);
            let tri = triangulate(&rings).unwrap();
            let walls = Walls::new(rings);
            let want = reference_dual_edge_tests(&tri, &walls);
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let got = pool.install(|| dual_edge_tests(&tri, &walls, &incircles(&tri)));
                proptest::prop_assert_eq!(&got, &want);
            }
            let g = dual_graph(&tri, &walls);
            let kept = |keep: &dyn Fn(DualEdge) -> bool| {
                let mut pairs = Vec::new();
                for (t, slots) in want.iter().enumerate() {
                    for (k, &e) in slots.iter().enumerate() {
                        if e != DualEdge::Skip && keep(e) {
                            pairs.push((t as u32, tri.neighbours[t][k].unwrap()));
                        }
                    }
                }
                pairs
            };
            proptest::prop_assert_eq!(&g.dual_edges, &kept(&|e| e != DualEdge::Blocked));
            let mut narrow = kept(&|e| e == DualEdge::Narrow);
            narrow.sort_unstable();
            proptest::prop_assert_eq!(&g.narrow, &narrow);
        }
    }

    proptest::proptest! {
        /// The flat adjacency lists each vertex's neighbours as pushing
        /// them edge by edge into a list per vertex does.
        #[test]
        fn flat_adjacency_equals_lists_per_vertex(
            edges in proptest::collection::vec((0u32..30, 0u32..30), 0..120),
        ) {
            let mut lists = vec![Vec::new(); 31];
            for &(a, b) in &edges {
                lists[a as usize].push(b);
                lists[b as usize].push(a);
            }
            let flat = Adjacency::new(31, &edges);
            for (v, list) in lists.iter().enumerate() {
                proptest::prop_assert_eq!(flat.of(v as u32), list.as_slice());
            }
        }
    }

    #[test]
    fn a_room_without_pillars_has_no_blocked_dual_edge() {
        // Degenerate for the tests: no hole, so every pair is tested and
        // every dual edge in a convex room is clear.
        let rings = pillar_room(&[]);
        let tri = triangulate(&rings).unwrap();
        let tests = dual_edge_tests(&tri, &Walls::new(rings), &incircles(&tri));
        assert!(tests.iter().flatten().all(|&e| e != DualEdge::Blocked));
        assert_eq!(
            tests
                .iter()
                .flatten()
                .filter(|&&e| e != DualEdge::Skip)
                .count(),
            tri.triangles.len() - 1
        );
    }

    #[test]
    fn the_dual_graph_is_sized_before_it_is_filled() {
        // With holes, so some neighbour pairs get no dual link (repairs)
        // and some vertices none but their own.
        let mut rings = rooms();
        rings.push(vec![v(3., 3.), v(3., 7.), v(7., 7.), v(7., 3.)]);
        rings.push(vec![v(15., 3.), v(15., 7.), v(19., 7.), v(19., 3.)]);
        let tri = triangulate(&rings).unwrap();
        let walls = Walls::new(rings);
        let g = dual_graph(&tri, &walls);
        assert_eq!(g.mesh.nodes.capacity(), g.mesh.nodes.len());
        // Links: exact but for the two a repaired pair does not get.
        let spare = g.mesh.links.capacity() - g.mesh.links.len();
        assert_eq!(spare, 2 * g.repaired.len());
        assert_eq!(g.incentres.capacity(), g.incentres.len());
        assert_eq!(g.vertex_nodes.capacity(), g.vertex_nodes.len());
    }
}
