//! A level made in the test whose one cause is a swim the voxel pipeline
//! cannot make: two rooms stand in 1.2 m of water (shallow enough to
//! walk), joined by a tunnel whose floor dips 1 m and whose ceiling is
//! below the water's top, so the tunnel is flooded to its ceiling, 2 m
//! over the tunnel's floor. The standing agent cannot wade the 2.2 m deep
//! tunnel; the swim pass swims through passages flooded to their ceiling,
//! but this swimmer (2.5 m tall here) does not fit in this one even on
//! its floor. The failed path's gap names a swim and that rule, with its
//! parameter and value.

use std::sync::Arc;
use std::time::Duration;

use glam::DVec3;
use navscope_core::level::{Level, LevelData};
use navscope_core::params::{ParamValue, ParamValues};
use navscope_core::{LinkKind, Runner};
use navscope_explain::{FixBudget, explain_gap, failed_path_gap};
use navscope_path::{Locator, PathError, SearchOptions, find_path};
use navscope_voxel::samples::MeshBuilder;

/// Top of the water, y (metres).
const WATER_TOP: f64 = 1.2;
/// The tunnel's ceiling, y: under the water's top.
const CEILING: f64 = 1.0;

/// Floors at y = 0 from x = 0 to 4 and 8 to 12 (z 0..4), the tunnel's
/// floor at y = -1 from 4 to 8 under a block from the ceiling up, and
/// water from x = 2 to 10 up to [`WATER_TOP`].
fn flooded_tunnel() -> Arc<Level> {
    let (ceiling, water_top) = (CEILING as f32, WATER_TOP as f32);
    let mut m = MeshBuilder::new();
    m.solid("floor_west", [0.0, -0.2, 0.0], [4.0, 0.0, 4.0])
        .solid("floor_east", [8.0, -0.2, 0.0], [12.0, 0.0, 4.0])
        .solid("tunnel_floor", [4.0, -1.2, 0.0], [8.0, -1.0, 4.0])
        .solid("tunnel_roof", [4.0, ceiling, 0.0], [8.0, 4.0, 4.0])
        .water([2.0, -1.0, 0.0], [10.0, water_top, 4.0]);
    Arc::new(Level {
        source: "made in the test".into(),
        data: LevelData::Mesh(m.level()),
    })
}

#[test]
fn a_tunnel_flooded_to_its_ceiling_is_a_missing_swim_with_its_rule() {
    let p = navscope_pipelines::by_id("voxel").expect("a pipeline");
    let mut v = ParamValues::defaults(&p.params);
    v.set(&p.params, "passes", ParamValue::Text("stand,swim".into()))
        .expect("a pass list");
    // No running jumps: the dip is not jumped under the ceiling.
    v.set(&p.params, "jump_reach", ParamValue::Float(0.0))
        .expect("in range");
    // Taller than the tunnel, floor to ceiling.
    v.set(&p.params, "swim.height", ParamValue::Float(2.5))
        .expect("in range");
    let swim_height = match v.get("swim.height") {
        Some(ParamValue::Float(h)) => *h,
        other => panic!("swim.height is {other:?}"),
    };
    let mut r = Runner::new(p, flooded_tunnel());
    r.set_params(v);
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    let mesh = r.navmesh().expect("a NavMesh");
    let (from, to) = (DVec3::new(1.0, 0.0, 2.0), DVec3::new(11.0, 0.0, 2.0));
    let opts = SearchOptions::default();
    let e = find_path(&mesh, &Locator::new(&mesh), from, to, &opts).expect_err("no path");
    let PathError::NoConnection {
        start_node,
        goal_node,
        ..
    } = e
    else {
        panic!("expected no connection, got {e}");
    };
    let gap = failed_path_gap(&mesh, &opts, start_node, goal_node).expect("a gap");
    let budget = FixBudget {
        time: Duration::from_secs(600),
        ..FixBudget::default()
    };
    let gap = explain_gap(gap, &r, opts, (from, to), &budget);
    assert_eq!(gap.link, LinkKind::Swim, "{}", gap.reason);
    assert!(
        gap.missing_words().starts_with("a swim ("),
        "{}",
        gap.missing_words()
    );
    let r = &gap.reason;
    assert!(r.starts_with("a swim refused: "), "{r}");
    assert!(r.contains("fills the passage to its ceiling"), "{r}");
    assert!(
        r.contains(&format!("water top y = {WATER_TOP:.2}"))
            && r.contains(&format!("ceiling y = {CEILING:.2}")),
        "{r}"
    );
    assert!(
        r.contains(&format!(
            "room {:.2} m < swimming height {swim_height:.2} m",
            CEILING + 1.0
        )) && r.contains("swim.height"),
        "{r}"
    );
    assert!(!r.contains("jump"), "{r}");
}
