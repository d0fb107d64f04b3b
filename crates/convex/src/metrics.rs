//! Stage 5, `metrics`: the figures of the paper's Table 1 and §4 for this
//! level: notches, cells, cells per notch, portals by type, removed
//! portals, total portal length, each cell's smallest interior angle and
//! the number of ill-conditioned (sliver) cells.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::DVec2;
use navscope_core::draw::Primitive;
use navscope_core::{Artifact, StageContext, StageError};
use serde::Serialize;

use crate::cells::CellsArtifact;
use crate::decompose::{Fate, PortalKind};
use crate::portals::PortalsArtifact;
use crate::show::{label, plan_polygon};

/// The artifact of the `metrics` stage.
#[derive(Clone, Debug, Serialize)]
pub struct MetricsArtifact {
    /// Named figures (also merged into the NavMesh's metrics).
    pub figures: BTreeMap<String, f64>,
    /// Smallest interior angle of each cell, degrees.
    pub min_angle_deg: Vec<f64>,
    /// Cells whose smallest angle is below the threshold.
    pub ill_conditioned: Vec<u32>,
    /// The threshold, degrees.
    pub threshold_deg: f64,
    /// Outlines of the ill-conditioned cells, for drawing.
    #[serde(skip)]
    pub outlines: Vec<Vec<DVec2>>,
    /// Where the summary label goes.
    #[serde(skip)]
    pub corner: DVec2,
}

/// The stage function.
pub fn run(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let p = ctx.artifact::<PortalsArtifact>("portals")?;
    let c = ctx.artifact::<CellsArtifact>("cells")?;
    let threshold_deg = ctx.params.float("ill_conditioned_deg");
    let r = p.strict_notches as f64;
    let cells = c.cells.len() as f64;
    let mut f = BTreeMap::new();
    f.insert("notches".to_string(), r);
    f.insert("tau_notches".to_string(), p.notches as f64);
    f.insert("cells".to_string(), cells);
    f.insert(
        "cells_per_notch".to_string(),
        if r > 0.0 { cells / r } else { 0.0 },
    );
    let kept: Vec<_> = p
        .result
        .portals
        .iter()
        .filter(|q| q.fate == Fate::Kept)
        .collect();
    f.insert("portals".to_string(), kept.len() as f64);
    for k in PortalKind::ALL {
        f.insert(
            format!("portals_{}", k.name().replace('-', "_")),
            kept.iter().filter(|q| q.kind == k).count() as f64,
        );
    }
    let removed = p
        .result
        .portals
        .iter()
        .filter(|q| matches!(q.fate, Fate::Removed { .. }))
        .count();
    f.insert("removed_portals".to_string(), removed as f64);
    f.insert(
        "total_portal_length".to_string(),
        kept.iter().map(|q| q.a.distance(q.b)).sum(),
    );
    let min_angle_deg: Vec<f64> = c.cells.iter().map(|c| c.min_angle_deg).collect();
    f.insert(
        "min_cell_angle_deg".to_string(),
        min_angle_deg
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            .min(180.0),
    );
    let ill_conditioned: Vec<u32> = (0..c.cells.len() as u32)
        .filter(|&i| min_angle_deg[i as usize] < threshold_deg)
        .collect();
    f.insert(
        "ill_conditioned_cells".to_string(),
        ill_conditioned.len() as f64,
    );
    let outlines = ill_conditioned
        .iter()
        .map(|&i| c.cells[i as usize].polygon.clone())
        .collect();
    let (lo, hi) = p.plan.bounds();
    Ok(Arc::new(MetricsArtifact {
        figures: f,
        min_angle_deg,
        ill_conditioned,
        threshold_deg,
        outlines,
        corner: DVec2::new(lo.x, hi.y),
    }))
}

impl Artifact for MetricsArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("cells".into(), self.min_angle_deg.len() as u64),
            (
                "ill-conditioned cells".into(),
                self.ill_conditioned.len() as u64,
            ),
        ])
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out: Vec<Primitive> = self
            .ill_conditioned
            .iter()
            .zip(&self.outlines)
            .map(|(&i, poly)| Primitive::new("cell/ill-conditioned", i, plan_polygon(poly)))
            .collect();
        let g = |k: &str| self.figures.get(k).copied().unwrap_or(0.0);
        out.push(label(
            self.corner,
            format!(
                "r = {} notches, {} cells ({:.2} per notch), {} portals, {} removed, {} cells under {} deg",
                g("notches"),
                g("cells"),
                g("cells_per_notch"),
                g("portals"),
                g("removed_portals"),
                g("ill_conditioned_cells"),
                self.threshold_deg
            ),
        ));
        out
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        self.figures.clone()
    }
}
