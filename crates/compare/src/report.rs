//! A whole comparison of two builds: the metrics table, the footprint
//! difference, the probe on both, as data, as text rows and as JSON.

use std::time::Instant;

use glam::DVec3;
use navscope_core::NavMesh;
use serde::Serialize;
use serde_json::json;

use crate::difference::{Banding, Difference, difference};
use crate::metrics::{BuildMetrics, MetricRow, metrics_table};
use crate::probe::{Probe, probe};

/// What to compare besides the metrics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompareOptions {
    /// How node polygons are grouped before differencing.
    pub banding: Banding,
    /// A path query (start, goal) to run on both builds.
    pub probe: Option<(DVec3, DVec3)>,
}

/// The comparison of build A with build B.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// A's metrics.
    pub a: BuildMetrics,
    /// B's metrics.
    pub b: BuildMetrics,
    /// The A | B | delta table ([`metrics_table`]).
    pub rows: Vec<MetricRow>,
    /// The footprint difference, band by band (polygons to draw).
    pub difference: Difference,
    /// The probe on A and on B, when one was asked for.
    pub probe: Option<[Probe; 2]>,
    /// Time this comparison took (ms), builds excluded.
    pub ms: f64,
}

/// Compares two NavMeshes (each as built, with its stage records).
pub fn compare(a: &NavMesh, b: &NavMesh, opts: &CompareOptions) -> Comparison {
    let start = Instant::now();
    let (ma, mb) = (BuildMetrics::of(a), BuildMetrics::of(b));
    let rows = metrics_table(&ma, &mb);
    let difference = difference(a, b, opts.banding);
    let probe = opts
        .probe
        .map(|(from, to)| [probe(a, from, to), probe(b, from, to)]);
    Comparison {
        a: ma,
        b: mb,
        rows,
        difference,
        probe,
        ms: start.elapsed().as_secs_f64() * 1e3,
    }
}

/// A number for a table cell: integers without decimals, others with three.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// A table cell for a value that may be missing (`-`).
fn cell(v: Option<f64>) -> String {
    v.map_or("-".into(), number)
}

/// A delta cell with its sign.
fn delta_cell(v: Option<f64>) -> String {
    match v {
        Some(d) if d > 0.0 => format!("+{}", number(d)),
        Some(d) => number(d),
        None => "-".into(),
    }
}

impl Comparison {
    /// The metrics table as text cells, header first: metric, A, B, delta.
    pub fn metric_cells(&self) -> Vec<Vec<String>> {
        let mut rows = vec![vec![
            "metric".to_string(),
            format!("A ({})", self.a.pipeline),
            format!("B ({})", self.b.pipeline),
            "delta".to_string(),
        ]];
        rows.extend(
            self.rows
                .iter()
                .map(|r| vec![r.name.clone(), cell(r.a), cell(r.b), delta_cell(r.delta())]),
        );
        rows
    }

    /// The difference areas as text cells, header first: band, height,
    /// A only, B only, both (m²), then the total.
    pub fn difference_cells(&self) -> Vec<Vec<String>> {
        let mut rows = vec![
            [
                "band",
                "height (m)",
                "A only (m2)",
                "B only (m2)",
                "both (m2)",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for b in &self.difference.bands {
            rows.push(vec![
                b.key.to_string(),
                number(b.height),
                format!("{:.3}", b.a_only.area()),
                format!("{:.3}", b.b_only.area()),
                format!("{:.3}", b.common.area()),
            ]);
        }
        let d = &self.difference;
        rows.push(vec![
            "total".into(),
            String::new(),
            format!("{:.3}", d.a_only_area()),
            format!("{:.3}", d.b_only_area()),
            format!("{:.3}", d.common_area()),
        ]);
        rows
    }

    /// The probe on both as text cells, header first: side, found,
    /// length, expansions, waypoints (each `(x, y, z)`).
    pub fn probe_cells(&self) -> Option<Vec<Vec<String>>> {
        let [pa, pb] = self.probe.as_ref()?;
        let mut rows = vec![
            ["side", "found", "length (m)", "expansions", "waypoints"]
                .map(String::from)
                .to_vec(),
        ];
        for (side, p) in [("A", pa), ("B", pb)] {
            let waypoints = match &p.reason {
                Some(r) => r.clone(),
                None => p
                    .waypoints
                    .iter()
                    .map(|w| {
                        let [x, y, z] = w.position;
                        format!("({x:.2}, {y:.2}, {z:.2})")
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            rows.push(vec![
                side.into(),
                p.found.to_string(),
                format!("{:.3}", p.length),
                p.expansions.to_string(),
                waypoints,
            ]);
        }
        Some(rows)
    }

    /// The comparison as JSON: `{ "a": {"pipeline"}, "b": {...},
    /// "metrics": [{ "name", "a", "b", "delta" }], "difference": {
    /// "a_only_m2", "b_only_m2", "common_m2", "a_m2", "b_m2", "bands": [{
    /// "band", "height", "a_only_m2", "b_only_m2", "common_m2" }] },
    /// "probe": { "a": path, "b": path } | null, "compare_ms" }` (paths in
    /// the CLI contract's path shape). Missing values are null.
    pub fn to_json(&self) -> serde_json::Value {
        let d = &self.difference;
        json!({
            "a": { "pipeline": self.a.pipeline },
            "b": { "pipeline": self.b.pipeline },
            "metrics": self.rows.iter().map(|r| json!({
                "name": r.name, "a": r.a, "b": r.b, "delta": r.delta(),
            })).collect::<Vec<_>>(),
            "difference": {
                "a_only_m2": d.a_only_area(),
                "b_only_m2": d.b_only_area(),
                "common_m2": d.common_area(),
                "a_m2": d.a_area(),
                "b_m2": d.b_area(),
                "bands": d.bands.iter().map(|b| json!({
                    "band": b.key,
                    "height": b.height,
                    "a_only_m2": b.a_only.area(),
                    "b_only_m2": b.b_only.area(),
                    "common_m2": b.common.area(),
                })).collect::<Vec<_>>(),
            },
            "probe": self.probe.as_ref().map(|[a, b]| json!({ "a": a, "b": b })),
            "compare_ms": self.ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_deltas_print_plainly() {
        assert_eq!(number(3.0), "3");
        assert_eq!(number(0.25), "0.250");
        assert_eq!(delta_cell(Some(2.0)), "+2");
        assert_eq!(delta_cell(Some(-0.5)), "-0.500");
        assert_eq!(delta_cell(None), "-");
        assert_eq!(cell(None), "-");
    }
}
