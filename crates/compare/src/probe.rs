//! The same path probe on both builds: navscope-path's A* and funnel over
//! each NavMesh, as `navscope-cli path` searches a NavMesh.

use glam::DVec3;
use navscope_core::NavMesh;
use navscope_path::{Locator, SearchOptions, find_path};
use serde::Serialize;

/// One waypoint of a probe's path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeWaypoint {
    /// World position (metres).
    pub position: [f64; 3],
    /// Stance held on the way to it (`stand`, `crouch`, ...).
    pub stance: &'static str,
}

/// The outcome of a path query on one build (the shape of the CLI
/// contract's path JSON, with the reason when there is no path).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Probe {
    /// Whether a path was found.
    pub found: bool,
    /// Its length (metres; 0 when none).
    pub length: f64,
    /// Nodes the search expanded (also when it failed).
    pub expansions: u64,
    /// The smoothed path, start first.
    pub waypoints: Vec<ProbeWaypoint>,
    /// Why there is no path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Searches `mesh` from `from` to `to` with the default search options.
pub fn probe(mesh: &NavMesh, from: DVec3, to: DVec3) -> Probe {
    let locator = Locator::new(mesh);
    match find_path(mesh, &locator, from, to, &SearchOptions::default()) {
        Ok(p) => Probe {
            found: true,
            length: p.length,
            expansions: p.expansions as u64,
            waypoints: p
                .waypoints
                .iter()
                .map(|w| ProbeWaypoint {
                    position: w.position.to_array(),
                    stance: w.stance.name(),
                })
                .collect(),
            reason: None,
        },
        Err(e) => Probe {
            found: false,
            length: 0.0,
            expansions: e.expansions() as u64,
            waypoints: Vec::new(),
            reason: Some(e.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::navmesh::{LinkKind, Stance};

    #[test]
    fn a_path_across_two_cells_and_a_miss_off_the_mesh() {
        let mut m = NavMesh::new("t", "t");
        let sq = |x: f64| {
            vec![
                DVec3::new(x, 0., 0.),
                DVec3::new(x + 1., 0., 0.),
                DVec3::new(x + 1., 0., -1.),
                DVec3::new(x, 0., -1.),
            ]
        };
        let a = m.add_node(DVec3::new(0.5, 0., -0.5), Some(sq(0.)), Stance::Stand, 0);
        let b = m.add_node(DVec3::new(1.5, 0., -0.5), Some(sq(1.)), Stance::Stand, 0);
        m.add_two_way(
            a,
            b,
            LinkKind::Portal,
            1.0,
            Some([DVec3::new(1., 0., 0.), DVec3::new(1., 0., -1.)]),
        );
        let p = probe(&m, DVec3::new(0.2, 0., -0.5), DVec3::new(1.8, 0., -0.5));
        assert!(p.found);
        assert!((p.length - 1.6).abs() < 1e-9, "{}", p.length);
        assert_eq!(p.waypoints.len(), 2);
        let miss = probe(&m, DVec3::new(50., 0., 50.), DVec3::new(1.8, 0., -0.5));
        assert!(!miss.found && miss.reason.is_some());
    }
}
