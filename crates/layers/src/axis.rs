//! The medial-axis graph with its closest-obstacle annotations.
//!
//! Vertices are where edges meet and where the nearest obstacle changes
//! (Voronoi vertices, including the degree-2 ones left behind by dropped
//! secondary edges: the small disks of the paper's Figure 1). Each edge is
//! a polyline on one layer between two of its sites; every polyline point
//! carries its clearance and its closest point on each site. A *join*
//! pairs the two vertices (one per layer) where an edge crosses an open
//! connection.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use glam::DVec2;
use navscope_core::geom::PolygonWithHoles;
use rayon::prelude::*;
use serde::Serialize;

use crate::grid::{Grid, IPt, orient_i};
use crate::sites::{Sites, side_of};
use crate::voronoi::{Source, primary_edges};

/// One annotated point of an axis edge.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AxisPoint {
    /// Plan position.
    pub at: DVec2,
    /// Distance to the nearest obstacle.
    pub clearance: f64,
    /// The closest point on each of the edge's two sites.
    pub closest: [DVec2; 2],
}

/// A vertex of the axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AxisVertex {
    /// Plan position.
    pub at: DVec2,
    /// Layer.
    pub layer: usize,
    /// Distance to the nearest obstacle.
    pub clearance: f64,
}

/// An edge of the axis: a polyline on one layer equidistant from two sites.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AxisEdge {
    /// Layer.
    pub layer: usize,
    /// The two sites (ids into [`Sites::list`]).
    pub sites: [u32; 2],
    /// End vertices.
    pub ends: [u32; 2],
    /// Annotated polyline from `ends[0]` to `ends[1]`.
    pub points: Vec<AxisPoint>,
}

impl AxisEdge {
    /// Polyline length.
    pub fn length(&self) -> f64 {
        self.points
            .windows(2)
            .map(|w| w[0].at.distance(w[1].at))
            .sum()
    }

    /// Clearance at the midpoint of piece `k` (the chord from polyline
    /// point `k` to `k + 1`), from the closest-point annotations alone: on
    /// each side, a point site has the same closest point at both ends and
    /// the distance is to that point; a segment site has two closest points
    /// on its line (the projections of the ends, so the midpoint projects
    /// between them) and the distance is to that line. The smaller side
    /// wins. On a straight edge this is the exact clearance; on a chord of
    /// a parabolic arc it is the clearance of the chord's midpoint, within
    /// the arc tolerance of the arc's. `None` when `k + 1` is past the end.
    pub fn piece_clearance(&self, k: usize) -> Option<f64> {
        let (p, q) = (self.points.get(k)?, self.points.get(k + 1)?);
        let m = (p.at + q.at) * 0.5;
        let side = |s: usize| {
            let (a, b) = (p.closest[s], q.closest[s]);
            let d = b - a;
            let len = d.length();
            if len <= 1e-12 * (1.0 + a.length()) {
                m.distance(a)
            } else {
                d.perp_dot(m - a).abs() / len
            }
        };
        Some(side(0).min(side(1)))
    }
}

/// Two vertices, on the two layers of a connection, at the same plan point
/// where an axis edge crosses it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Join {
    /// The vertices (on `from` and `to`).
    pub vertices: [u32; 2],
    /// The connection.
    pub connection: usize,
}

/// A medial-axis graph.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Axis {
    /// Vertices.
    pub vertices: Vec<AxisVertex>,
    /// Edges.
    pub edges: Vec<AxisEdge>,
    /// Joins across open connections.
    pub joins: Vec<Join>,
    #[serde(skip)]
    lookup: VertexCells,
    #[serde(skip)]
    snap: f64,
}

/// Hashes the small integer keys of [`VertexCells`]: one rotate, xor and
/// multiply per word and a SplitMix64 finish, so that keys differing only
/// in high bits (grid-aligned vertices) still spread over the table.
/// Much cheaper than the default SipHash for a lookup done several times
/// per axis vertex.
#[derive(Clone, Copy, Debug, Default)]
struct CellHasher(u64);

