//! Stage 2, `portals` (Oliva & Pelechano §3.2): split every notch with a
//! portal to the closest element inside its area of interest, one notch
//! per sub-step, removing portals that become unnecessary on the way
//! (§3.2.3, parameter `portal_removal`).

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::DVec2;
use navscope_core::draw::{Primitive, Shape, SubStep};
use navscope_core::geom::PolygonWithHoles;
use navscope_core::{Artifact, StageContext, StageError};
use serde::Serialize;

use crate::cone::How;
use crate::decompose::{CandKind, Candidate, Decomposition, Fate, PortalKind, Step, decompose};
use crate::notches::{NotchesArtifact, rings};
use crate::show::{label, plan_point, plan_polygon, plan_segment, ring_outline};

/// The artifact of the `portals` stage.
#[derive(Clone, Debug, Serialize)]
pub struct PortalsArtifact {
    /// The plan decomposed.
    pub plan: PolygonWithHoles,
    /// Whether portal removal was on.
    pub removal: bool,
    /// Strict notch count `r`.
    pub strict_notches: u32,
    /// Notches in the list (tau-notches).
    pub notches: u32,
    /// Everything the loop built.
    pub result: Decomposition,
    /// The notch list, to show the notches a step drops.
    #[serde(skip)]
    pub notch_list: Vec<crate::notches::Notch>,
}

/// The stage function.
pub fn run(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let n = ctx.artifact::<NotchesArtifact>("notches")?;
    let removal = ctx.params.bool("portal_removal");
    let result = decompose(&rings(&n.plan), &n.notches, n.tau_deg.to_radians(), removal)?;
    Ok(Arc::new(PortalsArtifact {
        plan: n.plan.clone(),
        removal,
        strict_notches: n.strict_notches,
        notches: n.notches.len() as u32,
        result,
        notch_list: n.notches.clone(),
    }))
}

impl PortalsArtifact {
    /// The plan's diagonal, which sizes a step's area of interest.
    fn diagonal(&self) -> f64 {
        let (lo, hi) = self.plan.bounds();
        (hi - lo).length()
    }

    /// Sub-step `i`: the notch processed, its area of interest, the
    /// candidates, the notches dropped and the portals made and removed.
    fn step(&self, i: usize, diag: f64) -> Option<SubStep> {
        let st = self.result.steps.get(i)?;
        let (title, detail) = self.step_text(i, st);
        let reach = st
            .candidates
            .first()
            .map_or(diag / 12.0, |c| c.distance * 1.25)
            .max(diag / 100.0);
        let mut h = vec![
            Primitive::new(
                "area-of-interest",
                i as u32,
                plan_polygon(&st.cone.triangle(reach)),
            ),
            Primitive::new(
                "notch/current",
                st.vertex,
                Shape::Point(plan_point(st.position)),
            ),
        ];
        // Farthest first, so the closest is drawn on top.
        h.extend(
            st.candidates
                .iter()
                .enumerate()
                .rev()
                .flat_map(|(k, c)| candidate_primitives(k, c)),
        );
        // Waiting notches the new portal splits too leave the list.
        for n in self
            .notch_list
            .iter()
            .filter(|n| st.dropped.contains(&n.vertex))
        {
            h.push(Primitive::new(
                "area-of-interest/dropped",
                n.vertex,
                plan_polygon(&n.cone.triangle(reach)),
            ));
            h.push(Primitive::new(
                "notch/dropped",
                n.vertex,
                Shape::Point(plan_point(n.position)),
            ));
        }
        for &id in &st.created {
            let p = &self.result.portals[id as usize];
            h.push(Primitive::new("chosen", id, plan_segment(p.a, p.b)));
        }
        for &id in &st.removed {
            let p = &self.result.portals[id as usize];
            h.push(Primitive::new("portal/removed", id, plan_segment(p.a, p.b)));
        }
        Some(SubStep {
            title,
            detail,
            highlights: h,
        })
    }

    /// Portals that are part of the final decomposition.
    pub fn kept(&self) -> impl Iterator<Item = (u32, &crate::decompose::Portal)> {
        self.result
            .portals
            .iter()
            .enumerate()
            .filter(|(_, p)| p.fate == Fate::Kept)
            .map(|(i, p)| (i as u32, p))
    }

