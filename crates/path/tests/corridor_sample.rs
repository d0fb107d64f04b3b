//! The bundled NavMesh JSON sample, `assets/levels/navmesh/corridor.json`:
//! an L of six 1 m cells, (0..4, 0) along +X then (3, 1..3) along +Z.

use glam::DVec3;
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, NavMesh, SearchOptions, find_path};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/levels/navmesh/corridor.json"
);

fn load() -> NavMesh {
    let text = std::fs::read_to_string(SAMPLE).unwrap_or_else(|e| panic!("{SAMPLE}: {e}"));
    NavMesh::from_json(&text).unwrap_or_else(|e| panic!("{SAMPLE}: {e}"))
}

#[test]
fn sample_is_the_l_corridor_grid() {
    let m = load();
    let g = grid_mesh(4, 3, |i, j| j > 0 && i < 3);
    assert_eq!(m.nodes, g.nodes);
    assert_eq!(m.links, g.links);
}

#[test]
fn sample_path_turns_at_the_inner_corner() {
    // From the first cell's centre to the last cell's: the string bends once
    // at the inner corner (3, 0, 1): sqrt(2.5^2 + 0.5^2) + sqrt(0.5^2 + 1.5^2).
    let m = load();
    let from = DVec3::new(0.5, 0.0, 0.5);
    let to = DVec3::new(3.5, 0.0, 2.5);
    let r = find_path(&m, &Locator::new(&m), from, to, &SearchOptions::default()).unwrap();
    let expected = 6.5f64.sqrt() + 2.5f64.sqrt();
    assert!((r.length - expected).abs() < 1e-12, "{}", r.length);
    assert!((r.length - 4.130_648_586).abs() < 1e-9);
    let p: Vec<DVec3> = r.waypoints.iter().map(|w| w.position).collect();
    assert_eq!(p, vec![from, DVec3::new(3.0, 0.0, 1.0), to]);
    assert_eq!(r.search.nodes, Some(vec![0, 1, 2, 3, 4, 5]));
    assert!((r.centre_length - 5.0).abs() < 1e-12);
    let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(json["waypoints"].as_array().unwrap().len(), 3);
}