impl CellHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(26) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_i64(&mut self, v: i64) {
        self.add(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// Vertices by snap cell `(layer, floor(x / snap), floor(y / snap))`: the
/// first vertex of each cell, and for every vertex the next one in its
/// cell (`u32::MAX` ends a chain), so no cell owns an allocation.
#[derive(Clone, Debug, Default, PartialEq)]
struct VertexCells {
    heads: HashMap<(usize, i64, i64), u32, BuildHasherDefault<CellHasher>>,
    next: Vec<u32>,
}

impl VertexCells {
    fn clear(&mut self) {
        self.heads.clear();
        self.next.clear();
    }

    /// Adds vertex `id` (the next id in order) to `cell`.
    fn push(&mut self, cell: (usize, i64, i64), id: u32) {
        let prev = self.heads.insert(cell, id).unwrap_or(u32::MAX);
        self.next.push(prev);
    }

    /// The vertices of `cell`.
    fn cell(&self, cell: (usize, i64, i64)) -> impl Iterator<Item = u32> + '_ {
        let first = self.heads.get(&cell).copied();
        std::iter::successors(first, |&v| {
            let n = self.next[v as usize];
            (n != u32::MAX).then_some(n)
        })
    }
}

impl Axis {
    /// An empty axis whose vertices merge when closer than `snap` metres.
    pub fn new(snap: f64) -> Self {
        Self {
            snap,
            ..Default::default()
        }
    }

    /// The vertex of `layer` within the snap distance of `at`, or a new one.
    pub fn vertex(&mut self, layer: usize, at: DVec2, clearance: f64) -> u32 {
        if let Some(v) = self.find_vertex(layer, at) {
            return v;
        }
        let cell = |v: f64| (v / self.snap).floor() as i64;
        let (cx, cy) = (cell(at.x), cell(at.y));
        let id = self.vertices.len() as u32;
        self.vertices.push(AxisVertex {
            at,
            layer,
            clearance,
        });
        self.lookup.push((layer, cx, cy), id);
        id
    }

    /// The vertex of `layer` within the snap distance of `at`, if any.
    pub fn find_vertex(&self, layer: usize, at: DVec2) -> Option<u32> {
        let cell = |v: f64| (v / self.snap).floor() as i64;
        let (cx, cy) = (cell(at.x), cell(at.y));
        let mut best: Option<(f64, u32)> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for v in self.lookup.cell((layer, cx + dx, cy + dy)) {
                    let d = self.vertices[v as usize].at.distance(at);
                    if d <= self.snap && best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, v));
                    }
                }
            }
        }
        best.map(|(_, v)| v)
    }

    /// Adds an edge between the vertices nearest its polyline's ends;
    /// returns its index, or `None` when both ends fall on one vertex (a
    /// sliver left by snapping: a Voronoi edge never returns to its start).
    pub fn add_edge(
        &mut self,
        layer: usize,
        sites: [u32; 2],
        mut points: Vec<AxisPoint>,
    ) -> Option<usize> {
        let (first, last) = (points[0], points[points.len() - 1]);
        let v0 = self.vertex(layer, first.at, first.clearance);
        let v1 = self.vertex(layer, last.at, last.clearance);
        if v0 == v1 {
            return None;
        }
        points[0].at = self.vertices[v0 as usize].at;
        let n = points.len() - 1;
        points[n].at = self.vertices[v1 as usize].at;
        self.edges.push(AxisEdge {
            layer,
            sites,
            ends: [v0, v1],
            points,
        });
        Some(self.edges.len() - 1)
    }

    /// Number of edges at each vertex.
    pub fn degrees(&self) -> Vec<usize> {
        let mut d = vec![0; self.vertices.len()];
        for e in &self.edges {
            d[e.ends[0] as usize] += 1;
            d[e.ends[1] as usize] += 1;
        }
        d
    }

    /// Drops joins whose vertices no edge uses any more.
    pub fn drop_stale_joins(&mut self) {
        let d = self.degrees();
        self.joins
            .retain(|j| j.vertices.iter().all(|&v| d[v as usize] > 0));
    }

    /// Removes vertices no edge or join uses and renumbers the rest.
    pub fn compact(&mut self) {
        let mut used = vec![false; self.vertices.len()];
        for e in &self.edges {
            used[e.ends[0] as usize] = true;
            used[e.ends[1] as usize] = true;
        }
        for j in &self.joins {
            used[j.vertices[0] as usize] = true;
            used[j.vertices[1] as usize] = true;
        }
        let mut map = vec![u32::MAX; self.vertices.len()];
        let mut kept = Vec::new();
        for (i, v) in self.vertices.iter().enumerate() {
            if used[i] {
                map[i] = kept.len() as u32;
                kept.push(*v);
            }
        }
        self.vertices = kept;
        for e in &mut self.edges {
            e.ends = [map[e.ends[0] as usize], map[e.ends[1] as usize]];
        }
        for j in &mut self.joins {
            j.vertices = [map[j.vertices[0] as usize], map[j.vertices[1] as usize]];
        }
        self.lookup.clear();
        let snap = self.snap;
        for (i, v) in self.vertices.iter().enumerate() {
            let key = (
                v.layer,
                (v.at.x / snap).floor() as i64,
                (v.at.y / snap).floor() as i64,
            );
            self.lookup.push(key, i as u32);
        }
    }

    /// Connected components over edges and joins: a component id per vertex.
    pub fn components(&self) -> Vec<usize> {
        let mut parent: Vec<usize> = (0..self.vertices.len()).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        let pairs = self
            .edges
            .iter()
            .map(|e| e.ends)
            .chain(self.joins.iter().map(|j| j.vertices));
        for [a, b] in pairs {
            let (ra, rb) = (find(&mut parent, a as usize), find(&mut parent, b as usize));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        (0..self.vertices.len())
            .map(|v| find(&mut parent, v))
            .collect()
    }
}

