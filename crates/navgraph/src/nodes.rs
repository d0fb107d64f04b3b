//! Stages 2 and 3, designer-placed nodes: the Delaunay graph with blocked
//! edges removed and corridor flags, and the Voronoi check.
//!
//! **Blocked space** is the inflated primitives plus everything within the
//! agent radius of a wall of the floor plan (its outer boundary and holes
//! are walls too: the article shrinks the navigable area by the radius) and
//! everything outside the floor plan.
//!
//! **Delaunay graph.** spade's Delaunay triangulation of the node
//! positions. An edge is *removed* when its segment enters blocked space. A
//! kept edge is *flagged* when its corridor, the two nodes' disks of radius
//! `node_radius` joined by their outer tangents (for equal radii: every
//! point within `node_radius` of the segment), enters blocked space.
//!
//! **Voronoi check.** A node's Voronoi cell is its bounding box clipped by
//! the bisectors with its Delaunay neighbours. `V'` is the cell within the
//! floor plan minus the inflated primitives and the radius band along the
//! walls (polygon booleans by `i_overlay`, arcs as polygons). The node is
//! badly placed when `V'` does not contain it, falls apart, has a hole or is
//! not convex (a turn to the right larger than [`CONVEX_TOLERANCE`] of the
//! two edges' lengths, which tolerates i_overlay's snapping of collinear
//! points). Its removed edges are listed with it.
//!
//! **Path queries** ([`node_path`]). A query point is located by
//! visibility, not by distance: its node is the nearest one the point sees
//! (the segment between them stays out of blocked space). The nearest node
//! by distance may stand behind a wall, the failure of the article's
//! Figure 4; nearer hidden nodes are reported so the probe can show them.
//! A* on the Delaunay graph then joins the two nodes.

use glam::DVec2;
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::single::SingleFloatOverlay;
use navscope_core::NavMesh;
use navscope_core::geom::point_segment_distance;
use navscope_core::geom::range::{Library, check_points};
use navscope_core::level::{Blocker, FloorPlan};
use navscope_path::{SearchOptions, astar};
use serde::Serialize;
use spade::{DelaunayTriangulation, Point2, Triangulation as _};

use crate::primitives::{blocker_distance, outline, segment_distance};
use crate::walls::Walls;

/// Relative tolerance of the convexity test.
pub const CONVEX_TOLERANCE: f64 = 1e-6;

/// What blocks an edge or a corridor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Obstruction {
    /// Blocking primitive `k` of the level.
    Primitive(usize),
    /// A wall of the floor plan (or leaving it).
    Wall,
}

/// One Delaunay edge.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphEdge {
    /// Node indices, smaller first.
    pub nodes: (u32, u32),
    /// Why the edge was removed (`None`: kept).
    pub removed: Option<Obstruction>,
    /// For a kept edge, what its corridor hits.
    pub corridor_hit: Option<Obstruction>,
}

/// Blocked space of a floor plan for an agent of radius `radius`.
pub struct Blocked<'a> {
    plan: &'a FloorPlan,
    walls: Walls,
    radius: f64,
}

impl<'a> Blocked<'a> {
    /// Blocked space of `plan`.
    pub fn new(plan: &'a FloorPlan, radius: f64) -> Self {
        let walls = Walls::new(plan.area.rings().map(|r| r.points.clone()).collect());
        Self {
            plan,
            walls,
            radius,
        }
    }

    /// What the set of points within `extra` of the segment `ab` hits
    /// first (primitives in order, then walls).
    pub fn obstruction(&self, a: DVec2, b: DVec2, extra: f64) -> Option<Obstruction> {
        let reach = self.radius + extra;
        if let Some(k) = self
            .plan
            .blockers
            .iter()
            .position(|bl| blocker_distance(bl, a, b) < reach)
        {
            return Some(Obstruction::Primitive(k));
        }
        if !self.walls.free(a) || !self.walls.clear(a, b) {
            return Some(Obstruction::Wall);
        }
        let near_wall = self.walls.rings.iter().any(|r| {
            (0..r.len()).any(|i| segment_distance(a, b, r[i], r[(i + 1) % r.len()]) < reach)
        });
        near_wall.then_some(Obstruction::Wall)
    }
}

