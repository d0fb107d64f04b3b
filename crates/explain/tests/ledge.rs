//! A brush level with one known cause: a ledge 1 m up, with the jump
//! height lowered to 0.5 m. The path onto the ledge fails, the gap is a
//! jump up of 1 m, the fix names a parameter that governs it, and building
//! with the fix finds the path.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use glam::DVec3;
use navscope_core::params::{ParamValue, ParamValues};
use navscope_core::{LinkKind, NavMesh, Runner};
use navscope_explain::{FixBudget, explain_gap, failed_path_gap};
use navscope_path::{Locator, PathError, SearchOptions, find_path};

fn build(level: &Arc<navscope_core::level::Level>, values: &ParamValues) -> NavMesh {
    let pipeline = navscope_pipelines::by_id("cspace").expect("cspace pipeline");
    let mut r = Runner::new(pipeline, level.clone());
    r.set_params(values.clone());
    r.run_all();
    r.navmesh().expect("a NavMesh")
}

#[test]
fn a_ledge_higher_than_the_jump_is_explained_and_fixed() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/cspace/ledge.map");
    let level = Arc::new(navscope_levels::load(&file).expect("the ledge level loads"));
    let pipeline = navscope_pipelines::by_id("cspace").expect("cspace pipeline");
    let mut values = ParamValues::defaults(&pipeline.params);
    values
        .set(&pipeline.params, "jump_height", ParamValue::Float(0.5))
        .expect("in range");
    let (from, to) = (DVec3::new(0.0, 0.0, -2.0), DVec3::new(2.0, 1.0, -2.0));
    let opts = SearchOptions::default();
    let mesh = build(&level, &values);
    let err = find_path(&mesh, &Locator::new(&mesh), from, to, &opts).expect_err("no path");
    let PathError::NoConnection {
        start_node,
        goal_node,
        ..
    } = err
    else {
        panic!("expected no connection, got {err}");
    };
    let gap = failed_path_gap(&mesh, &opts, start_node, goal_node).expect("a gap");
    assert_eq!(gap.link, LinkKind::Jump);
    assert!((gap.height - 1.0).abs() < 0.01, "{gap:?}");
    let mut base = Runner::new(pipeline.clone(), level.clone());
    base.set_params(values.clone());
    base.run_all();
    let budget = FixBudget {
        time: Duration::from_secs(600),
        ..FixBudget::default()
    };
    let gap = explain_gap(gap, &base, opts.clone(), (from, to), &budget);
    let fix = gap.fix.first().expect("a fix");
    assert_eq!(fix.parameter, "jump_height");
    let ParamValue::Float(h) = fix.value else {
        panic!("a float height");
    };
    assert!(
        (1.0..=1.1).contains(&h),
        "a 1 m ledge needs a jump of about 1 m, got {h}"
    );
    assert!(
        gap.reason.contains("jump up 1.00 m > jump height 0.50 m"),
        "{}",
        gap.reason
    );
    let mut fixed = values.clone();
    fixed
        .set(&pipeline.params, &fix.parameter, fix.value.clone())
        .expect("in range");
    let mesh = build(&level, &fixed);
    assert!(find_path(&mesh, &Locator::new(&mesh), from, to, &opts).is_ok());
}
