//! Snapshots of every stage's counts on the sample levels, so a change in
//! any stage's output shows up in review.

mod common;

use std::collections::BTreeMap;

use common::{level, run};

fn counts(
    pipeline: navscope_core::Pipeline,
    path: &str,
) -> BTreeMap<String, BTreeMap<String, u64>> {
    let r = run(pipeline, level(path), &[]);
    r.pipeline()
        .stages
        .iter()
        .enumerate()
        .map(|(i, s)| (s.info.id.to_string(), r.result(i).unwrap().counts.clone()))
        .collect()
}

#[test]
fn raster_samples() {
    for (name, path) in [
        ("office", "assets/levels/raster/office.png"),
        ("rooms", "assets/levels/raster/rooms.png"),
        ("arena", "assets/levels/navgraph/arena.png"),
        ("islands", "assets/levels/navgraph/islands.png"),
    ] {
        insta::assert_json_snapshot!(name, counts(navscope_navgraph::pipeline(), path));
    }
}

#[test]
fn node_samples() {
    for (name, path) in [
        ("lobby", "assets/levels/floorplan/lobby_nodes.ron"),
        ("figure4", "assets/levels/navgraph/figure4.ron"),
        ("hall", "assets/levels/navgraph/hall_nodes.ron"),
        ("corridor", "assets/levels/navgraph/corridor_nodes.ron"),
    ] {
        insta::assert_json_snapshot!(name, counts(navscope_navgraph::nodes_pipeline(), path));
    }
}
