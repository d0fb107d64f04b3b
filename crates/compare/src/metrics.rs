//! The metrics of one build and the A | B | delta table of two.

use std::collections::BTreeMap;

use navscope_core::NavMesh;
use navscope_core::geom::world_to_plan;
use serde::Serialize;

/// What one build measures, read from its NavMesh (which carries every
/// stage's time and counts and the artifacts' named metrics; see
/// `navscope_core::Runner::navmesh`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BuildMetrics {
    /// The pipeline that built it.
    pub pipeline: String,
    /// Nodes.
    pub nodes: u64,
    /// Nodes with a polygon.
    pub polygon_nodes: u64,
    /// Directed links per kind name (`walk`, `portal`, ...).
    pub links_by_kind: BTreeMap<String, u64>,
    /// Sum of node polygon areas (m²) per stance name.
    pub area_by_stance: BTreeMap<String, f64>,
    /// Sum of node polygon areas (m²) per area name (`default`, `water`, ...).
    pub area_by_area: BTreeMap<String, f64>,
    /// Every stage's counts as `stage.count` (`notches.notches`,
    /// `cells.cells`, `regions.regions`: whatever the pipeline's artifacts count).
    pub counts: BTreeMap<String, u64>,
    /// The artifacts' named metrics (the NavMesh's `metrics`).
    pub named: BTreeMap<String, f64>,
    /// Every stage's time (ms), in pipeline order.
    pub stage_ms: Vec<(String, f64)>,
    /// Estimated memory of the NavMesh (bytes): its nodes, polygons,
    /// detail triangles, links and their out-of-line segments as laid out in
    /// memory.
    pub memory_bytes: u64,
}

/// Plan area of a polygon given in world coordinates (m²).
pub fn polygon_area(poly: &[glam::DVec3]) -> f64 {
    let p: Vec<_> = poly.iter().map(|&v| world_to_plan(v)).collect();
    (0..p.len())
        .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
        .sum::<f64>()
        .abs()
        * 0.5
}

/// The NavMesh's estimated size in memory (bytes): see
/// [`BuildMetrics::memory_bytes`].
pub fn memory_estimate(mesh: &NavMesh) -> u64 {
    use std::mem::size_of;
    let nodes: usize = mesh
        .nodes
        .iter()
        .map(|n| {
            size_of::<navscope_core::navmesh::Node>()
                + match &n.area {
                    std::borrow::Cow::Borrowed(_) => 0,
                    std::borrow::Cow::Owned(name) => name.capacity(),
                }
                + n.polygon
                    .as_ref()
                    .map_or(0, |p| p.len() * size_of::<glam::DVec3>())
                + n.detail
                    .as_ref()
                    .map_or(0, |d| d.len() * size_of::<[glam::DVec3; 3]>())
        })
        .sum();
    let links: usize = mesh
        .links
        .iter()
        .map(|l| {
            size_of::<navscope_core::navmesh::Link>()
                + l.segment
                    .as_ref()
                    .map_or(0, |_| size_of::<[glam::DVec3; 2]>())
        })
        .sum();
    (size_of::<NavMesh>() + nodes + links) as u64
}

impl BuildMetrics {
    /// The metrics of a NavMesh.
    pub fn of(mesh: &NavMesh) -> Self {
        let mut m = BuildMetrics {
            pipeline: mesh.pipeline.clone(),
            nodes: mesh.nodes.len() as u64,
            named: mesh.metrics.clone(),
            memory_bytes: memory_estimate(mesh),
            ..Default::default()
        };
        for n in &mesh.nodes {
            let Some(poly) = &n.polygon else { continue };
            m.polygon_nodes += 1;
            let a = polygon_area(poly);
            *m.area_by_stance
                .entry(n.stance.name().to_string())
                .or_default() += a;
            *m.area_by_area.entry(n.area.to_string()).or_default() += a;
        }
        for l in &mesh.links {
            *m.links_by_kind
                .entry(l.kind.name().to_string())
                .or_default() += 1;
        }
        for s in &mesh.stages {
            m.stage_ms.push((s.id.clone(), s.ms));
            for (k, v) in &s.counts {
                m.counts.insert(format!("{}.{k}", s.id), *v);
            }
        }
        m
    }

    /// Total walkable area (m²): the node polygons' areas summed.
    pub fn walkable_area(&self) -> f64 {
        self.area_by_stance.values().sum()
    }

    /// Total build time (ms): the stages' times summed.
    pub fn total_ms(&self) -> f64 {
        self.stage_ms.iter().map(|(_, ms)| ms).sum()
    }

    /// Links of every kind.
    pub fn links(&self) -> u64 {
        self.links_by_kind.values().sum()
    }

