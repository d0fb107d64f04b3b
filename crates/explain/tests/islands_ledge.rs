//! `ledge.ron` in `voxel`: a raised floor 1 m above the floor around it.
//! Drop links lead down from it, so its island reaches the largest; what
//! parts the two islands is the way back up. The gap's reason names both
//! directions: the drop as linked, the climb as missing with the rule
//! that refuses it, and the checked fix raises the step.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use navscope_core::Runner;
use navscope_core::params::ParamValue;
use navscope_explain::gap::Ways;
use navscope_explain::{FixBudget, explain_islands, islands};
use navscope_path::SearchOptions;

#[test]
fn the_raised_islands_gap_names_the_missing_way_up_not_the_drop() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/cspace/ledge.ron");
    let level = Arc::new(navscope_levels::load(&file).expect("ledge.ron loads"));
    let pipeline = navscope_pipelines::by_id("voxel").expect("voxel pipeline");
    // A brush level becomes a triangle mesh for voxel.
    let level = navscope_pipelines::level_for(&pipeline, &level).expect("voxel reads it");
    let mut base = Runner::new(pipeline, level);
    base.run_all();
    let mesh = base.navmesh().expect("a NavMesh");
    let opts = SearchOptions::default();
    let mut parts = islands(&mesh, &opts);
    assert_eq!(parts.len(), 2, "{parts:?}");
    let gap = parts[1].gap.as_ref().expect("a gap to the largest");
    assert!(gap.height < -0.9, "the raised island is above: {gap:?}");
    // Its drop links reach the largest; nothing comes back.
    assert_eq!(
        gap.ways,
        Ways {
            there: true,
            back: false
        }
    );
    let budget = FixBudget {
        time: Duration::from_secs(600),
        ..FixBudget::default()
    };
    explain_islands(&mut parts, &base, &opts, &budget, 1);
    let gap = parts[1].gap.as_ref().expect("explained");
    let r = &gap.reason;
    assert!(
        r.starts_with("a drop (") && r.contains("m down) leads to the other side"),
        "{r}"
    );
    assert!(
        r.contains("the way back, a jump up (")
            && r.contains("m up), is refused: step 1.00 m > max step 0.50 m"),
        "{r}"
    );
    assert!(!r.contains("drop refused"), "the drop exists: {r}");
    assert!(!r.contains("headroom"), "nothing is over the ledge: {r}");
    let fix = gap.fix.first().expect("a checked fix");
    assert_eq!(fix.parameter, "stand.max_step");
    let ParamValue::Float(v) = fix.value else {
        panic!("a real step")
    };
    assert!((1.0..=1.1).contains(&v), "{v}");
}
