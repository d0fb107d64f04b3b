//! The `voxelize` stage: every tile's solid spans and water.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Arc;

use navscope_core::level::ConvexVolume;
use navscope_core::{Artifact, Primitive, StageContext, StageError};
use serde::Serialize;

use crate::blocks::voxelize;
use crate::grid::Grid;
use crate::hazards::hazard_volumes;
use crate::heightfield::Heightfield;
use crate::settings::Settings;
use crate::tile_cache::{TileCache, TileKey, TileReuse, TileStage, map_missing_tiles, tile_keys};

use super::common::*;
use super::tiles::*;

/// Stage `voxelize`: each tile's spans.
#[derive(Debug, Serialize)]
pub struct VoxelArtifact {
    /// The grid.
    pub grid: Grid,
    /// One heightfield per tile.
    pub tiles: Vec<Arc<Heightfield>>,
    /// Tiles built and reused.
    pub reuse: TileReuse,
}

impl Artifact for VoxelArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        let spans: u64 = self.tiles.iter().map(|t| t.spans.len() as u64).sum();
        let wet: u64 = self
            .tiles
            .iter()
            .map(|t| t.spans.iter().filter(|s| !s.water.is_nan()).count() as u64)
            .sum();
        let mut m = BTreeMap::from([("spans".into(), spans), ("wet spans".into(), wet)]);
        self.reuse.add_counts(&mut m);
        m
    }
    fn primitives(&self) -> Vec<Primitive> {
        let g = &self.grid;
        let mut p = Prims::new();
        for (ti, hf) in self.tiles.iter().enumerate() {
            core_columns(
                hf,
                g,
                |s| Some((g.y(hf.spans[s].base) as f32, g.y(hf.spans[s].floor) as f32)),
                |_, shape| p.push(Primitive::new("voxel/solid", ti as u32, shape)),
            );
            core_columns(
                hf,
                g,
                |s| {
                    let sp = hf.spans[s];
                    (!sp.water.is_nan()).then(|| (g.y(sp.floor) as f32, sp.water))
                },
                |_, shape| p.push(Primitive::new("voxel/water", ti as u32, shape)),
            );
        }
        p.finish(top(g))
    }
}

pub(super) fn run_voxelize(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let level = mesh_of(ctx)?;
    let (t, s, keys, cache) = keyed(ctx, TileStage::Voxelize)?;
    let (tiles, reuse) = map_missing_tiles(cache, TileStage::Voxelize, &keys, |missing| {
        voxelize(&level.mesh, &t.layout, missing, s.water_level)
    })?;
    Ok(Arc::new(VoxelArtifact {
        grid: t.layout.grid,
        tiles,
        reuse,
    }))
}

/// The tiles of the `tiles` stage with their keys at `stage` under the
/// current settings, and the cache to use (none when `reuse_tiles` is off).
#[allow(clippy::type_complexity)]
pub(super) fn keyed<'c>(
    ctx: &'c StageContext,
    stage: TileStage,
) -> Result<
    (
        &'c TilesArtifact,
        Settings,
        Vec<TileKey>,
        Option<&'static TileCache>,
    ),
    StageError,
> {
    let t = ctx.artifact::<TilesArtifact>("tiles")?;
    let s = Settings::from_params(ctx.params)?;
    let mut keys = tile_keys(&t.layout, &s, stage);
    let volumes = volumes_of(ctx, &s)?;
    if stage >= TileStage::Compact && !volumes.is_empty() {
        // The areas the volumes mark feed every stage from `compact` on.
        let volumes = format!("{volumes:?}");
        let mut h = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(&volumes, &mut h);
        let v = std::hash::Hasher::finish(&h);
        for k in &mut keys {
            k.params ^= v;
        }
    }
    let cache = t.settings.reuse_tiles.then(TileCache::global);
    Ok((t, s, keys, cache))
}

/// The convex volumes that mark areas: the level's liquid hazards
/// ([`crate::hazards`]), then, when `convex_volumes` is on, its sidecar's
/// (later volumes win).
pub(super) fn volumes_of(
    ctx: &StageContext,
    s: &Settings,
) -> Result<Vec<ConvexVolume>, StageError> {
    let level = mesh_of(ctx)?;
    let step = s
        .passes
        .iter()
        .find(|p| p.stance == navscope_core::Stance::Stand)
        .map_or(0.0, |p| p.agent.max_step);
    let mut v = hazard_volumes(&level.movers, step);
    if s.convex_volumes {
        v.extend(level.volumes.iter().cloned());
    }
    Ok(v)
}

/// Each tile's voxel spans: about what a per-tile stage after `voxelize`
/// costs on it, so [`map_tiles`] can start the largest tiles first.
pub(super) fn span_costs(ctx: &StageContext) -> Result<Vec<u64>, StageError> {
    let v = ctx.artifact::<VoxelArtifact>("voxelize")?;
    Ok(v.tiles.iter().map(|t| t.spans.len() as u64).collect())
}