/// Builds the Delaunay graph of `plan`'s nodes.
pub fn delaunay_graph(
    plan: &FloorPlan,
    radius: f64,
    node_radius: f64,
) -> Result<Vec<GraphEdge>, String> {
    let mut dt: DelaunayTriangulation<Point2<f64>> = DelaunayTriangulation::new();
    for (k, n) in plan.nodes.iter().enumerate() {
        check_points(Library::Delaunay, &format!("node '{}'", n.name), [n.at])?;
        let h = dt
            .insert(Point2::new(n.at.x, n.at.y))
            .map_err(|e| format!("node '{}': cannot be triangulated ({e})", n.name))?;
        if h.index() != k {
            let other = &plan.nodes[h.index()].name;
            return Err(format!("node '{}': stands on node '{other}'", n.name));
        }
    }
    let blocked = Blocked::new(plan, radius);
    let mut edges: Vec<GraphEdge> = dt
        .undirected_edges()
        .map(|e| {
            let [a, b] = e.vertices().map(|v| v.fix().index() as u32);
            let (a, b) = (a.min(b), a.max(b));
            let (pa, pb) = (plan.nodes[a as usize].at, plan.nodes[b as usize].at);
            let removed = blocked.obstruction(pa, pb, 0.0);
            let corridor_hit = if removed.is_none() {
                blocked.obstruction(pa, pb, node_radius)
            } else {
                None
            };
            GraphEdge {
                nodes: (a, b),
                removed,
                corridor_hit,
            }
        })
        .collect();
    edges.sort_by_key(|e| e.nodes);
    Ok(edges)
}

/// A path over the designer's nodes ([`node_path`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodePath {
    /// Start, the nodes walked through, goal (plan).
    pub points: Vec<DVec2>,
    /// The nodes walked through, first the start's.
    pub nodes: Vec<u32>,
    /// Nodes nearer to the start than its node but hidden from it.
    pub hidden_from_start: Vec<u32>,
    /// Nodes nearer to the goal than its node but hidden from it.
    pub hidden_from_goal: Vec<u32>,
    /// Nodes the A* search expanded.
    pub expansions: usize,
    /// Length in metres.
    pub length: f64,
}

/// The nearest node that `p` sees, and the nearer ones it does not, or an
/// error naming `what` when `p` is in blocked space or sees no node.
fn locate_visible(
    blocked: &Blocked,
    nodes: &[DVec2],
    p: DVec2,
    what: &str,
) -> Result<(u32, Vec<u32>), String> {
    if blocked.obstruction(p, p, 0.0).is_some() {
        return Err(format!(
            "the {what} ({:.2}, {:.2}) is in blocked space",
            p.x, p.y
        ));
    }
    let mut order: Vec<u32> = (0..nodes.len() as u32).collect();
    order.sort_by(|&a, &b| {
        nodes[a as usize]
            .distance(p)
            .total_cmp(&nodes[b as usize].distance(p))
            .then(a.cmp(&b))
    });
    let mut hidden = Vec::new();
    for n in order {
        if blocked.obstruction(p, nodes[n as usize], 0.0).is_none() {
            return Ok((n, hidden));
        }
        hidden.push(n);
    }
    Err(format!("the {what} ({:.2}, {:.2}) sees no node", p.x, p.y))
}

