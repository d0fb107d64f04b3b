//! `navscope-cli islands`: the connected parts of a pipeline's NavMesh,
//! largest first, with the gap from each to the largest; and the gap and
//! checked fix that `path` reports when a search fails.

use std::path::Path;

use glam::DVec3;
use navscope_core::NavMesh;
use navscope_core::Runner;
use navscope_explain::{FixBudget, Gap, explain_gap, explain_islands, failed_path_gap, islands};
use navscope_path::{PathError, SearchOptions};

use crate::BuildOptions;
use crate::build::run_stages;
use crate::session::{CliError, check_run, load_level, load_navmesh, runner};

/// Builds (or reads) the mesh and prints its islands; each gap to the
/// largest is explained by the pipeline's rules, and the `fixes` largest
/// get a fix checked by building again (none for a NavMesh read from a
/// file, which has no pipeline).
pub fn run(level: &Path, opts: &BuildOptions, json: bool, fixes: usize) -> Result<(), CliError> {
    let search = SearchOptions::default();
    let parts = if opts.pipeline.as_deref() == Some("navmesh") {
        islands(&load_navmesh(level)?, &search)
    } else {
        let mut r = runner(load_level(level, opts.budget())?, opts)?;
        run_stages(&mut r);
        check_run(&r)?;
        let mesh = r.navmesh().ok_or_else(|| {
            CliError::Failed(format!(
                "{}: pipeline '{}' produced no NavMesh",
                level.display(),
                r.pipeline().id
            ))
        })?;
        let mut parts = islands(&mesh, &search);
        explain_islands(&mut parts, &r, &search, &FixBudget::default(), fixes);
        parts
    };
    if json {
        println!("{}", serde_json::json!({ "islands": parts }));
        return Ok(());
    }
    println!("{} islands", parts.len());
    for (i, p) in parts.iter().enumerate() {
        print!("  {i}: {} nodes, {:.2} m2", p.node_count, p.area);
        match &p.gap {
            Some(g) => println!(", {}", gap_words(g)),
            None => println!(" (largest)"),
        }
    }
    Ok(())
}

/// The gap of a failed search, explained by the rules of the pipeline
/// that built `mesh` (`built`) and with the fixes checked by building
/// again from it (neither for a NavMesh read from a file, which has no
/// parameters); `None` for failures other than no connection (a search
/// stopped at its expansion limit counts when the two ends are in fact
/// not connected).
pub fn failure_gap(
    mesh: &NavMesh,
    built: Option<&Runner>,
    e: &PathError,
    ends: (DVec3, DVec3),
) -> Option<Gap> {
    // A search stopped at its expansion limit has a gap too when the two
    // nodes are not connected at all ([`failed_path_gap`] checks that).
    let (start_node, goal_node) = match *e {
        PathError::NoConnection {
            start_node,
            goal_node,
            ..
        }
        | PathError::ExpansionLimit {
            start_node,
            goal_node,
            ..
        } => (start_node, goal_node),
        _ => return None,
    };
    let search = SearchOptions::default();
    let gap = failed_path_gap(mesh, &search, start_node, goal_node)?;
    Some(match built {
        Some(r) => explain_gap(gap, r, search, ends, &FixBudget::default()),
        None => gap,
    })
}

/// The gap in words: where, how far, why, and the fixes.
pub fn gap_words(g: &Gap) -> String {
    let p = |v: DVec3| format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z);
    let fix = if g.fix.is_empty() {
        String::new()
    } else {
        let sets: Vec<String> = g
            .fix
            .iter()
            .map(|f| format!("--set {}={}", f.parameter, f.value))
            .collect();
        format!("; fix: {}", sets.join(" or "))
    };
    format!(
        "gap {} -> {}: {:.2} m, missing {} ({}){fix}",
        p(g.from),
        p(g.to),
        g.distance,
        g.missing_words(),
        g.reason
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_path::sample::grid_mesh;

    #[test]
    fn a_search_stopped_at_its_limit_has_a_gap_only_when_the_ends_are_apart() {
        // A 5 x 5 grid cut by a wall column at i = 2.
        let cut = grid_mesh(5, 5, |i, _| i == 2);
        let (start, goal) = (0, (cut.nodes.len() - 1) as u32);
        let stopped = PathError::ExpansionLimit {
            start_node: start,
            goal_node: goal,
            limit: 1,
        };
        let ends = (cut.nodes[0].position, cut.nodes[goal as usize].position);
        let gap = failure_gap(&cut, None, &stopped, ends).expect("the wall's gap");
        assert!((gap.distance - 1.0).abs() < 1e-9, "{gap:?}");
        // Connected after all: the limit was the only trouble, no gap.
        let whole = grid_mesh(5, 5, |_, _| false);
        let ends = (whole.nodes[0].position, whole.nodes[24].position);
        let stopped = PathError::ExpansionLimit {
            start_node: 0,
            goal_node: 24,
            limit: 1,
        };
        assert!(failure_gap(&whole, None, &stopped, ends).is_none());
    }
}
