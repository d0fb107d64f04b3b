//! The `graph` stage: the NavMesh.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use glam::Vec3;
use navscope_core::{Artifact, NavMesh, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::compact::DEFAULT_AREA;
use crate::graph::{Graph, TileParts, build_graph};
use crate::settings::Settings;

use super::common::*;
use super::compact::*;
use super::contours::*;
use super::detail::*;
use super::polymesh::*;
use super::triangulate::*;
use super::voxelize::*;

/// Stage `graph`: the NavMesh.
#[derive(Debug, Serialize)]
pub struct GraphArtifact {
    /// The graph.
    pub graph: Graph,
}

impl Artifact for GraphArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::from([
            ("nodes".to_string(), self.graph.navmesh.nodes.len() as u64),
            ("links".to_string(), self.graph.navmesh.links.len() as u64),
        ]);
        for c in &self.graph.link_class {
            *m.entry(format!("{} links", c.kind())).or_insert(0) += 1;
        }
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let nav = &self.graph.navmesh;
        let mut p = Prims::new();
        for n in &nav.nodes {
            p.push(Primitive::new(
                format!("node/{}", n.stance.name()),
                n.id,
                Shape::Point(n.position.as_vec3()),
            ));
        }
        for (i, (l, c)) in nav.links.iter().zip(&self.graph.link_class).enumerate() {
            if l.from < l.to {
                let (a, b) = (
                    nav.nodes[l.from as usize].position.as_vec3(),
                    nav.nodes[l.to as usize].position.as_vec3(),
                );
                p.push(Primitive::new(c.kind(), i as u32, Shape::Segment(a, b)));
            }
        }
        p.finish(
            nav.nodes
                .first()
                .map_or(Vec3::ZERO, |n| n.position.as_vec3()),
        )
    }
    fn metrics(&self) -> BTreeMap<String, f64> {
        let mut m = BTreeMap::new();
        for n in &self.graph.navmesh.nodes {
            if let Some(p) = &n.polygon {
                let a = (0..p.len())
                    .map(|i| {
                        let (u, v) = (p[i], p[(i + 1) % p.len()]);
                        u.x * v.z - v.x * u.z
                    })
                    .sum::<f64>()
                    .abs()
                    / 2.0;
                *m.entry(format!("area {} m2", n.stance.name()))
                    .or_insert(0.0) += a;
            }
        }
        m
    }
    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.graph.navmesh)
    }
}

pub(super) fn run_graph(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let r = ctx.artifact::<ContourArtifact>("contours")?;
    let t = ctx.artifact::<TriangulateArtifact>("triangulate")?;
    let p = ctx.artifact::<PolyMeshArtifact>("polymesh")?;
    let d = ctx.artifact::<DetailArtifact>("detail")?;
    let parts: Vec<TileParts> = (0..r.tiles.len())
        .map(|i| TileParts {
            regions: r.tiles[i].as_slice(),
            meshes: t.tiles[i].as_slice(),
            polys: p.tiles[i].as_slice(),
            detail: d.tiles[i].as_slice(),
        })
        .collect();
    let settings = Settings::from_params(ctx.params)?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let c = ctx.artifact::<CompactArtifact>("compact")?;
    let mut graph = build_graph(&r.grid, &settings, &parts, &v.tiles);
    // Each node takes its region's area (Recast's polygon area) and the
    // NavMesh carries the costs the search applies.
    for (n, &(ti, ri)) in graph.navmesh.nodes.iter_mut().zip(&graph.node_region) {
        let area = r.tiles[ti as usize][ri as usize].area;
        if area != DEFAULT_AREA {
            n.area = c.areas.name(area).to_string().into();
        }
    }
    graph.navmesh.area_costs = c.areas.costs.clone();
    Ok(Arc::new(GraphArtifact { graph }))
}
