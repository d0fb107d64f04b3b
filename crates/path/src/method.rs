//! One entry point for both searches: [`Method`] picks Polyanya (optimal,
//! the default) or A* with the funnel (Detour's way), and a [`PathFinder`]
//! holds what is built once per mesh (the locator, Polyanya's mesh, the
//! reusable Polyanya searcher, A*'s links and stamped arrays and the
//! funnel's buffers) so that in steady state Polyanya's queries
//! ([`PathFinder::polyanya`]) allocate nothing and A*'s
//! ([`PathFinder::astar`]) only A*'s node and link lists, one each;
//! [`PathFinder::find`] copies the waypoints into its [`Answer`]. Neither
//! records a trace.

use glam::DVec3;
use navscope_core::NavMesh;
use serde::{Deserialize, Serialize};

use crate::find::{PathError, astar_route, path_json};
use crate::funnel::{FunnelBuffers, Waypoint, path_length};
use crate::locate::Locator;
use crate::polyanya::{AnyAnglePath, PolyMesh, Searcher};
use crate::search::{AStar, SearchOptions};

/// Which search answers a query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Optimal any-angle search over the polygons (module `polyanya`).
    #[default]
    Polyanya,
    /// A* over the node graph, then the funnel ([`crate::find_path`]).
    AStar,
}

impl Method {
    /// The name the CLI takes: `polyanya` or `astar`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Polyanya => "polyanya",
            Method::AStar => "astar",
        }
    }

    /// The method named `name` (see [`Method::name`]).
    pub fn parse(name: &str) -> Option<Self> {
        [Method::Polyanya, Method::AStar]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// A path by either method.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Length along the waypoints (3D, metres).
    pub length: f64,
    /// Items expanded (Polyanya's search nodes, or A*'s nodes).
    pub expansions: usize,
    /// Start, bends, goal.
    pub waypoints: Vec<Waypoint>,
}

impl Answer {
    /// The CLI contract's path JSON, as [`crate::PathResult::to_json`].
    pub fn to_json(&self) -> String {
        path_json(self.length, self.expansions, &self.waypoints)
    }
}

/// The query state kept per mesh (see the module docs).
#[derive(Clone, Debug)]
pub struct PathFinder {
    /// Point location (built once).
    pub locator: Locator,
    /// Polyanya's plan-view mesh (built once).
    pub poly: PolyMesh,
    searcher: Searcher,
    astar: AStar,
    funnel: FunnelBuffers,
}

impl PathFinder {
    /// Builds the locator, Polyanya's mesh and A*'s state of `mesh`.
    pub fn new(mesh: &NavMesh) -> Self {
        Self {
            locator: Locator::new(mesh),
            poly: PolyMesh::new(mesh),
            searcher: Searcher::new(),
            astar: AStar::new(mesh),
            funnel: FunnelBuffers::default(),
        }
    }

    /// Polyanya from `from` to `to` (located on the mesh); `record` keeps
    /// the search trace. Borrows the searcher's buffers: nothing is
    /// allocated once they have grown to the mesh's searches.
    pub fn polyanya(
        &mut self,
        mesh: &NavMesh,
        from: DVec3,
        to: DVec3,
        opts: &SearchOptions,
        record: bool,
    ) -> Result<AnyAnglePath<'_>, PathError> {
        if mesh.nodes.is_empty() {
            return Err(PathError::EmptyMesh);
        }
        let max_distance = self.locator.max_distance;
        let start = self.locator.locate(from).ok_or(PathError::StartOffMesh {
            point: from,
            max_distance,
        })?;
        let goal = self.locator.locate(to).ok_or(PathError::GoalOffMesh {
            point: to,
            max_distance,
        })?;
        self.searcher
            .find(mesh, &self.poly, start, goal, opts, record)
    }

    /// A path by `method`: Polyanya, or [`crate::find_path`]'s A* and funnel.
    pub fn find(
        &mut self,
        mesh: &NavMesh,
        method: Method,
        from: DVec3,
        to: DVec3,
        opts: &SearchOptions,
    ) -> Result<Answer, PathError> {
        match method {
            Method::Polyanya => {
                let p = self.polyanya(mesh, from, to, opts, false)?;
                Ok(Answer {
                    length: p.length,
                    expansions: p.expansions,
                    waypoints: p.waypoints.to_vec(),
                })
            }
            Method::AStar => {
                let expansions = self.astar(mesh, from, to, opts)?;
                Ok(Answer {
                    length: path_length(&self.funnel.out),
                    expansions,
                    waypoints: self.funnel.out.clone(),
                })
            }
        }
    }

    /// A* and the funnel from `from` to `to`, as [`crate::find_path`]
    /// without the trace: returns the nodes expanded, and the waypoints
    /// are [`PathFinder::waypoints`] until the next query. The funnel's
    /// buffers are kept, so only A*'s node and link lists are allocated.
    pub fn astar(
        &mut self,
        mesh: &NavMesh,
        from: DVec3,
        to: DVec3,
        opts: &SearchOptions,
    ) -> Result<usize, PathError> {
        let r = astar_route(
            mesh,
            &self.locator,
            &mut self.astar,
            &mut self.funnel,
            from,
            to,
            opts,
            false,
        )?;
        Ok(r.search.expanded)
    }

    /// The waypoints of the last [`PathFinder::astar`] query.
    pub fn waypoints(&self) -> &[Waypoint] {
        &self.funnel.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_polyanya_is_the_default() {
        for m in [Method::Polyanya, Method::AStar] {
            assert_eq!(Method::parse(m.name()), Some(m));
        }
        assert_eq!(Method::parse("dijkstra"), None);
        assert_eq!(Method::default(), Method::Polyanya);
    }
}
