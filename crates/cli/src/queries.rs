//! `navscope-cli path LEVEL --queries FILE`: many queries on one mesh,
//! each answered and timed alone.
//!
//! FILE is a Moving AI scenario (`.scen`: a `version` line, then lines of
//! bucket, map, width, height, start x, start y, goal x, goal y, optimal
//! length; map `(x, y)` is world `(x, 0, y)`, as for polyanya meshes) or
//! lines `x,y,z x,y,z` with an optional third field, the optimal length;
//! blank lines and lines starting with `#` are skipped.
//!
//! The mesh is built once, and so are the locator, Polyanya's mesh and A*'s
//! per-mesh state (one `PathFinder`); each query is timed from the two
//! points to the answer (locating both ends, searching, and for A* the
//! funnel).

use std::path::Path;
use std::time::Instant;

use glam::DVec3;
use navscope_core::NavMesh;
use navscope_path::{Method, PathFinder, SearchOptions};
use serde::Serialize;

use crate::BuildOptions;
use crate::path::{Searchable, parse_point, searchable};
use crate::session::CliError;

/// One query of the file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// Start, world space.
    pub from: DVec3,
    /// Goal.
    pub to: DVec3,
    /// The optimal length, when the file gives it.
    pub optimal: Option<f64>,
}

/// Reads the queries of `text` (see the module docs); errors name the line.
pub fn parse_queries(text: &str) -> Result<Vec<Query>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || (i == 0 && line.starts_with("version")) {
            continue;
        }
        let at = |m: String| format!("line {}: {m}", i + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        let query = if fields.len() == 9 {
            let num = |k: usize| {
                fields[k]
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| at(format!("'{}' is not a number", fields[k])))
            };
            Query {
                from: DVec3::new(num(4)?, 0.0, num(5)?),
                to: DVec3::new(num(6)?, 0.0, num(7)?),
                optimal: Some(num(8)?),
            }
        } else if fields.len() == 2 || fields.len() == 3 {
            let optimal = match fields.get(2) {
                Some(f) => Some(
                    f.parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| at(format!("'{f}' is not a number")))?,
                ),
                None => None,
            };
            Query {
                from: parse_point(fields[0]).map_err(at)?,
                to: parse_point(fields[1]).map_err(at)?,
                optimal,
            }
        } else {
            return Err(at(
                "expected a Moving AI scenario line (9 fields) or 'x,y,z x,y,z [optimal]'".into(),
            ));
        };
        out.push(query);
    }
    Ok(out)
}

/// The answer to one query.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// True when a path was found.
    pub found: bool,
    /// Its length (0 when none), metres.
    pub length: f64,
    /// Time to answer, microseconds.
    pub us: f64,
    /// Search nodes expanded (found or not; the limit when it stopped
    /// there).
    pub expansions: usize,
}

/// Totals over the outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Number of queries.
    pub queries: usize,
    /// Paths found.
    pub found: usize,
    /// Median time per query, microseconds.
    pub median_us: f64,
    /// 95th percentile (nearest rank), microseconds.
    pub p95_us: f64,
    /// Median of length / optimal over found paths with a known optimal
    /// length above zero (`None` when there is none).
    pub ratio_median: Option<f64>,
    /// Largest such ratio.
    pub ratio_max: Option<f64>,
    /// Median search nodes expanded per query (nearest rank).
    pub expansions_median: usize,
    /// Most expanded by one query.
    pub expansions_max: usize,
}

