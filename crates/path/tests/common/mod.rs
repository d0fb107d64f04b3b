//! Helpers shared by the integration tests.

#![allow(dead_code)] // Each test binary uses its own subset.

use glam::DVec3;
use navscope_path::{Locator, NavMesh, PathResult, SearchOptions, Waypoint, find_path};

/// World point on the ground.
pub fn v(x: f64, z: f64) -> DVec3 {
    DVec3::new(x, 0.0, z)
}

/// Square `[x, x + size] x [z, z + size]` at height 0, counter-clockwise
/// seen from above.
pub fn square(x: f64, z: f64, size: f64) -> Vec<DVec3> {
    vec![
        v(x, z + size),
        v(x + size, z + size),
        v(x + size, z),
        v(x, z),
    ]
}

/// Centre of grid cell `(i, j)`.
pub fn centre(i: usize, j: usize) -> DVec3 {
    v(i as f64 + 0.5, j as f64 + 0.5)
}

/// Node id of grid cell `(i, j)` in a `sample::grid_mesh`.
pub fn cell(m: &NavMesh, i: usize, j: usize) -> u32 {
    m.nodes
        .iter()
        .find(|n| n.position == centre(i, j))
        .expect("open cell")
        .id
}

/// Waypoint positions.
pub fn positions(w: &[Waypoint]) -> Vec<DVec3> {
    w.iter().map(|w| w.position).collect()
}

/// Asserts two lengths agree to 1e-9.
pub fn assert_close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

/// `find_path` from `from` to `to` with a fresh locator over `m`; panics
/// when there is no path.
pub fn path(m: &NavMesh, from: DVec3, to: DVec3, opts: &SearchOptions) -> PathResult {
    find_path(m, &Locator::new(m), from, to, opts).expect("a path")
}
