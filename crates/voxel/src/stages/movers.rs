//! The `movers` stage: the links of a brush level's movers.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use glam::Vec3;
use navscope_core::{Artifact, LinkKind, NavMesh, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::movers::{Reach, add_mover_links};
use crate::settings::Settings;

use super::common::*;
use super::graph::*;

/// Stage `movers`: the graph's NavMesh with the level's door, elevator,
/// teleport and jump links ([`crate::movers`]); it draws the nodes and
/// the mover links. Stage `drops` makes one too, with its drop links
/// ([`crate::drops`]) and nothing skipped.
#[derive(Debug, Serialize)]
pub struct MoverArtifact {
    /// The NavMesh with the mover links.
    pub navmesh: NavMesh,
    /// Indices into its links of the mover links.
    pub links: Vec<usize>,
    /// The movers left out, with why.
    pub skipped: Vec<String>,
}

impl Artifact for MoverArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::from([
            ("nodes".to_string(), self.navmesh.nodes.len() as u64),
            ("links".to_string(), self.navmesh.links.len() as u64),
            ("skipped movers".to_string(), self.skipped.len() as u64),
        ]);
        for &i in &self.links {
            *m.entry(format!("{} links", self.navmesh.links[i].kind.name()))
                .or_insert(0) += 1;
        }
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let mut p = Prims::new();
        for n in &self.navmesh.nodes {
            p.push(Primitive::new(
                format!("node/{}", n.stance.name()),
                n.id,
                Shape::Point(n.position.as_vec3()),
            ));
        }
        for &i in &self.links {
            let l = &self.navmesh.links[i];
            let (a, b) = match l.segment() {
                Some([a, b]) if l.kind != LinkKind::Door => (a, b),
                _ => (
                    self.navmesh.nodes[l.from as usize].position,
                    self.navmesh.nodes[l.to as usize].position,
                ),
            };
            p.push(Primitive::new(
                format!("link/{}", l.kind.name()),
                i as u32,
                Shape::Segment(a.as_vec3(), b.as_vec3()),
            ));
        }
        p.finish(
            self.navmesh
                .nodes
                .first()
                .map_or(Vec3::ZERO, |n| n.position.as_vec3()),
        )
    }
    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.navmesh)
    }
}

pub(super) fn run_movers(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let g = ctx.artifact::<GraphArtifact>("graph")?;
    let level = mesh_of(ctx)?;
    let s = Settings::from_params(ctx.params)?;
    let agent = s
        .passes
        .first()
        .ok_or_else(|| StageError::failed("no pass is enabled"))?
        .agent;
    let reach = Reach {
        tolerance: agent.radius + 2.0 * s.cell_size,
        radius: agent.radius,
        height: agent.height,
        step: agent.max_step,
        jump: navscope_core::jump::Reach::from_params(ctx.params, f64::INFINITY, agent.max_step),
        fall: navscope_core::jump::Fall::from_params(ctx.params),
    };
    let mut navmesh = g.graph.navmesh.clone();
    let got = add_mover_links(&mut navmesh, &level.movers, reach);
    Ok(Arc::new(MoverArtifact {
        navmesh,
        links: got.links,
        skipped: got.skipped,
    }))
}