/// The path from `from` to `to` (plan points) over `mesh`, the Delaunay
/// graph of `plan`'s nodes for an agent of radius `radius`: see the module
/// docs. `Ok(None)` when the two nodes are not connected.
pub fn node_path(
    plan: &FloorPlan,
    radius: f64,
    mesh: &NavMesh,
    from: DVec2,
    to: DVec2,
) -> Result<Option<NodePath>, String> {
    let blocked = Blocked::new(plan, radius);
    let at: Vec<DVec2> = plan.nodes.iter().map(|n| n.at).collect();
    let (s, hidden_from_start) = locate_visible(&blocked, &at, from, "start")?;
    let (g, hidden_from_goal) = locate_visible(&blocked, &at, to, "goal")?;
    let search = astar(
        mesh,
        s,
        g,
        mesh.nodes[s as usize].position,
        mesh.nodes[g as usize].position,
        &SearchOptions::default(),
    );
    let Some(nodes) = search.nodes else {
        return Ok(None);
    };
    let mut points = vec![from];
    points.extend(nodes.iter().map(|&n| at[n as usize]));
    points.push(to);
    let length = points.windows(2).map(|w| w[0].distance(w[1])).sum();
    Ok(Some(NodePath {
        points,
        nodes,
        hidden_from_start,
        hidden_from_goal,
        expansions: search.trace.expansions.len(),
        length,
    }))
}

/// The Voronoi check of one node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellCheck {
    /// The Voronoi cell (clipped to the plan's bounds grown by a margin).
    pub cell: Vec<DVec2>,
    /// `V'`: the cell's free part, as polygons with holes (outer first).
    pub free: Vec<Vec<Vec<DVec2>>>,
    /// Why the node is badly placed (`None`: well placed).
    pub problem: Option<String>,
    /// Removed Delaunay edges at this node (indices into the edge list).
    pub missing_edges: Vec<usize>,
}

/// Runs the Voronoi check for every node. Refuses (one line) coordinates
/// beyond the range of the polygon booleans ([`Library::Overlay`]).
pub fn voronoi_check(
    plan: &FloorPlan,
    radius: f64,
    edges: &[GraphEdge],
) -> Result<Vec<CellCheck>, String> {
    let (lo, hi) = plan.area.bounds();
    let margin = (hi - lo).max_element().max(1.0);
    let (lo, hi) = (lo - DVec2::splat(margin), hi + DVec2::splat(margin));
    check_points(
        Library::Overlay,
        "the floor plan grown by its size",
        [lo, hi],
    )?;
    let blocked = Blocked::new(plan, radius);
    // Blocked polygons: inflated primitives and the wall bands (each wall
    // segment's capsule).
    let mut clip: Vec<Vec<[f64; 2]>> = Vec::with_capacity(plan.blockers.len());
    for (k, b) in plan.blockers.iter().enumerate() {
        let o = outline(b, radius);
        check_points(Library::Overlay, &format!("blocker {k}"), o.iter().copied())?;
        clip.push(o.iter().map(|p| [p.x, p.y]).collect());
    }
    if radius > 0.0 {
        for r in plan.area.rings() {
            for i in 0..r.len() {
                let seg = Blocker::Box {
                    center: (r.at(i as isize) + r.at(i as isize + 1)) * 0.5,
                    half: DVec2::new(r.at(i as isize).distance(r.at(i as isize + 1)) * 0.5, 0.0),
                    angle: (r.at(i as isize + 1) - r.at(i as isize)).to_angle(),
                };
                clip.push(outline(&seg, radius).iter().map(|p| [p.x, p.y]).collect());
            }
        }
    }
    let area: Vec<Vec<[f64; 2]>> = plan
        .area
        .rings()
        .map(|r| r.points.iter().map(|p| [p.x, p.y]).collect())
        .collect();
    let n = plan.nodes.len();
    let mut neighbours = vec![Vec::new(); n];
    for e in edges {
        neighbours[e.nodes.0 as usize].push(e.nodes.1 as usize);
        neighbours[e.nodes.1 as usize].push(e.nodes.0 as usize);
    }
    Ok((0..n)
        .map(|k| {
            let p = plan.nodes[k].at;
            let mut cell = vec![lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
            for &m in &neighbours[k] {
                let q = plan.nodes[m].at;
                cell = clip_half_plane(&cell, (p + q) * 0.5, q - p);
            }
            let subject: Vec<[f64; 2]> = cell.iter().map(|p| [p.x, p.y]).collect();
            let inside = subject.overlay(&area, OverlayRule::Intersect, FillRule::NonZero);
            let free = if clip.is_empty() {
                inside
            } else {
                inside.overlay(&clip, OverlayRule::Difference, FillRule::NonZero)
            };
            let free: Vec<Vec<Vec<DVec2>>> = free
                .into_iter()
                .map(|s| {
                    s.into_iter()
                        .map(|c| c.into_iter().map(|[x, y]| DVec2::new(x, y)).collect())
                        .collect()
                })
                .collect();
            let problem = if blocked.obstruction(p, p, 0.0).is_some() {
                Some("the node stands in blocked space".to_string())
            } else if free.len() != 1 {
                Some(format!(
                    "its free cell falls apart into {} pieces",
                    free.len()
                ))
            } else if free[0].len() > 1 {
                Some(format!(
                    "a blocked area lies inside its cell ({} holes)",
                    free[0].len() - 1
                ))
            } else if let Some(v) = concave_vertex(&free[0][0]) {
                Some(format!(
                    "its free cell is not convex (at {:.3}, {:.3})",
                    v.x, v.y
                ))
            } else if !contains(&free[0][0], p) {
                Some("its free cell does not contain it".to_string())
            } else {
                None
            };
            let missing_edges = if problem.is_some() {
                edges
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| {
                        e.removed.is_some() && (e.nodes.0 as usize == k || e.nodes.1 as usize == k)
                    })
                    .map(|(i, _)| i)
                    .collect()
            } else {
                Vec::new()
            };
            CellCheck {
                cell,
                free,
                problem,
                missing_edges,
            }
        })
        .collect())
}

