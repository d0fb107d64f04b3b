//! A level made in the test with one known cause: two rooms joined by a
//! passage narrower than the agent. The path fails, the gap lies in the
//! passage, the fix names the agent radius, and building with it finds
//! the path.

use std::sync::Arc;

use glam::DVec3;
use navscope_core::level::{Level, LevelData, RasterPlan};
use navscope_core::params::{ParamValue, ParamValues};
use navscope_core::{NavMesh, Runner};
use navscope_explain::{FixBudget, explain_gap, failed_path_gap, islands};
use navscope_path::{Locator, PathError, SearchOptions, find_path};

const MPP: f64 = 0.1;

/// 60 x 24 pixels of 0.1 m: rooms at x 1..25 and 35..59, rows 1..23,
/// joined by a passage 5 pixels (0.5 m) wide at rows 10..15: narrower
/// than the 0.6 m agent, wide enough for one half its size (the most a
/// fix may shrink it, `navscope_explain::fix_range`).
fn two_rooms() -> Arc<Level> {
    let (w, h) = (60u32, 24u32);
    let free = |x: u32, y: u32| {
        let room = (1..23).contains(&y) && ((1..25).contains(&x) || (35..59).contains(&x));
        let passage = (10..15).contains(&y) && (25..35).contains(&x);
        room || passage
    };
    let obstacle = (0..h)
        .flat_map(|y| (0..w).map(move |x| u8::from(!free(x, y))))
        .collect::<Vec<_>>();
    Arc::new(Level {
        source: "two_rooms".into(),
        data: LevelData::Raster(RasterPlan {
            width: w,
            height: h,
            metres_per_pixel: MPP,
            rgba: obstacle
                .iter()
                .flat_map(|o| [255 * (1 - o), 0, 0, 255])
                .collect(),
            obstacle,
        }),
    })
}

fn build(values: &ParamValues) -> NavMesh {
    let pipeline = navscope_pipelines::by_id("navgraph").expect("navgraph pipeline");
    let mut r = Runner::new(pipeline, two_rooms());
    r.set_params(values.clone());
    r.run_all();
    r.navmesh().expect("a NavMesh")
}

#[test]
fn a_passage_narrower_than_the_agent_is_explained_and_fixed() {
    let pipeline = navscope_pipelines::by_id("navgraph").expect("navgraph pipeline");
    let mut values = ParamValues::defaults(&pipeline.params);
    values
        .set(&pipeline.params, "agent_radius", ParamValue::Float(0.3))
        .expect("in range");
    let (from, to) = (DVec3::new(1.0, 0.0, 1.2), DVec3::new(5.0, 0.0, 1.2));
    let mesh = build(&values);
    let opts = SearchOptions::default();
    let err = find_path(&mesh, &Locator::new(&mesh), from, to, &opts).expect_err("no path");
    let PathError::NoConnection {
        start_node,
        goal_node,
        ..
    } = err
    else {
        panic!("expected no connection, got {err}");
    };
    assert!(islands(&mesh, &opts).len() >= 2);
    let gap = failed_path_gap(&mesh, &opts, start_node, goal_node).expect("a gap");
    // Both sides of the gap lie at the passage, between the rooms.
    assert!(
        gap.from.x > 2.0 && gap.to.x < 4.0 && gap.from.x < gap.to.x,
        "{gap:?}"
    );
    let mut base = Runner::new(pipeline.clone(), two_rooms());
    base.set_params(values.clone());
    base.run_all();
    let budget = FixBudget {
        time: std::time::Duration::from_secs(600),
        ..FixBudget::default()
    };
    let gap = explain_gap(gap, &base, opts.clone(), (from, to), &budget);
    let fix = gap.fix.first().expect("a fix");
    assert_eq!(fix.parameter, "agent_radius", "{gap:?}");
    let ParamValue::Float(r) = fix.value else {
        panic!("a float radius");
    };
    assert!(
        r < 0.25,
        "a 0.5 m passage admits a radius below 0.25 m, got {r}"
    );
    assert!(
        gap.reason
            .contains("m < agent width (twice agent_radius) 0.60 m"),
        "{}",
        gap.reason
    );
    // Building with the fix finds the path.
    let mut fixed = values.clone();
    fixed
        .set(&pipeline.params, &fix.parameter, fix.value.clone())
        .expect("in range");
    let mesh = build(&fixed);
    assert!(find_path(&mesh, &Locator::new(&mesh), from, to, &opts).is_ok());
}
