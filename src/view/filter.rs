//! Applying the view filter: published stages are prepared again on a
//! worker thread when the slice or the colouring changes; the old drawing
//! stays until the new one is ready, so moving a slider never stalls a
//! frame.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};

use crate::model::band::{PrepareOptions, ViewFilter};
use crate::model::elements::StageGeometry;
use crate::model::group::Prepared;
use crate::view::eviction::{Evicted, Restoring};

/// Keeps the view filter and re-prepares published stages when it changes
/// (no renderer needed).
pub struct FilterPlugin;

impl Plugin for FilterPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ViewFilter>().add_systems(
            PostUpdate,
            (refilter, take_refiltered).chain().in_set(RefilterSystems),
        );
    }
}

/// The systems that re-prepare stages for a changed filter (drawing runs
/// after them).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct RefilterSystems;

/// Stages that hold their primitives: an evicted one is prepared again
/// once it is back ([`crate::view::residency`]).
type NotEvicted = (Without<Evicted>, Without<Restoring>);

/// A stage being prepared again under `options`.
#[derive(Component)]
pub struct Refiltering {
    options: PrepareOptions,
    task: Task<Prepared>,
}

/// Starts preparing again every published stage whose geometry was made
/// under other options than the filter's and is not already being prepared
/// under them (a build started before the change finishes with the old
/// options and is caught here too). A newer change replaces an older task.
pub fn refilter(
    mut commands: Commands,
    filter: Res<ViewFilter>,
    roots: Query<(Entity, &StageGeometry, Option<&Refiltering>), NotEvicted>,
) {
    for (e, geo, pending) in &roots {
        let wanted = filter.prepare;
        if geo.options == wanted || pending.is_some_and(|p| p.options == wanted) {
            continue;
        }
        let (primitives, unit, substeps) = (geo.primitives.clone(), geo.unit, geo.substeps.len());
        let task = AsyncComputeTaskPool::get().spawn(async move {
            crate::model::prepare::prepare_for_drawing(&primitives, unit, &wanted, substeps)
        });
        commands.entity(e).insert(Refiltering {
            options: wanted,
            task,
        });
    }
}

/// Puts the stages prepared again in place of their old drawing.
fn take_refiltered(
    mut commands: Commands,
    mut roots: Query<(Entity, &mut StageGeometry, &mut Refiltering)>,
) {
    for (e, mut geo, mut pending) in &mut roots {
        if let Some(prepared) = block_on(poll_once(&mut pending.task)) {
            geo.prepared = prepared;
            geo.options = pending.options;
            commands.entity(e).remove::<Refiltering>();
        }
    }
}
