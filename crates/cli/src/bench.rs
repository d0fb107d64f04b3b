//! `navscope-cli bench`: median stage times over repeated whole builds, per
//! level and parameter variant, with the NavMesh's size and metrics so
//! variants (e.g. ANavMG's original / with removal / with relaxation) can be
//! compared on one table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use navscope_core::Runner;
use navscope_core::level::Level;
use serde::Serialize;

use crate::BuildOptions;
use crate::session::{
    CliError, apply_setting, check_run, converted, load_level, param_values, pipeline_for,
};
use crate::table;

/// The measurements of one level under one variant.
#[derive(Debug, Serialize)]
pub struct BenchRow {
    /// Level path as given.
    pub level: String,
    /// Variant settings (`base` for none).
    pub variant: String,
    /// Number of runs.
    pub runs: u32,
    /// Median total build time (ms).
    pub median_ms: f64,
    /// Fastest total build time (ms).
    pub min_ms: f64,
    /// Median time per stage (ms), by stage id, in pipeline order.
    pub stages: Vec<(String, f64)>,
    /// NavMesh nodes.
    pub nodes: usize,
    /// NavMesh links.
    pub links: usize,
    /// NavMesh metrics.
    pub metrics: BTreeMap<String, f64>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn measure(
    level: &Arc<Level>,
    opts: &BuildOptions,
    variant: &str,
    runs: u32,
    bar: &ProgressBar,
) -> Result<BenchRow, CliError> {
    let pipeline = pipeline_for(level, opts.pipeline.as_deref())?;
    let mut values = param_values(&pipeline, level, opts)?;
    for setting in variant.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        apply_setting(&pipeline, &mut values, setting)?;
    }
    let level = &converted(&pipeline, level)?;
    let n = pipeline.stages.len();
    let mut per_stage: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut totals = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let mut r = Runner::new(pipeline.clone(), level.clone());
        r.set_params(values.clone());
        r.set_budget(opts.budget());
        r.run_all();
        check_run(&r)?;
        let mut total = 0.0;
        for (i, times) in per_stage.iter_mut().enumerate() {
            let ms = r.result(i).map_or(0.0, |x| x.ms);
            times.push(ms);
            total += ms;
        }
        totals.push(total);
        last = Some(r);
        bar.inc(1);
    }
    let r = last.expect("runs >= 1");
    let mesh = r.stamped_navmesh();
    let min_ms = totals.iter().copied().fold(f64::INFINITY, f64::min);
    Ok(BenchRow {
        level: level.source.clone(),
        variant: if variant.is_empty() {
            "base".into()
        } else {
            variant.to_string()
        },
        runs,
        median_ms: median(&mut totals),
        min_ms,
        stages: pipeline
            .stages
            .iter()
            .zip(per_stage.iter_mut())
            .map(|(s, t)| (s.info.id.to_string(), median(t)))
            .collect(),
        nodes: mesh.as_ref().map_or(0, |m| m.mesh.nodes.len()),
        links: mesh.as_ref().map_or(0, |m| m.mesh.links.len()),
        metrics: mesh.map(|m| m.metrics).unwrap_or_default(),
    })
}

/// Benchmarks every level under the base settings and each variant.
pub fn run(
    levels: &[PathBuf],
    opts: &BuildOptions,
    runs: u32,
    variants: &[String],
    json: bool,
) -> Result<(), CliError> {
    let loaded: Vec<Arc<Level>> = levels
        .iter()
        .map(|p| load_level(p, opts.budget()).map(Arc::new))
        .collect::<Result<_, _>>()?;
    let mut all_variants = vec![String::new()];
    all_variants.extend(variants.iter().cloned());
    let bar = ProgressBar::new((loaded.len() * all_variants.len()) as u64 * runs as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} runs {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut rows = Vec::new();
    for level in &loaded {
        bar.set_message(level.source.clone());
        for v in &all_variants {
            rows.push(measure(level, opts, v, runs, &bar)?);
        }
    }
    bar.finish_and_clear();
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        print!("{}", report(&rows));
    }
    Ok(())
}

/// The terminal report: one row per level and variant, then the median
/// stage times of each.
pub fn report(rows: &[BenchRow]) -> String {
    let metric_names: Vec<String> = {
        let mut names: Vec<String> = rows
            .iter()
            .flat_map(|r| r.metrics.keys().cloned())
            .collect();
        names.sort();
        names.dedup();
        // Per-cell lists and the like make tables unreadable: keep scalars
        // whose names are short.
        names
            .into_iter()
            .filter(|n| n.len() <= 24)
            .take(8)
            .collect()
    };
    let mut head = vec![
        "level".into(),
        "variant".into(),
        "median ms".into(),
        "min ms".into(),
        "nodes".into(),
        "links".into(),
    ];
    head.extend(metric_names.iter().cloned());
    let mut t = vec![head];
    for r in rows {
        let mut row = vec![
            Path::new(&r.level)
                .file_name()
                .map_or(r.level.clone(), |f| f.to_string_lossy().into_owned()),
            r.variant.clone(),
            format!("{:.3}", r.median_ms),
            format!("{:.3}", r.min_ms),
            r.nodes.to_string(),
            r.links.to_string(),
        ];
        row.extend(
            metric_names
                .iter()
                .map(|m| r.metrics.get(m).map_or("-".into(), |v| fmt_metric(*v))),
        );
        t.push(row);
    }
    let mut out = table::render(&t);
    out.push('\n');
    let mut st = vec![vec![
        "level".to_string(),
        "variant".into(),
        "stage".into(),
        "median ms".into(),
    ]];
    for r in rows {
        for (id, ms) in &r.stages {
            st.push(vec![
                r.level.clone(),
                r.variant.clone(),
                id.clone(),
                format!("{ms:.3}"),
            ]);
        }
    }
    out.push_str(&table::render(&st));
    out
}

fn fmt_metric(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }

    #[test]
    fn report_lists_each_variant() {
        let row = |v: &str, cells: f64| BenchRow {
            level: "a/b.json".into(),
            variant: v.into(),
            runs: 3,
            median_ms: 1.5,
            min_ms: 1.0,
            stages: vec![("notches".into(), 0.5)],
            nodes: 4,
            links: 6,
            metrics: BTreeMap::from([("cells".to_string(), cells)]),
        };
        let text = report(&[row("base", 4.0), row("tau=5", 3.0)]);
        assert!(text.contains("b.json  base"), "{text}");
        assert!(text.contains("tau=5"), "{text}");
        assert!(
            text.lines()
                .any(|l| l.contains("base") && l.trim_end().ends_with('4')),
            "{text}"
        );
    }
}