/// Annotates polyline points with their closest points on two sites.
pub fn annotate(sites: &Sites, pair: [u32; 2], pts: &[DVec2]) -> Vec<AxisPoint> {
    let (g0, g1) = (
        sites.list[pair[0] as usize].geom,
        sites.list[pair[1] as usize].geom,
    );
    pts.iter()
        .map(|&p| {
            let (q0, q1) = (g0.closest(p), g1.closest(p));
            AxisPoint {
                at: p,
                clearance: p.distance(q0).min(p.distance(q1)),
                closest: [q0, q1],
            }
        })
        .collect()
}

/// The traditional 2D medial axis of each layer with every connection
/// closed (the paper's §3.2 step 1): Voronoi edges of the layer's obstacle
/// pieces that lie in its free space, between two sites facing them.
pub fn layer_axes(sites: &Sites, grid: Grid, tolerance: f64, snap: f64) -> Result<Axis, String> {
    // Layers are independent: their diagrams are computed in parallel,
    // largest first and one layer per task so that a big floor does not
    // wait behind a queue of small ones, and added in layer order, so the
    // result does not depend on the thread count.
    let mut by_size: Vec<usize> = (0..sites.pieces.len()).collect();
    by_size.sort_by_key(|&li| std::cmp::Reverse(sites.pieces[li].len()));
    let mut per_layer: Vec<(usize, Result<Vec<NewEdge>, String>)> = by_size
        .into_par_iter()
        .with_max_len(1)
        .map(|li| (li, layer_edges(sites, li, grid, tolerance)))
        .collect();
    per_layer.sort_by_key(|&(li, _)| li);
    let mut axis = Axis::new(snap);
    for (_, edges) in per_layer {
        for (li, pair, pts) in edges? {
            axis.add_edge(li, pair, pts);
        }
    }
    Ok(axis)
}

/// One diagonal inside every strictly convex hole with four or more
/// vertices, from its first vertex to the opposite one, to be added to the
/// layer's Voronoi input (not to its obstacles).
///
/// Why: the Voronoi diagram is also computed inside the holes, where it is
/// thrown away, and the inside of a regular polygon (a square pillar, an
/// octagon snapped to the grid) is made of nearly degenerate
/// three-segment circle events that `boostvoronoi` settles with slow exact
/// arithmetic. A diagonal splits that inside into two polygons with no
/// such near-ties (the layer diagrams of the paper's Figure 5 sample build
/// about 40% faster, Figure 6's about 14%). It changes nothing outside
/// the hole: every interior point of the diagonal lies strictly inside the
/// hole, so for a point outside, the hole's boundary is always closer
/// than the diagonal's interior, and its ends are hole vertices, already
/// obstacle points. Edges beside a diagonal are dropped with the other
/// edges inside obstacles.
fn hole_diagonals(area: &PolygonWithHoles, grid: Grid) -> Vec<(IPt, IPt)> {
    let mut out = Vec::new();
    for hole in &area.holes {
        let ring: Option<Vec<IPt>> = hole.points.iter().map(|&p| grid.snap(p)).collect();
        let Some(ring) = ring else { continue };
        let n = ring.len();
        if n < 4 {
            continue;
        }
        let turns: Vec<i128> = (0..n)
            .map(|i| orient_i(ring[i], ring[(i + 1) % n], ring[(i + 2) % n]))
            .collect();
        let strictly_convex = turns.iter().all(|&t| t > 0) || turns.iter().all(|&t| t < 0);
        if strictly_convex {
            out.push((ring[0], ring[n / 2]));
        }
    }
    out
}

/// An edge about to be added: layer, sites, annotated polyline.
type NewEdge = (usize, [u32; 2], Vec<AxisPoint>);

