//! Stage 3, `removal` (Oliva & Pelechano §3.2.3): the portals that survive
//! and the ones removed because a later portal made them unnecessary.
//!
//! Removal itself happens inside the `portals` stage, right after each
//! notch's new portals are created, as in the paper: which portals exist
//! changes what later notches find closest. This stage publishes the
//! outcome (final set, removed set, which step removed each) so it can be
//! looked at on its own; switching `portal_removal` off re-runs `portals`.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::DVec2;
use navscope_core::draw::Primitive;
use navscope_core::geom::PolygonWithHoles;
use navscope_core::{Artifact, StageContext, StageError};
use serde::Serialize;

use crate::decompose::{Fate, PortalKind};
use crate::portals::PortalsArtifact;
use crate::show::{label, plan_segment, ring_outline};

/// A portal as published by this stage.
#[derive(Clone, Debug, Serialize)]
pub struct PortalSummary {
    /// Portal index (as in the `portals` stage).
    pub id: u32,
    /// Type.
    pub kind: PortalKind,
    /// Start (plan).
    pub a: DVec2,
    /// End (plan).
    pub b: DVec2,
    /// The sub-step of `portals` that removed it, for removed portals.
    pub removed_at: Option<u32>,
}

/// The artifact of the `removal` stage.
#[derive(Clone, Debug, Serialize)]
pub struct RemovalArtifact {
    /// The plan.
    pub plan: PolygonWithHoles,
    /// Whether removal was on.
    pub enabled: bool,
    /// The final portals.
    pub kept: Vec<PortalSummary>,
    /// The removed ones.
    pub removed: Vec<PortalSummary>,
    /// Portals cut in two by a vertex-portal portal (their halves are in
    /// `kept` or `removed`).
    pub cut: u32,
}

/// The stage function.
pub fn run(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let p = ctx.artifact::<PortalsArtifact>("portals")?;
    let mut kept = Vec::new();
    let mut removed = Vec::new();
    let mut cut = 0;
    for (i, q) in p.result.portals.iter().enumerate() {
        let s = PortalSummary {
            id: i as u32,
            kind: q.kind,
            a: q.a,
            b: q.b,
            removed_at: None,
        };
        match q.fate {
            Fate::Kept => kept.push(s),
            Fate::Removed { step } => removed.push(PortalSummary {
                removed_at: Some(step),
                ..s
            }),
            Fate::Split { .. } => cut += 1,
        }
    }
    Ok(Arc::new(RemovalArtifact {
        plan: p.plan.clone(),
        enabled: p.removal,
        kept,
        removed,
        cut,
    }))
}

impl Artifact for RemovalArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("portals kept".into(), self.kept.len() as u64),
            ("portals removed".into(), self.removed.len() as u64),
            ("portals cut".into(), self.cut as u64),
        ])
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = ring_outline(&self.plan);
        for p in &self.kept {
            out.push(Primitive::new(
                p.kind.draw_kind(),
                p.id,
                plan_segment(p.a, p.b),
            ));
        }
        for p in &self.removed {
            out.push(Primitive::new(
                "portal/removed",
                p.id,
                plan_segment(p.a, p.b),
            ));
        }
        let (lo, hi) = self.plan.bounds();
        let text = if self.enabled {
            format!(
                "{} portals kept, {} removed",
                self.kept.len(),
                self.removed.len()
            )
        } else {
            format!("portal removal off: {} portals", self.kept.len())
        };
        out.push(label(DVec2::new(lo.x, hi.y), text));
        out
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([("removed_portals".into(), self.removed.len() as f64)])
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        self.kept
            .iter()
            .chain(&self.removed)
            .find(|p| p.id == element)
            .map(|p| serde_json::to_value(p).unwrap_or_default())
            .unwrap_or_default()
    }
}