    fn step_text(&self, i: usize, st: &Step) -> (String, String) {
        let p = st.position;
        let at = format!("({:.2}, {:.2})", p.x, -p.y);
        let title = if st.island {
            format!("island corner at {at}")
        } else {
            format!("notch {} of {} at {at}", i + 1, self.notches)
        };
        if let Some(by) = st.already_split_by {
            return (
                title,
                format!(
                    "Nothing to do: portal {by} already ends here inside this notch's area of interest, so both of its angles are already convex (§3.2.1)."
                ),
            );
        }
        let mut d = String::new();
        if st.island {
            d.push_str("These holes are joined to nothing else (or by a single portal), so the cell around them would not be a simple polygon. Their most reflex corner is split with the strict (tau = 0) area of interest. ");
        }
        if let Some(c) = st.candidates.first() {
            let what = match c.kind {
                CandKind::Vertex { vertex } => format!("vertex {vertex}"),
                CandKind::Edge { .. } => "a boundary edge".to_string(),
                CandKind::Portal { id, .. } => format!("portal {id}"),
            };
            let how = match c.how {
                Some(How::Projection) => " (the notch's projection onto it)",
                Some(How::Ql) => " (where the prolonged incoming edge meets it, q_l)",
                Some(How::Qr) => " (where the prolonged outgoing edge meets it, q_r)",
                None => "",
            };
            d.push_str(&format!(
                "The closest element inside the area of interest is {what}, {:.2} m away{how}. ",
                c.distance
            ));
        }
        if let Some(k) = st.cut {
            d.push_str(&format!("Neither end of portal {k} could be used, so it is cut in two where the new portal meets it. "));
        }
        let kinds: Vec<String> = st
            .created
            .iter()
            .map(|&id| {
                format!(
                    "portal {id} ({})",
                    self.result.portals[id as usize].kind.name()
                )
            })
            .collect();
        d.push_str(&format!("Created {}.", kinds.join(" and ")));
        if !st.dropped.is_empty() {
            let v: Vec<String> = st.dropped.iter().map(|x| x.to_string()).collect();
            d.push_str(&format!(
                " It also splits the waiting notch at vertex {}, which leaves the list.",
                v.join(", ")
            ));
        }
        if !st.removed.is_empty() {
            let v: Vec<String> = st.removed.iter().map(|x| x.to_string()).collect();
            d.push_str(&format!(
                " Removed portal {}: the angles at its ends stay convex without it (§3.2.3).",
                v.join(", ")
            ));
        }
        (title, d)
    }
}

/// A candidate: a vertex as a point; an edge or a portal as its segment
/// and the candidate point §3.2.2 takes on it (`candidate/point/...`:
/// `projection`, `q_l`, `q_r`, or `endpoint`; element: rank).
fn candidate_primitives(rank: usize, c: &Candidate) -> Vec<Primitive> {
    let seg = match c.kind {
        CandKind::Vertex { vertex } => {
            return vec![Primitive::new(
                "candidate/vertex",
                vertex,
                Shape::Point(plan_point(c.point)),
            )];
        }
        CandKind::Edge { a, b } => Primitive::new("candidate/edge", 0, plan_segment(a, b)),
        CandKind::Portal { id, a, b } => Primitive::new("candidate/portal", id, plan_segment(a, b)),
    };
    let how = match c.how {
        Some(How::Projection) => "candidate/point/projection",
        Some(How::Ql) => "candidate/point/q_l",
        Some(How::Qr) => "candidate/point/q_r",
        None => "candidate/point/endpoint",
    };
    vec![
        seg,
        Primitive::new(how, rank as u32, Shape::Point(plan_point(c.point))),
    ]
}

impl Artifact for PortalsArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut c = BTreeMap::from([
            ("steps".into(), self.result.steps.len() as u64),
            ("portals created".into(), self.result.portals.len() as u64),
            ("portals kept".into(), self.kept().count() as u64),
            (
                "portals removed".into(),
                self.result
                    .portals
                    .iter()
                    .filter(|p| matches!(p.fate, Fate::Removed { .. }))
                    .count() as u64,
            ),
        ]);
        for k in PortalKind::ALL {
            c.insert(
                k.name().into(),
                self.kept().filter(|(_, p)| p.kind == k).count() as u64,
            );
        }
        c
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = ring_outline(&self.plan);
        for (i, p) in self.result.portals.iter().enumerate() {
            let shape = plan_segment(p.a, p.b);
            let prim = Primitive::new(p.kind.draw_kind(), i as u32, shape.clone());
            match p.fate {
                Fate::Kept => out.push(prim.during(p.step, u32::MAX)),
                Fate::Removed { step } => {
                    if step > p.step {
                        out.push(prim.during(p.step, step - 1));
                    }
                    out.push(
                        Primitive::new("portal/removed", i as u32, shape).during(step, u32::MAX),
                    );
                }
                Fate::Split { step, .. } if step > p.step => {
                    out.push(prim.during(p.step, step - 1))
                }
                Fate::Split { .. } => {}
            }
        }
        let (lo, hi) = self.plan.bounds();
        out.push(label(
            DVec2::new(lo.x, hi.y),
            format!(
                "{} portals kept of {} created",
                self.kept().count(),
                self.result.portals.len()
            ),
        ));
        out
    }

    fn substeps(&self) -> Vec<SubStep> {
        let diag = self.diagonal();
        (0..self.result.steps.len())
            .filter_map(|i| self.step(i, diag))
            .collect()
    }

    fn substep(&self, i: usize) -> Option<SubStep> {
        self.step(i, self.diagonal())
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        self.result
            .portals
            .get(element as usize)
            .map(|p| serde_json::to_value(p).unwrap_or_default())
            .unwrap_or_default()
    }
}