/// The annotated medial-axis edges of one layer.
fn layer_edges(
    sites: &Sites,
    li: usize,
    grid: Grid,
    tolerance: f64,
) -> Result<Vec<NewEdge>, String> {
    let diagonals = hole_diagonals(&sites.areas[li], grid);
    layer_edges_with(sites, li, grid, tolerance, &diagonals)
}

/// [`layer_edges`] with `extra` segments inside obstacles added to the
/// Voronoi input (they must meet the pieces only at piece endpoints).
fn layer_edges_with(
    sites: &Sites,
    li: usize,
    grid: Grid,
    tolerance: f64,
    extra: &[(IPt, IPt)],
) -> Result<Vec<NewEdge>, String> {
    let pieces = &sites.pieces[li];
    let mut segs: Vec<_> = pieces.iter().map(|p| (p.a, p.b)).collect();
    segs.extend_from_slice(extra);
    // An edge beside a segment lies on one side of it: the side of the
    // midpoint of its Voronoi vertices (an arc never crosses the segment's
    // line). Edges on a side without free space (inside obstacles) are
    // dropped before their arcs are cut into chords.
    let faces_free = |s: Source, at: DVec2| match s {
        Source::Segment(k) if k >= pieces.len() => false,
        Source::Segment(k) => {
            let p = &pieces[k];
            match side_of(p.a, p.b, at, grid) {
                Some(crate::sites::Side::Left) => p.sites[0].is_some(),
                Some(crate::sites::Side::Right) => p.sites[1].is_some(),
                None => true,
            }
        }
        _ => true,
    };
    let edges = primary_edges(&[], &segs, grid, tolerance, None, &|a, b, at| {
        faces_free(a, at) && faces_free(b, at)
    })
    .map_err(|e| format!("layer {li}: {e}"))?;
    // `PolygonWithHoles::contains`, skipping the holes whose bounding box
    // does not hold the point strictly inside (it cannot be strictly inside
    // them): the same answer for a fraction of the ring edges.
    let area = &sites.areas[li];
    let hole_boxes: Vec<(DVec2, DVec2)> = area.holes.iter().map(|h| h.bounds()).collect();
    let in_free_space = |p: DVec2| {
        area.outer.contains(p, true)
            && area.holes.iter().zip(&hole_boxes).all(|(h, (lo, hi))| {
                !(p.cmpgt(*lo).all() && p.cmplt(*hi).all() && h.contains(p, false))
            })
    };
    let mut out = Vec::new();
    for e in edges {
        let mid = if e.points.len() == 2 {
            (e.points[0] + e.points[1]) * 0.5
        } else {
            e.points[e.points.len() / 2]
        };
        // An edge with a segment on either side lies on that segment's free
        // side exactly when it is in free space (checked below when
        // resolving sides); only edges between two points need the polygon
        // test.
        let points_only = e.sources.iter().all(|s| !matches!(s, Source::Segment(_)));
        if points_only && !in_free_space(mid) {
            continue;
        }
        let resolve = |s: Source| -> Option<u32> {
            match s {
                Source::Segment(k) => {
                    let p = pieces.get(k)?;
                    match side_of(p.a, p.b, mid, grid)? {
                        crate::sites::Side::Left => p.sites[0],
                        crate::sites::Side::Right => p.sites[1],
                    }
                }
                Source::Start(k) => sites.point(li, segs[k].0),
                Source::End(k) => sites.point(li, segs[k].1),
                Source::Point(_) => None,
            }
        };
        let (Some(s0), Some(s1)) = (resolve(e.sources[0]), resolve(e.sources[1])) else {
            continue;
        };
        out.push((li, [s0, s1], annotate(sites, [s0, s1], &e.points)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(at: DVec2, c0: DVec2, c1: DVec2) -> AxisPoint {
        AxisPoint {
            at,
            clearance: at.distance(c0).min(at.distance(c1)),
            closest: [c0, c1],
        }
    }

    #[test]
    fn hole_diagonals_change_nothing_outside_the_holes() {
        let grid = Grid { step: 0.001 };
        for level in [crate::samples::figure5(), crate::samples::figure6()] {
            let sites = Sites::build(&level, grid).unwrap();
            for li in 0..3 {
                let d = hole_diagonals(&sites.areas[li], grid);
                // Octagons, heptagons, the hexagon and the rectangles.
                assert!(d.len() >= 9, "{}", d.len());
                for &(a, b) in &d {
                    let m = (grid.plan(a) + grid.plan(b)) * 0.5;
                    assert!(!sites.areas[li].contains(m), "diagonal inside a hole");
                }
                let with = layer_edges_with(&sites, li, grid, 0.01, &d).unwrap();
                let without = layer_edges_with(&sites, li, grid, 0.01, &[]).unwrap();
                assert_eq!(with, without, "layer {li}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn hole_diagonals_never_change_a_layer_axis(
            pillars in proptest::collection::vec((1.5f64..18.5, 1.5f64..8.5, 0.2f64..1.2, 3usize..10, 0.0f64..1.0), 1..6)
        ) {
            use navscope_core::level::LayeredLevel;
            // Regular polygons snapped to a 1 cm grid (near-ties and
            // exact ties alike), skipping any that would overlap.
            let mut holes: Vec<navscope_core::geom::Polygon> = Vec::new();
            let mut placed: Vec<(DVec2, f64)> = Vec::new();
            for (x, y, r, n, phase) in pillars {
                let c = DVec2::new(x, y);
                let r = r.min(x - 0.2).min(20.0 - x - 0.2).min(y - 0.2).min(10.0 - y - 0.2);
                if r < 0.1 || placed.iter().any(|&(d, q)| d.distance(c) < r + q + 0.1) {
                    continue;
                }
                placed.push((c, r));
                holes.push(navscope_core::geom::Polygon::new(
                    (0..n)
                        .map(|k| {
                            let p = c + DVec2::from_angle(phase + k as f64 * std::f64::consts::TAU / n as f64) * r;
                            (p * 100.0).round() / 100.0
                        })
                        .collect(),
                ));
            }
            let level = LayeredLevel {
                layers: vec![crate::samples::layer("l", 0.0, crate::samples::rect(0.0, 0.0, 20.0, 10.0), holes)],
                connections: vec![],
            };
            let grid = Grid { step: 0.001 };
            let Ok(sites) = Sites::build(&level, grid) else { return Ok(()) };
            let d = hole_diagonals(&sites.areas[0], grid);
            let with = layer_edges_with(&sites, 0, grid, 0.01, &d).unwrap();
            let without = layer_edges_with(&sites, 0, grid, 0.01, &[]).unwrap();
            proptest::prop_assert_eq!(with, without);
        }
    }

    #[test]
    fn only_strictly_convex_holes_get_a_diagonal() {
        use crate::samples::rect;
        use navscope_core::geom::Polygon;
        let grid = Grid { step: 1.0 };
        let l_shape = Polygon::new(
            [
                (2.0, 2.0),
                (6.0, 2.0),
                (6.0, 4.0),
                (4.0, 4.0),
                (4.0, 6.0),
                (2.0, 6.0),
            ]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec(),
        );
        let with_collinear = Polygon::new(
            [
                (10.0, 2.0),
                (12.0, 2.0),
                (14.0, 2.0),
                (14.0, 4.0),
                (10.0, 4.0),
            ]
            .map(|(x, y)| DVec2::new(x, y))
            .to_vec(),
        );
        let triangle = Polygon::new(
            [(2.0, 10.0), (4.0, 10.0), (3.0, 12.0)]
                .map(|(x, y)| DVec2::new(x, y))
                .to_vec(),
        );
        let area = PolygonWithHoles::new(
            rect(0.0, 0.0, 20.0, 20.0),
            vec![
                l_shape,
                with_collinear,
                triangle,
                rect(10.0, 10.0, 12.0, 13.0),
            ],
        );
        assert_eq!(hole_diagonals(&area, grid), vec![([10, 10], [12, 13])]);
    }

    #[test]
    fn piece_clearance_is_the_midpoint_distance_to_both_sites() {
        // Between a point site at the origin and the line y = 2 (a
        // parabola): chord from (0, 1) to (2, 1.5).
        let (a, b) = (DVec2::new(0.0, 1.0), DVec2::new(2.0, 1.5));
        let e = AxisEdge {
            layer: 0,
            sites: [0, 1],
            ends: [0, 1],
            points: vec![
                pt(a, DVec2::ZERO, DVec2::new(0.0, 2.0)),
                pt(b, DVec2::ZERO, DVec2::new(2.0, 2.0)),
            ],
        };
        let m = (a + b) * 0.5;
        let expect = m.length().min(2.0 - m.y);
        assert!((e.piece_clearance(0).unwrap() - expect).abs() < 1e-12);
        assert_eq!(e.piece_clearance(1), None);
        // A zero-length chord on a point site.
        let z = AxisEdge {
            points: vec![pt(a, DVec2::ZERO, DVec2::ZERO); 2],
            ..e
        };
        assert!((z.piece_clearance(0).unwrap() - 1.0).abs() < 1e-12);
    }
}
