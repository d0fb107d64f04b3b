//! `navscope-cli why LEVEL --pipeline P --at X,Y,Z`: whether the point is
//! on the NavMesh and, if not, the first stage that dropped it, the rule
//! with its parameter and value, and the change that keeps it, checked by
//! building again (see `navscope_explain::why`).

use std::path::Path;

use glam::DVec3;
use navscope_explain::{FixBudget, why_not_here};

use crate::BuildOptions;
use crate::build::run_stages;
use crate::session::{CliError, check_run, load_level, runner};

/// Builds the level and prints the answer at `at`.
pub fn run(level: &Path, opts: &BuildOptions, at: DVec3, json: bool) -> Result<(), CliError> {
    if opts.pipeline.as_deref() == Some("navmesh") {
        return Err(CliError::Usage(
            "why needs a pipeline to build with: a NavMesh read from a file has no stages".into(),
        ));
    }
    let mut r = runner(load_level(level, opts.budget())?, opts)?;
    run_stages(&mut r);
    check_run(&r)?;
    let w = why_not_here(&mut r, at, &FixBudget::default());
    if json {
        println!("{}", serde_json::json!(w));
        return Ok(());
    }
    let p = |v: DVec3| format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z);
    for s in &w.stances {
        match (s.walkable, s.stage.as_str()) {
            (true, _) => println!("  {}: walkable ({})", s.stance, s.reason),
            (false, "") => println!("  {}: not walkable: {}", s.stance, s.reason),
            (false, stage) => println!("  {}: dropped at stage '{stage}': {}", s.stance, s.reason),
        }
    }
    if w.walkable {
        println!("{} is walkable: {}", p(at), w.reason);
        return Ok(());
    }
    println!(
        "{} is not walkable: dropped at stage '{}': {}",
        p(at),
        w.stage,
        w.reason
    );
    if !w.fix.is_empty() {
        let sets: Vec<String> = w
            .fix
            .iter()
            .map(|f| format!("--set {}={}", f.parameter, f.value))
            .collect();
        println!("fix: {}", sets.join(" or "));
    }
    Ok(())
}
