//! The whole query: locate both ends, search, smooth; and the CLI's JSON.

use glam::DVec3;
use navscope_core::NavMesh;
use serde::Serialize;
use thiserror::Error;

use crate::funnel::{FunnelBuffers, Waypoint, funnel_located, path_length};
use crate::locate::Locator;
use crate::search::{AStar, Search, SearchOptions};

/// Why [`find_path`] found no path.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum PathError {
    /// The mesh has no nodes at all.
    #[error("the navigation mesh is empty: it has no nodes to walk on")]
    EmptyMesh,
    /// The options cannot be used.
    #[error("invalid search options: {problem}")]
    InvalidOptions {
        /// What is wrong, naming the option.
        problem: String,
    },
    /// No node near the start point.
    #[error(
        "the start point {point} is not on the navigation mesh (no node within {max_distance} m)"
    )]
    StartOffMesh {
        /// The start as given.
        point: DVec3,
        /// The locator's reach.
        max_distance: f64,
    },
    /// No node near the goal point.
    #[error(
        "the goal point {point} is not on the navigation mesh (no node within {max_distance} m)"
    )]
    GoalOffMesh {
        /// The goal as given.
        point: DVec3,
        /// The locator's reach.
        max_distance: f64,
    },
    /// The two nodes are not connected by links the search may use.
    #[error(
        "no path from node {start_node} to node {goal_node}: every place reachable from the start \
         was searched ({expansions} search expansions) without reaching the goal; the two are not \
         connected by links the agent may use"
    )]
    NoConnection {
        /// Node under the start.
        start_node: u32,
        /// Node under the goal.
        goal_node: u32,
        /// Nodes expanded before giving up.
        expansions: usize,
    },
    /// Polyanya searches polygons; this located node is not one (a point
    /// node, or a polygon without area).
    #[error(
        "node {node} is not a polygon with area, which Polyanya needs; search this mesh with \
         the A* method"
    )]
    NotSearchable {
        /// The node under the start or the goal.
        node: u32,
    },
    /// The search stopped at [`SearchOptions::max_expansions`].
    #[error(
        "the search from node {start_node} to node {goal_node} stopped after {limit} expansions \
         without reaching the goal; raise the expansion limit"
    )]
    ExpansionLimit {
        /// Node under the start.
        start_node: u32,
        /// Node under the goal.
        goal_node: u32,
        /// The limit that was reached.
        limit: usize,
    },
}

impl PathError {
    /// Nodes expanded by the failed search (0 when no search ran).
    pub fn expansions(&self) -> usize {
        match self {
            PathError::NoConnection { expansions, .. } => *expansions,
            PathError::ExpansionLimit { limit, .. } => *limit,
            _ => 0,
        }
    }
}

/// A found path.
#[derive(Clone, Debug, PartialEq)]
pub struct PathResult {
    /// Always true for a result of [`find_path`] (failures are
    /// [`PathError`]s); kept so the JSON reads the same either way.
    pub found: bool,
    /// Length of the smoothed path (3D along the waypoints, so over detail
    /// surfaces the length walked on them; metres).
    pub length: f64,
    /// Nodes expanded by the search.
    pub expansions: usize,
    /// The smoothed path, start first, goal last.
    pub waypoints: Vec<Waypoint>,
    /// The search with its trace.
    pub search: Search,
    /// Length of the unsmoothed path: from the start through each node's
    /// position, via the midpoint of every crossing segment, to the goal
    /// (the polyline whose length the search's costs measure). It stays
    /// inside the path's polygons, so the funnel's path is never longer,
    /// except over detail surfaces: the centre polyline ignores them (as the
    /// search's costs do), so where the smoothed path climbs a hill the
    /// centre polyline cuts through, [`PathResult::length`] can exceed it.
    pub centre_length: f64,
}

#[derive(Serialize)]
struct JsonWaypoint {
    position: [f64; 3],
    stance: &'static str,
}

#[derive(Serialize)]
struct JsonPath {
    found: bool,
    length: f64,
    expansions: usize,
    waypoints: Vec<JsonWaypoint>,
}

impl PathResult {
    /// The CLI contract's JSON (one line):
    /// `{ "found": true, "length": m, "expansions": n, "waypoints": [{ "position": [x,y,z], "stance": "..." }] }`.
    pub fn to_json(&self) -> String {
        path_json(self.length, self.expansions, &self.waypoints)
    }

    /// The contract's JSON when there is no path: found false, length 0, no
    /// waypoints, with the expansions the search made
    /// ([`PathError::expansions`]).
    pub fn not_found_json(expansions: usize) -> String {
        let doc = JsonPath {
            found: false,
            length: 0.0,
            expansions,
            waypoints: Vec::new(),
        };
        serde_json::to_string(&doc).expect("path JSON serialises")
    }
}

