//! The `tiles` stage: the grid and its tiles.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use glam::Vec3;
use navscope_core::{Artifact, Primitive, Shape, StageContext, StageError};
use serde::Serialize;

use crate::settings::Settings;
use crate::tiles::{Layout, layout};

use super::common::*;

/// Stage `tiles`: the grid and the tiles with their inputs.
#[derive(Debug, Serialize)]
pub struct TilesArtifact {
    /// Settings as read.
    pub settings: Settings,
    /// The layout.
    pub layout: Layout,
}

impl Artifact for TilesArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let g = &self.layout.grid;
        BTreeMap::from([
            ("tiles".into(), self.layout.tiles.len() as u64),
            ("columns".into(), g.width as u64 * g.depth as u64),
            (
                "degenerate triangles".into(),
                self.layout.degenerate_triangles as u64,
            ),
            (
                "tile triangles".into(),
                self.layout
                    .tiles
                    .iter()
                    .map(|t| t.triangles.len() as u64)
                    .sum(),
            ),
        ])
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.layout.grid;
        let mut p = Prims::new();
        for t in &self.layout.tiles {
            let r = t.rect;
            let (y0, y1) = (g.origin.y as f32, g.origin.y as f32 + 0.05);
            p.push(Primitive::new(
                "tile",
                t.index as u32,
                Shape::Box {
                    min: Vec3::new(g.x(r.x0) as f32, y0, g.z(r.z0) as f32),
                    max: Vec3::new(g.x(r.x1) as f32, y1, g.z(r.z1) as f32),
                },
            ));
            let (a, b, c, d) = r.padded();
            let ring = [(a, b), (c, b), (c, d), (a, d)]
                .map(|(x, z)| Vec3::new(g.x(x) as f32, y0, g.z(z) as f32))
                .to_vec();
            p.push(Primitive::new(
                "tile/overlap",
                t.index as u32,
                Shape::Polyline {
                    points: ring,
                    closed: true,
                },
            ));
        }
        p.finish(top(g))
    }
}

pub(super) fn run_tiles(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = mesh_of(ctx)?;
    let settings = Settings::from_params(ctx.params)?;
    let layout = layout(&level.mesh, &level.water, &settings)?;
    crate::tiles::check_budget(&level.mesh, &layout, settings.passes.len(), ctx.budget)?;
    Ok(Arc::new(TilesArtifact { settings, layout }))
}
