//! `why` per voxel stance under the table of `table_room.obj` (underside
//! at 1.3 m): the standing agent is dropped by the headroom rule, the
//! crouching one keeps the point.

use std::path::Path;
use std::sync::Arc;

use glam::DVec3;
use navscope_core::{ParamValues, Runner};
use navscope_explain::{FixBudget, why_not_here};

#[test]
fn under_the_table_names_the_stance_and_the_rule() {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/voxel/table_room.obj");
    let level = Arc::new(navscope_levels::load(&file).expect("table_room.obj loads"));
    let p = navscope_pipelines::by_id("voxel").expect("voxel pipeline");
    let mut r = Runner::new(p.clone(), level);
    r.set_params(ParamValues::defaults(&p.params));
    let w = why_not_here(&mut r, DVec3::new(6.0, 0.0, 5.0), &FixBudget::default());
    let of = |s: &str| {
        w.stances
            .iter()
            .find(|a| a.stance == s)
            .unwrap_or_else(|| panic!("no {s} answer in {w:?}"))
    };
    let stand = of("stand");
    assert!(!stand.walkable, "{stand:?}");
    assert_eq!(stand.stage, "compact", "{stand:?}");
    assert!(
        stand.reason.contains("headroom 1.3") && stand.reason.contains("stand"),
        "{}",
        stand.reason
    );
    let crouch = of("crouch");
    assert!(crouch.walkable, "{crouch:?}");
    assert!(w.walkable, "{w:?}");
}