/// The CLI contract's JSON of a found path (see [`PathResult::to_json`]).
pub(crate) fn path_json(length: f64, expansions: usize, waypoints: &[Waypoint]) -> String {
    let doc = JsonPath {
        found: true,
        length,
        expansions,
        waypoints: waypoints
            .iter()
            .map(|w| JsonWaypoint {
                position: w.position.to_array(),
                stance: w.stance.name(),
            })
            .collect(),
    };
    serde_json::to_string(&doc).expect("path JSON serialises")
}

/// The centre-to-centre polyline of a search path (see
/// [`PathResult::centre_length`]).
pub fn centre_polyline(
    mesh: &NavMesh,
    nodes: &[u32],
    links: &[usize],
    start: DVec3,
    goal: DVec3,
) -> Vec<DVec3> {
    let mut pts = vec![start];
    for (i, w) in nodes.windows(2).enumerate() {
        let seg = links
            .get(i)
            .and_then(|li| mesh.links.get(*li))
            .and_then(|l| l.segment());
        if let Some([a, b]) = seg {
            pts.push((a + b) * 0.5);
        }
        if i + 2 < nodes.len()
            && let Some(n) = mesh.nodes.get(w[1] as usize)
        {
            pts.push(n.position);
        }
    }
    pts.push(goal);
    pts
}

/// Finds a path from `from` to `to`: locates both points with `locator`
/// (built on this `mesh`), runs [`crate::astar`] between their nodes from the
/// snapped points, and smooths the result with [`crate::funnel()`] using
/// `opts.agent_radius` and the nodes' detail surfaces as the locator
/// prepared them. The search's trace is recorded.
pub fn find_path(
    mesh: &NavMesh,
    locator: &Locator,
    from: DVec3,
    to: DVec3,
    opts: &SearchOptions,
) -> Result<PathResult, PathError> {
    let mut buf = FunnelBuffers::default();
    let r = astar_route(
        mesh,
        locator,
        &mut AStar::new(mesh),
        &mut buf,
        from,
        to,
        opts,
        true,
    )?;
    let nodes = r.search.nodes.as_deref().unwrap_or_default();
    let centre = centre_polyline(mesh, nodes, &r.search.links, r.start, r.goal);
    Ok(PathResult {
        found: true,
        length: path_length(&buf.out),
        expansions: r.search.expanded,
        waypoints: buf.out,
        centre_length: centre.windows(2).map(|w| w[0].distance(w[1])).sum(),
        search: r.search,
    })
}

/// What A* found and the located ends (the funnelled waypoints are in
/// the funnel's buffers).
pub(crate) struct Route {
    pub search: Search,
    pub start: DVec3,
    pub goal: DVec3,
}

/// Locates both points, runs A* between their nodes (state kept by the
/// caller) and funnels the node path into `buf.out`; the query part of
/// [`find_path`] without the centre polyline, for callers that only want
/// the path.
#[allow(clippy::too_many_arguments)]
pub(crate) fn astar_route(
    mesh: &NavMesh,
    locator: &Locator,
    state: &mut AStar,
    buf: &mut FunnelBuffers,
    from: DVec3,
    to: DVec3,
    opts: &SearchOptions,
    record: bool,
) -> Result<Route, PathError> {
    if mesh.nodes.is_empty() {
        return Err(PathError::EmptyMesh);
    }
    opts.check()
        .map_err(|problem| PathError::InvalidOptions { problem })?;
    let max_distance = locator.max_distance;
    let start = locator.locate(from).ok_or(PathError::StartOffMesh {
        point: from,
        max_distance,
    })?;
    let goal = locator.locate(to).ok_or(PathError::GoalOffMesh {
        point: to,
        max_distance,
    })?;
    let search = state.run(
        mesh,
        start.node,
        goal.node,
        start.point,
        goal.point,
        opts,
        record,
    );
    let Some(nodes) = search.nodes.as_deref() else {
        return Err(if search.hit_limit {
            PathError::ExpansionLimit {
                start_node: start.node,
                goal_node: goal.node,
                limit: opts.max_expansions,
            }
        } else {
            PathError::NoConnection {
                start_node: start.node,
                goal_node: goal.node,
                expansions: search.expanded,
            }
        });
    };
    funnel_located(
        mesh,
        locator,
        nodes,
        &search.links,
        start.point,
        goal.point,
        opts.agent_radius,
        buf,
    );
    Ok(Route {
        search,
        start: start.point,
        goal: goal.point,
    })
}

