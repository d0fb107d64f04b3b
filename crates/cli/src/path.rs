//! `navscope-cli path`: build (or read) a NavMesh and search it, or, for a
//! pipeline whose stages answer path queries themselves
//! ([`Artifact::path_between`]: the `navgraph` super-graph, the `layers`
//! corridor planner), print that answer, as the app's probe does.
//!
//! A pipeline's own answer has no A* expansion count of the NavMesh, so
//! its JSON carries `"expansions": null` and a `"summary"` line with the
//! work the method did (region and node expansions, clearance kept).

use std::path::Path;

use glam::DVec3;
use navscope_core::{Artifact, NavMesh, PathAnswer, Runner};
use navscope_path::{Method, PathError, PathFinder, SearchOptions};

use crate::BuildOptions;
use crate::build::run_stages;
use crate::session::{CliError, check_run, load_level, load_navmesh, runner};

/// Parses `X,Y,Z`.
pub fn parse_point(s: &str) -> Result<DVec3, String> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| {
            p.trim()
                .parse::<f64>()
                .map_err(|_| format!("'{p}' is not a number"))
        })
        .collect::<Result<_, _>>()?;
    match parts.as_slice() {
        [x, y, z] if parts.iter().all(|v| v.is_finite()) => Ok(DVec3::new(*x, *y, *z)),
        _ => Err(format!("'{s}' is not three finite numbers X,Y,Z")),
    }
}

/// Parses `--method`: `polyanya` or `astar`.
pub fn parse_method(s: &str) -> Result<Method, String> {
    Method::parse(s).ok_or_else(|| format!("'{s}' is not a method (polyanya or astar)"))
}

/// The NavMesh of LEVEL: read (`--pipeline navmesh`) or built; or, for a
/// pipeline whose stages answer path queries themselves and when `from`
/// and `to` are given, that answer.
pub enum Searchable {
    /// A NavMesh to search, and the runner that built it (none for a
    /// NavMesh read from a file), for explaining a failed search.
    Mesh(NavMesh, Option<Box<Runner>>),
    /// A pipeline's own answer.
    Own(Result<PathAnswer, String>),
}

/// Builds or reads the NavMesh of `level` (see [`Searchable`]).
pub fn searchable(
    level: &Path,
    opts: &BuildOptions,
    ends: Option<(DVec3, DVec3)>,
) -> Result<Searchable, CliError> {
    if opts.pipeline.as_deref() == Some("navmesh") {
        return load_navmesh(level).map(|m| Searchable::Mesh(m, None));
    }
    let mut r = runner(load_level(level, opts.budget())?, opts)?;
    run_stages(&mut r);
    check_run(&r)?;
    if let Some((from, to)) = ends
        && let Some(answer) = own_answer(&r, from, to)
    {
        return Ok(Searchable::Own(answer));
    }
    match r.navmesh() {
        Some(m) => Ok(Searchable::Mesh(m, Some(Box::new(r)))),
        None => Err(CliError::Failed(format!(
            "{}: pipeline '{}' produced no NavMesh",
            level.display(),
            r.pipeline().id
        ))),
    }
}

/// Finds and prints the path by `method`.
pub fn run(
    level: &Path,
    opts: &BuildOptions,
    from: DVec3,
    to: DVec3,
    method: Method,
    json: bool,
) -> Result<(), CliError> {
    let (mesh, built) = match searchable(level, opts, Some((from, to)))? {
        Searchable::Mesh(m, r) => (m, r),
        Searchable::Own(answer) => {
            print_answer(answer, json);
            return Ok(());
        }
    };
    let mut finder = PathFinder::new(&mesh);
    let result = finder.find(&mesh, method, from, to, &SearchOptions::default());
    match (result, json) {
        (Ok(p), true) => println!("{}", p.to_json()),
        (Ok(p), false) => {
            println!(
                "path found ({}): length {:.3} m, {} expansions, {} waypoints",
                method.name(),
                p.length,
                p.expansions,
                p.waypoints.len()
            );
            for w in &p.waypoints {
                println!(
                    "  ({:.3}, {:.3}, {:.3})  {}",
                    w.position.x,
                    w.position.y,
                    w.position.z,
                    w.stance.name()
                );
            }
        }
        (Err(e), json) => {
            let gap = crate::islands::failure_gap(&mesh, built.as_deref(), &e, (from, to));
            if json {
                println!("{}", not_found_json(&e, gap.as_ref()));
            } else {
                println!("no path: {e}");
                gap.inspect(|g| println!("{}", crate::islands::gap_words(g)));
            }
        }
    }
    Ok(())
}

/// The first answer of the run's stages, last stage first (the app's
/// probe asks the same way).
fn own_answer(r: &Runner, from: DVec3, to: DVec3) -> Option<Result<PathAnswer, String>> {
    (0..r.pipeline().stages.len()).rev().find_map(|i| {
        let a: &dyn Artifact = r.result(i)?.outcome.as_ref().ok()?.as_ref();
        a.path_between(from.as_vec3(), to.as_vec3())
    })
}

/// Prints a pipeline's own answer (JSON: the contract's fields, with
/// `expansions` null and the method's `summary`).
fn print_answer(answer: Result<PathAnswer, String>, json: bool) {
    match (answer, json) {
        (Ok(a), true) => {
            let waypoints: Vec<_> = a
                .waypoints
                .iter()
                .map(|p| serde_json::json!({ "position": [p.x, p.y, p.z], "stance": "stand" }))
                .collect();
            println!(
                "{}",
                serde_json::json!({ "found": true, "length": a.length, "expansions": null, "waypoints": waypoints, "summary": a.summary })
            );
        }
        (Ok(a), false) => {
            println!(
                "path found: length {:.3} m, {} waypoints ({})",
                a.length,
                a.waypoints.len(),
                a.summary
            );
            for p in &a.waypoints {
                println!("  ({:.3}, {:.3}, {:.3})  stand", p.x, p.y, p.z);
            }
        }
        (Err(e), true) => println!(
            "{}",
            serde_json::json!({ "found": false, "length": 0.0, "expansions": null, "waypoints": [], "reason": e })
        ),
        (Err(e), false) => println!("no path: {e}"),
    }
}

/// The contract's JSON for a failed search, with the reason and, when
/// known, the gap between the two sides.
fn not_found_json(e: &PathError, gap: Option<&navscope_explain::Gap>) -> String {
    let mut v = serde_json::json!({ "found": false, "length": 0.0, "expansions": e.expansions(), "waypoints": [], "reason": e.to_string() });
    if let Some(g) = gap {
        v["gap"] = serde_json::json!(g);
    }
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_point("1, -2.5,3"), Ok(DVec3::new(1.0, -2.5, 3.0)));
        assert!(parse_point("1,2").is_err());
        assert!(parse_point("1,2,x").is_err());
        assert!(parse_point("1,2,inf").is_err());
    }

    #[test]
    fn methods_parse_by_name() {
        assert_eq!(parse_method("astar"), Ok(Method::AStar));
        assert_eq!(parse_method("polyanya"), Ok(Method::Polyanya));
        assert!(
            parse_method("bfs")
                .unwrap_err()
                .contains("polyanya or astar")
        );
    }
}