    /// Every metric as `(row name, value)`, in table order.
    pub fn rows(&self) -> Vec<(String, f64)> {
        let mut rows = vec![
            ("nodes".to_string(), self.nodes as f64),
            ("polygon nodes".to_string(), self.polygon_nodes as f64),
            ("links".to_string(), self.links() as f64),
        ];
        rows.extend(
            self.links_by_kind
                .iter()
                .map(|(k, v)| (format!("links: {k}"), *v as f64)),
        );
        rows.push(("walkable area (m2)".into(), self.walkable_area()));
        rows.extend(
            self.area_by_stance
                .iter()
                .map(|(k, v)| (format!("area: stance {k} (m2)"), *v)),
        );
        rows.extend(
            self.area_by_area
                .iter()
                .map(|(k, v)| (format!("area: area {k} (m2)"), *v)),
        );
        rows.push(("time: total (ms)".into(), self.total_ms()));
        rows.extend(
            self.stage_ms
                .iter()
                .map(|(k, v)| (format!("time: {k} (ms)"), *v)),
        );
        rows.push((
            "memory: navmesh (KiB)".into(),
            self.memory_bytes as f64 / 1024.0,
        ));
        rows.extend(
            self.counts
                .iter()
                .map(|(k, v)| (format!("count: {k}"), *v as f64)),
        );
        rows.extend(self.named.iter().map(|(k, v)| (format!("metric: {k}"), *v)));
        rows
    }
}

/// One row of the A | B | delta table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricRow {
    /// What is measured, e.g. `links: portal` or `time: notches (ms)`.
    pub name: String,
    /// A's value (`None`: A's build does not have it).
    pub a: Option<f64>,
    /// B's value.
    pub b: Option<f64>,
}

impl MetricRow {
    /// B − A, when both have the value.
    pub fn delta(&self) -> Option<f64> {
        Some(self.b? - self.a?)
    }
}

/// The A | B | delta table: every row either build has, in A's order
/// followed by the rows only B has; stage counts that are zero (or
/// missing) on both sides are left out.
pub fn metrics_table(a: &BuildMetrics, b: &BuildMetrics) -> Vec<MetricRow> {
    let (ra, rb) = (a.rows(), b.rows());
    let mut rows: Vec<MetricRow> = ra
        .iter()
        .map(|(name, v)| MetricRow {
            name: name.clone(),
            a: Some(*v),
            b: rb.iter().find(|(n, _)| n == name).map(|(_, v)| *v),
        })
        .collect();
    for (name, v) in &rb {
        if !ra.iter().any(|(n, _)| n == name) {
            rows.push(MetricRow {
                name: name.clone(),
                a: None,
                b: Some(*v),
            });
        }
    }
    rows.retain(|r| {
        !r.name.starts_with("count: ") || r.a.unwrap_or(0.0) != 0.0 || r.b.unwrap_or(0.0) != 0.0
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;
    use navscope_core::navmesh::{LinkKind, StageRecord, Stance};

    fn mesh(stance: Stance, side: f64, ms: f64) -> NavMesh {
        let mut m = NavMesh::new("convex", "x");
        let sq = |x: f64| {
            vec![
                DVec3::new(x, 0.0, 0.0),
                DVec3::new(x + side, 0.0, 0.0),
                DVec3::new(x + side, 0.0, -side),
                DVec3::new(x, 0.0, -side),
            ]
        };
        let a = m.add_node(DVec3::ZERO, Some(sq(0.0)), Stance::Stand, 0);
        let b = m.add_node(DVec3::X, Some(sq(side)), stance, 0);
        m.add_two_way(a, b, LinkKind::Portal, 1.0, None);
        m.stages.push(StageRecord {
            id: "cells".into(),
            ms,
            counts: [("cells".to_string(), 2), ("slivers".to_string(), 0)].into(),
        });
        m
    }

    #[test]
    fn areas_links_counts_and_times_are_read_and_differenced() {
        let a = BuildMetrics::of(&mesh(Stance::Stand, 2.0, 1.5));
        assert_eq!(a.walkable_area(), 8.0);
        assert_eq!(a.links_by_kind["portal"], 2);
        assert_eq!(a.counts["cells.cells"], 2);
        assert_eq!(a.total_ms(), 1.5);
        assert!(a.memory_bytes > 0);
        let b = BuildMetrics::of(&mesh(Stance::Crouch, 1.0, 0.5));
        let rows = metrics_table(&a, &b);
        let row = |n: &str| rows.iter().find(|r| r.name == n).unwrap().clone();
        assert_eq!(row("walkable area (m2)").delta(), Some(2.0 - 8.0));
        assert_eq!(row("time: cells (ms)").delta(), Some(-1.0));
        assert_eq!(row("area: stance crouch (m2)").a, None);
        assert_eq!(row("area: stance crouch (m2)").delta(), None);
        assert_eq!(row("area: stance stand (m2)").b, Some(1.0));
        assert_eq!(row("count: cells.cells").delta(), Some(0.0));
        assert!(
            !rows.iter().any(|r| r.name == "count: cells.slivers"),
            "zero on both sides: left out"
        );
        assert_eq!(
            rows.last().unwrap().name,
            "area: stance crouch (m2)",
            "rows only B has come last"
        );
    }
}
