//! The `drops` stage: one-way jump links off ledges and across gaps, and
//! swims through the water in three dimensions ([`crate::swim_through`]).

use std::sync::Arc;

use navscope_core::jump::{Fall, Reach};
use navscope_core::navmesh::Stance;
use navscope_core::{Artifact, StageContext, StageError};

use crate::hazards::{LAVA_COST, SLIME_COST, hazard_volumes, price_hazards};
use crate::settings::Settings;
use crate::{drops, swim_through};

use super::common::*;
use super::movers::*;
use super::voxelize::*;

/// Runs the stage on the `movers` stage's NavMesh.
pub(super) fn run_drops(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let m = ctx.artifact::<MoverArtifact>("movers")?;
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    let s = Settings::from_params(ctx.params)?;
    let max_drop = ctx.params.float(crate::settings::MAX_DROP);
    let voxels = drops::Voxels {
        grid: &v.grid,
        tiles: &v.tiles,
        max_error: s.max_error,
    };
    let agent = |st: Stance| s.passes.iter().find(|p| p.stance == st).map(|p| p.agent);
    let jump = Reach::from_params(
        ctx.params,
        max_drop,
        agent(Stance::Stand).map_or(0.0, |a| a.max_step),
    );
    let drops = drops::find_drops(&m.navmesh, agent, &voxels, max_drop, jump);
    let mut navmesh = m.navmesh.clone();
    let fall = Fall::from_params(ctx.params);
    // A landing in water does not hurt (QuakeC's `PlayerPostThink` deals
    // its landing damage only out of water).
    let wet = |n: u32| m.navmesh.nodes[n as usize].stance == Stance::Swim;
    let mut links = drops::add_drop_links(&mut navmesh, &drops, |d| {
        let across = (d.bottom - d.top).with_y(0.0).length();
        if wet(d.to) {
            0.0
        } else {
            fall.cost(&jump, across, d.top.y - d.bottom.y)
        }
    });
    let level = mesh_of(ctx)?;
    if let Some(swimmer) = agent(Stance::Swim) {
        let step = agent(Stance::Stand).map_or(swimmer.max_step, |a| a.max_step);
        let swims = swim_through::find_swims(&m.navmesh, &level.water, &voxels, &swimmer, step);
        links.extend(swim_through::add_swim_links(&mut navmesh, &swims));
    }
    if !hazard_volumes(&level.movers, 0.0).is_empty() {
        let costs = [
            ("slime", ctx.params.float(SLIME_COST)),
            ("lava", ctx.params.float(LAVA_COST)),
        ];
        price_hazards(&mut navmesh, &costs, &mut links);
    }
    Ok(Arc::new(MoverArtifact {
        navmesh,
        links,
        skipped: Vec::new(),
    }))
}