/// The search cost the centre polyline would have with every multiplier 1:
/// used by tests to check [`astar`]'s bookkeeping.
#[cfg(test)]
pub(crate) fn unit_cost(
    mesh: &NavMesh,
    nodes: &[u32],
    links: &[usize],
    start: DVec3,
    goal: DVec3,
) -> f64 {
    use crate::search::link_halves;
    let pos = |k: usize| {
        if k == 0 {
            start
        } else if k + 1 == nodes.len() {
            goal
        } else {
            mesh.nodes[nodes[k] as usize].position
        }
    };
    links
        .iter()
        .enumerate()
        .map(|(k, li)| {
            let (a, b) = link_halves(&mesh.links[*li], pos(k), pos(k + 1));
            a + b
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::grid_mesh;

    #[test]
    fn finds_and_serialises_a_path() {
        let m = grid_mesh(3, 3, |i, j| i < 2 && j > 0);
        let loc = Locator::new(&m);
        let r = find_path(
            &m,
            &loc,
            DVec3::new(0.5, 0.3, 0.5),
            DVec3::new(2.5, 0.0, 2.5),
            &SearchOptions::default(),
        )
        .unwrap();
        assert!(r.found);
        assert_eq!(r.waypoints[0].position, DVec3::new(0.5, 0.0, 0.5));
        assert_eq!(r.waypoints.len(), 3);
        assert!(r.length <= r.centre_length);
        assert!((r.centre_length - 4.0).abs() < 1e-12);
        let nodes = r.search.nodes.as_ref().unwrap();
        let uc = unit_cost(
            &m,
            nodes,
            &r.search.links,
            DVec3::new(0.5, 0.0, 0.5),
            DVec3::new(2.5, 0.0, 2.5),
        );
        assert!((uc - r.centre_length).abs() < 1e-12 && (uc - r.search.cost).abs() < 1e-12);
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["found"], true);
        assert_eq!(v["expansions"], r.expansions);
        assert_eq!(
            v["waypoints"][1]["position"],
            serde_json::json!([2.0, 0.0, 1.0])
        );
        assert_eq!(v["waypoints"][1]["stance"], "stand");
        assert_eq!(v.as_object().unwrap().len(), 4);
        assert_eq!(v["waypoints"][0].as_object().unwrap().len(), 2);
        assert!(r.to_json().starts_with("{\"found\":true,\"length\":"));
    }

    #[test]
    fn not_found_json_is_the_contract() {
        let v: serde_json::Value = serde_json::from_str(&PathResult::not_found_json(7)).unwrap();
        assert_eq!(
            v,
            serde_json::json!({ "found": false, "length": 0.0, "expansions": 7, "waypoints": [] })
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let empty = NavMesh::new("t", "t");
        let e = find_path(
            &empty,
            &Locator::new(&empty),
            DVec3::ZERO,
            DVec3::ZERO,
            &SearchOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e, PathError::EmptyMesh);
        let m = grid_mesh(2, 1, |_, _| false);
        let loc = Locator::new(&m);
        let opts = SearchOptions::default();
        let e = find_path(&m, &loc, DVec3::new(50., 0., 0.), DVec3::ZERO, &opts).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the start point [50, 0, 0] is not on the navigation mesh (no node within 2 m)"
        );
        let e = find_path(&m, &loc, DVec3::ZERO, DVec3::new(0., -9., 0.), &opts).unwrap_err();
        assert!(matches!(e, PathError::GoalOffMesh { .. }));
        let bad = SearchOptions {
            agent_radius: -1.0,
            ..SearchOptions::default()
        };
        let e = find_path(&m, &loc, DVec3::ZERO, DVec3::ZERO, &bad).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid search options: the agent radius is -1")
        );
        assert_eq!(e.expansions(), 0);
    }

    #[test]
    fn disconnected_parts_have_no_connection() {
        let m = grid_mesh(5, 2, |i, _| i == 2);
        let loc = Locator::new(&m);
        let e = find_path(
            &m,
            &loc,
            DVec3::new(0.5, 0., 0.5),
            DVec3::new(4.5, 0., 0.5),
            &SearchOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            e,
            PathError::NoConnection {
                start_node: 0,
                goal_node: 3,
                expansions: 4
            }
        );
        assert!(e.to_string().contains("not connected"));
        assert_eq!(e.expansions(), 4);
        let tight = SearchOptions {
            max_expansions: 2,
            ..SearchOptions::default()
        };
        let m = grid_mesh(5, 1, |_, _| false);
        let e = find_path(
            &m,
            &Locator::new(&m),
            DVec3::new(0.5, 0., 0.5),
            DVec3::new(4.5, 0., 0.5),
            &tight,
        )
        .unwrap_err();
        assert!(matches!(e, PathError::ExpansionLimit { limit: 2, .. }));
    }
}
