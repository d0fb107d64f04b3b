//! What an evicted stage is marked with and what it gets back: the
//! components [`crate::view::residency`] puts on a stage's root while its
//! heavy parts are let go ([`Evicted`]) and while they are made again
//! ([`Restoring`]), which the view filter reads too
//! ([`crate::view::filter`]: an evicted stage is prepared again once it is
//! back).

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::Task;
use navscope_core::stage::Artifact;

use crate::model::band::PrepareOptions;
use crate::model::elements::stage_primitives;
use crate::model::index::ElementIndex;
use crate::model::prepare::groups;
use crate::model::stage_primitives::StagePrimitives;
use crate::model::voxel_mesh::Cube;

/// A stage whose primitives, index and voxel boxes were let go.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct Evicted;

/// What an evicted stage gets back, made off the main thread.
pub struct Restored {
    /// Its primitives.
    pub primitives: Arc<StagePrimitives>,
    /// Their index.
    pub index: ElementIndex,
    /// Its voxel groups' boxes, by the groups' kind, sub-step range and
    /// layer (as [`crate::model::elements::DrawGroup`] names them).
    pub cubes: BTreeMap<GroupKey, Arc<Vec<Cube>>>,
}

/// A group's kind, first and last sub-step and layer.
pub type GroupKey = (String, u32, u32, Option<u32>);

impl Restored {
    /// Makes them from the stage's `artifact`, prepared as the stage's
    /// drawing was (under `options`, for a level of size `unit`); the
    /// voxel boxes only when the stage has `voxels`.
    pub fn make(
        artifact: &dyn Artifact,
        unit: f32,
        options: &PrepareOptions,
        voxels: bool,
    ) -> Self {
        let primitives = stage_primitives(artifact);
        // The drawing's groups come from `prepare_for_drawing`, which also
        // batches sub-step ranges; it leaves every voxel group as
        // `groups` made it, so the keys match.
        let cubes = if voxels {
            groups(primitives.iter(), unit, options)
                .into_iter()
                .filter(|g| !g.cubes.is_empty())
                .map(|mut g| {
                    g.cubes.shrink_to_fit();
                    ((g.kind, g.first, g.last, g.layer), Arc::new(g.cubes))
                })
                .collect()
        } else {
            BTreeMap::new()
        };
        Self {
            index: ElementIndex::new(primitives.clone()),
            primitives,
            cubes,
        }
    }
}

/// The task making a stage's [`Restored`].
#[derive(Component)]
pub struct Restoring(pub Task<Restored>);