/// The part of convex polygon `poly` on the side of the line through `m`
/// with normal `n` where `(x - m) . n <= 0`.
pub fn clip_half_plane(poly: &[DVec2], m: DVec2, n: DVec2) -> Vec<DVec2> {
    let side = |p: DVec2| (p - m).dot(n);
    let mut out = Vec::new();
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let (sa, sb) = (side(a), side(b));
        if sa <= 0.0 {
            out.push(a);
        }
        if (sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0) {
            out.push(a + (b - a) * (sa / (sa - sb)));
        }
    }
    out
}

/// A vertex where the ring (either winding) turns against its overall
/// direction by more than the tolerance.
fn concave_vertex(ring: &[DVec2]) -> Option<DVec2> {
    let n = ring.len();
    let area: f64 = (0..n).map(|i| ring[i].perp_dot(ring[(i + 1) % n])).sum();
    let s = area.signum();
    (0..n).find_map(|i| {
        let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        let cross = (b - a).perp_dot(c - b) * s;
        (cross < -CONVEX_TOLERANCE * (b - a).length() * (c - b).length()).then_some(b)
    })
}

fn contains(ring: &[DVec2], p: DVec2) -> bool {
    let n = ring.len();
    if (0..n).any(|i| point_segment_distance(ring[i], ring[(i + 1) % n], p) < 1e-9) {
        return true;
    }
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::{Polygon, PolygonWithHoles};
    use navscope_core::level::NamedPoint;

    fn plan(nodes: &[(f64, f64)], blockers: Vec<Blocker>) -> FloorPlan {
        let sq = Polygon::new(vec![
            DVec2::new(0., 0.),
            DVec2::new(20., 0.),
            DVec2::new(20., 10.),
            DVec2::new(0., 10.),
        ]);
        FloorPlan {
            area: PolygonWithHoles::new(sq, vec![]),
            nodes: nodes
                .iter()
                .enumerate()
                .map(|(k, &(x, y))| NamedPoint {
                    name: format!("n{k}"),
                    at: DVec2::new(x, y),
                })
                .collect(),
            blockers,
        }
    }

    #[test]
    fn an_edge_through_a_column_is_removed_and_a_near_one_flagged() {
        let p = plan(
            &[(2., 5.), (18., 5.), (10., 1.5)],
            vec![Blocker::Cylinder {
                center: DVec2::new(10., 5.),
                radius: 1.0,
            }],
        );
        let e = delaunay_graph(&p, 0.5, 0.0).unwrap();
        assert_eq!(e.len(), 3);
        let through = e.iter().find(|e| e.nodes == (0, 1)).unwrap();
        assert_eq!(through.removed, Some(Obstruction::Primitive(0)));
        // Node 2 is 1.0 from the wall at y = 0 (radius 0.5): edges kept.
        let e = delaunay_graph(&p, 0.5, 1.5).unwrap();
        let side = e.iter().find(|e| e.nodes == (0, 2)).unwrap();
        assert_eq!(side.removed, None);
        assert!(side.corridor_hit.is_some());
    }

    #[test]
    fn the_figure_4_situation_is_a_badly_placed_node() {
        // A wall-like box splits the room; the left node's cell reaches
        // beyond it.
        let wall = Blocker::Box {
            center: DVec2::new(8., 4.),
            half: DVec2::new(0.25, 4.0),
            angle: 0.0,
        };
        let p = plan(&[(4., 5.), (17., 5.)], vec![wall]);
        let e = delaunay_graph(&p, 0.3, 0.0).unwrap();
        let v = voronoi_check(&p, 0.3, &e).unwrap();
        assert!(
            v[0].problem.as_deref().unwrap().contains("not convex"),
            "{:?}",
            v[0].problem
        );
        // The right node's cell (x >= 10.5) does not reach the wall.
        assert!(v[1].problem.is_none());
        // The one edge runs through the wall: removed, and listed as the
        // badly placed node's missing edge.
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].removed, Some(Obstruction::Primitive(0)));
        assert_eq!(v[0].missing_edges, vec![0]);
        // Well placed: nodes with convex free cells.
        let p = plan(&[(5., 5.), (15., 5.)], vec![]);
        let e = delaunay_graph(&p, 0.3, 0.0).unwrap();
        let v = voronoi_check(&p, 0.3, &e).unwrap();
        assert!(v.iter().all(|c| c.problem.is_none()), "{:?}", v[0].problem);
    }

    #[test]
    fn coordinates_beyond_the_geometry_crates_are_refused_in_one_line() {
        // i_overlay would panic (CoordinatesOutOfRange) on this blocker.
        let p = plan(
            &[(5., 5.), (15., 5.)],
            vec![Blocker::Cylinder {
                center: DVec2::new(10., 5.),
                radius: 1e200,
            }],
        );
        let e = delaunay_graph(&p, 0.3, 0.0).unwrap();
        assert_eq!(
            voronoi_check(&p, 0.3, &e).unwrap_err(),
            "blocker 0: coordinate 1.000e200 is beyond ±1e150, the range of polygon booleans"
        );
        // spade would answer a bare `TooLarge`.
        let p = plan(&[(5., 5.), (1e70, 5.)], vec![]);
        assert_eq!(
            delaunay_graph(&p, 0.3, 0.0).unwrap_err(),
            "node 'n1': coordinate 1.000e70 is beyond ±1e60, the range of Delaunay triangulation"
        );
    }

    #[test]
    fn degenerate_node_sets() {
        // Collinear nodes: a path graph, no faces.
        let p = plan(&[(2., 5.), (6., 5.), (10., 5.), (14., 5.)], vec![]);
        let e = delaunay_graph(&p, 0.3, 0.0).unwrap();
        assert_eq!(e.len(), 3);
        // Coincident nodes are an error naming both.
        let p = plan(&[(2., 5.), (2., 5.)], vec![]);
        assert!(
            delaunay_graph(&p, 0.3, 0.0)
                .unwrap_err()
                .contains("'n1': stands on node 'n0'")
        );
        // No nodes at all.
        assert!(
            delaunay_graph(&plan(&[], vec![]), 0.3, 0.0)
                .unwrap()
                .is_empty()
        );
        assert!(
            voronoi_check(&plan(&[], vec![]), 0.3, &[])
                .unwrap()
                .is_empty()
        );
    }
}