/// The value at quantile `q` of sorted `v` (nearest rank), 0 when empty.
fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// Summarises `outcomes` of `queries` (same order).
pub fn summarise(queries: &[Query], outcomes: &[Outcome]) -> Summary {
    let mut times: Vec<f64> = outcomes.iter().map(|o| o.us).collect();
    times.sort_by(f64::total_cmp);
    let mut ratios: Vec<f64> = queries
        .iter()
        .zip(outcomes)
        .filter_map(|(q, o)| match q.optimal {
            Some(opt) if o.found && opt > 0.0 => Some(o.length / opt),
            _ => None,
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let mut expansions: Vec<usize> = outcomes.iter().map(|o| o.expansions).collect();
    expansions.sort_unstable();
    let rank = expansions.len().div_ceil(2).max(1);
    Summary {
        expansions_median: expansions.get(rank - 1).copied().unwrap_or(0),
        expansions_max: expansions.last().copied().unwrap_or(0),
        queries: outcomes.len(),
        found: outcomes.iter().filter(|o| o.found).count(),
        median_us: quantile(&times, 0.5),
        p95_us: quantile(&times, 0.95),
        ratio_median: (!ratios.is_empty()).then(|| quantile(&ratios, 0.5)),
        ratio_max: ratios.last().copied(),
    }
}

/// Answers and times every query on `mesh` by `method`.
pub fn answer_all(mesh: &NavMesh, queries: &[Query], method: Method) -> Vec<Outcome> {
    let mut finder = PathFinder::new(mesh);
    let opts = SearchOptions::default();
    queries
        .iter()
        .map(|q| {
            let t = Instant::now();
            let answer = match method {
                Method::Polyanya => finder
                    .polyanya(mesh, q.from, q.to, &opts, false)
                    .map(|p| (p.length, p.expansions)),
                Method::AStar => finder
                    .find(mesh, Method::AStar, q.from, q.to, &opts)
                    .map(|p| (p.length, p.expansions)),
            };
            let us = t.elapsed().as_secs_f64() * 1e6;
            let (length, expansions) = answer
                .as_ref()
                .map_or_else(|e| (0.0, e.expansions()), |a| *a);
            Outcome {
                found: answer.is_ok(),
                length,
                us,
                expansions,
            }
        })
        .collect()
}

/// The summary line.
pub fn summary_line(s: &Summary) -> String {
    let mut line = format!(
        "{} queries, {} found, median {:.1} us, p95 {:.1} us, expansions median {}, max {}",
        s.queries, s.found, s.median_us, s.p95_us, s.expansions_median, s.expansions_max
    );
    if let (Some(m), Some(x)) = (s.ratio_median, s.ratio_max) {
        line.push_str(&format!(", length/optimal median {m:.5}, max {x:.5}"));
    }
    line
}

/// Runs the batch and prints it.
pub fn run(
    level: &Path,
    opts: &BuildOptions,
    file: &Path,
    method: Method,
    json: bool,
) -> Result<(), CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::Failed(format!("{}: {e}", file.display())))?;
    let queries =
        parse_queries(&text).map_err(|e| CliError::Failed(format!("{}: {e}", file.display())))?;
    // Without ends a pipeline's own answer is never asked for.
    let Searchable::Mesh(mesh, _) = searchable(level, opts, None)? else {
        return Err(CliError::Failed(format!(
            "{}: the pipeline gave no NavMesh to search",
            level.display()
        )));
    };
    let outcomes = answer_all(&mesh, &queries, method);
    let summary = summarise(&queries, &outcomes);
    if json {
        println!(
            "{}",
            serde_json::json!({ "queries": outcomes, "summary": summary })
        );
        return Ok(());
    }
    for (i, (q, o)) in queries.iter().zip(&outcomes).enumerate() {
        let optimal = q
            .optimal
            .map_or(String::new(), |v| format!(" (optimal {v:.4})"));
        if o.found {
            println!("{i}: length {:.4}{optimal}, {:.1} us", o.length, o.us);
        } else {
            println!("{i}: no path{optimal}, {:.1} us", o.us);
        }
    }
    println!("{}", summary_line(&summary));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_and_point_lines_parse_and_bad_lines_name_their_line() {
        let q = parse_queries(
            "version 1\n0\tmaps/a.map\t49\t49\t1\t11\t3\t12\t2.5\n\n# note\n1,2,3 4,5,6\n1,0,1 2,0,2 1.5\n",
        )
        .unwrap();
        assert_eq!(q.len(), 3);
        assert_eq!(q[0].from, DVec3::new(1.0, 0.0, 11.0));
        assert_eq!(q[0].to, DVec3::new(3.0, 0.0, 12.0));
        assert_eq!(q[0].optimal, Some(2.5));
        assert_eq!(q[1].optimal, None);
        assert_eq!(q[2].optimal, Some(1.5));
        assert_eq!(
            parse_queries("1,2,3\n").unwrap_err().split(':').next(),
            Some("line 1")
        );
        assert!(
            parse_queries("\n1,2,3 x,1,1\n")
                .unwrap_err()
                .starts_with("line 2")
        );
    }

    #[test]
    fn summaries_count_and_rank() {
        let q = |optimal| Query {
            from: DVec3::ZERO,
            to: DVec3::ZERO,
            optimal,
        };
        let o = |found, length, us| Outcome {
            found,
            length,
            us,
            expansions: us as usize * 10,
        };
        let s = summarise(
            &[q(Some(2.0)), q(Some(1.0)), q(None), q(Some(0.0))],
            &[
                o(true, 2.0, 4.0),
                o(true, 1.5, 1.0),
                o(false, 0.0, 3.0),
                o(true, 0.0, 2.0),
            ],
        );
        assert_eq!((s.queries, s.found), (4, 3));
        assert_eq!((s.median_us, s.p95_us), (2.0, 4.0));
        assert_eq!((s.ratio_median, s.ratio_max), (Some(1.0), Some(1.5)));
        assert_eq!(
            summary_line(&s),
            "4 queries, 3 found, median 2.0 us, p95 4.0 us, expansions median 20, max 40, length/optimal median 1.00000, max 1.50000"
        );
        let none = summarise(&[], &[]);
        assert_eq!(
            summary_line(&none),
            "0 queries, 0 found, median 0.0 us, p95 0.0 us, expansions median 0, max 0"
        );
    }
}
