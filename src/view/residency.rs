//! Only the shown stages keep what picking, inspection and voxel meshing
//! read; a big stage out of sight lets it go and makes it again from its
//! artifact when it shows.
//!
//! A published stage keeps its drawing's assets (a gizmo, fill meshes),
//! which are small beside three things that grow with every element: its
//! primitives ([`StageGeometry::primitives`], about 100 bytes each, a
//! packed voxel column 20), their picking index ([`ElementIndex`], about
//! 20 bytes each) and, for a voxel stage, its cubes as boxes
//! ([`VoxelCubes`], 40 bytes each). On
//! `dungeon.obj` at 0.1 m cells four voxel stages hold about two million
//! columns, so those three were most of the app's memory, while the build
//! itself (what the command line keeps) holds the same stages' artifacts
//! in a fraction of it. All three are made from the stage's artifact, which
//! the finished build keeps anyway ([`Build::runner`]).
//!
//! So a stage that has been out of sight for [`Residency::after`] and has
//! at least [`Residency::min_primitives`] primitives is *evicted* once no
//! build is running (not in the frames that publish): the
//! three go, the rest of its drawing stays (but for voxel tiles kept in
//! place of boxes, below), and it is marked [`Evicted`].
//! When the timeline shows it again, a task on the async compute pool
//! makes them again from the artifact ([`Restored::make`]) and they are put
//! back ([`take_restored`]); its voxels are meshed as soon as their boxes
//! are back, and picking finds its elements again. A stage that can be
//! evicted does not keep its voxel boxes even while shown: once a group
//! is meshed they go ([`let_meshed_boxes_go`]), its tiles stay while it is
//! hidden, and eviction takes the tiles instead. Small stages (every
//! sample level) are never evicted, and scrubbing back and forth within
//! the delay touches nothing. A stage being prepared again for the view
//! filter is left alone until it is done, and an evicted one is prepared
//! again once it is back (see [`crate::view::filter`]).

use std::time::{Duration, Instant};

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};

use crate::build::Build;
use crate::model::elements::{DrawGroup, StageGeometry, StageRoot};
use crate::model::index::ElementIndex;
use crate::model::timeline::Timeline;
use crate::view::eviction::{Evicted, Restored, Restoring};
use crate::view::filter::Refiltering;
use crate::view::voxel_meshing::{BoxesInTiles, Meshed, VoxelCubes};

/// When a hidden stage is evicted.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Residency {
    /// How long a stage stays out of sight before it is evicted: a person
    /// scrubbing back and forth keeps what they just saw.
    pub after: Duration,
    /// Stages with fewer primitives are never evicted: what they hold is
    /// small, and they come back without a frame's delay.
    pub min_primitives: usize,
}

impl Default for Residency {
    fn default() -> Self {
        Self {
            after: Duration::from_secs(2),
            min_primitives: 50_000,
        }
    }
}

impl Residency {
    /// Whether a stage of `geo`'s size is evicted when out of sight (and
    /// so also lets its shown voxel boxes go once meshed).
    pub fn evicts(&self, geo: &StageGeometry) -> bool {
        geo.primitives.len() >= self.min_primitives
    }
}

/// A stage out of sight since the instant it holds.
#[derive(Component, Debug, Clone, Copy)]
pub struct HiddenSince(pub Instant);

/// How many stages are being made again, for the view's note that a
/// stage shown again is getting its voxels and elements back.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RestoringStages(pub usize);

/// Evicts and restores stages, and lets a big stage's voxel boxes go once
/// meshed (part of [`crate::view::draw::DrawPlugin`]).
pub fn systems() -> impl IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, ()> {
    (
        let_meshed_boxes_go,
        note_hidden,
        evict_hidden,
        restore_shown,
        take_restored,
    )
        .chain()
}

/// Lets the boxes of each newly meshed voxel group of a stage that can be
/// evicted go (its tiles hold the same voxels) and marks it
/// [`BoxesInTiles`] (see [`crate::view::voxel_meshing`]). A small stage,
/// never evicted, keeps them to mesh again whenever it shows.
pub fn let_meshed_boxes_go(
    mut commands: Commands,
    residency: Res<Residency>,
    roots: Query<&StageGeometry>,
    mut meshed: Query<(Entity, &ChildOf, &mut VoxelCubes), Added<Meshed>>,
) {
    let mut boxes = Vec::new();
    for (group, parent, mut cubes) in &mut meshed {
        let big = roots
            .get(parent.parent())
            .is_ok_and(|geo| residency.evicts(geo));
        if big && !cubes.0.is_empty() {
            boxes.push(std::mem::take(&mut cubes.0));
            commands.entity(group).insert(BoxesInTiles);
        }
    }
    if !boxes.is_empty() {
        crate::discard::discard_and_trim(boxes);
    }
}

/// Stamps the stages that just went out of sight, and clears the stamp of
/// those shown.
pub fn note_hidden(
    mut commands: Commands,
    timeline: Res<Timeline>,
    roots: Query<(Entity, &StageRoot, Has<HiddenSince>)>,
) {
    for (e, root, stamped) in &roots {
        let shown = timeline.shows_stage(root.stage);
        if shown && stamped {
            commands.entity(e).remove::<HiddenSince>();
        } else if !shown && !stamped {
            commands.entity(e).insert(HiddenSince(Instant::now()));
        }
    }
}

/// A stage out of sight: what eviction takes and when it went.
type Evictable<'a> = (
    Entity,
    &'a mut StageGeometry,
    &'a mut ElementIndex,
    &'a HiddenSince,
);

/// Stages that may be evicted: not already, not restoring, not being
/// prepared again.
type Resident = (Without<Evicted>, Without<Restoring>, Without<Refiltering>);

/// Voxel groups, shown or hidden.
type VoxelGroups = (With<VoxelCubes>, Allow<Disabled>);

/// Evicted stages not yet restoring.
type EvictedIdle = (With<Evicted>, Without<Restoring>);

/// Lets the heavy parts of stages out of sight go, while no build runs:
/// the frames that publish a build's stages keep the main thread and the
/// allocator to themselves.
pub fn evict_hidden(
    mut commands: Commands,
    residency: Res<Residency>,
    build: Res<Build>,
    mut roots: Query<Evictable, Resident>,
    mut voxels: Query<(Entity, &ChildOf, &mut VoxelCubes), Allow<Disabled>>,
) {
    if build.is_busy() {
        return;
    }
    let mut evicted = Vec::new();
    for (e, mut geo, mut index, since) in &mut roots {
        if since.0.elapsed() < residency.after || !residency.evicts(&geo) {
            continue;
        }
        // Not a change of what the stage draws: its drawing stays, but
        // for the voxel tiles kept in place of boxes let go.
        let primitives = std::mem::take(&mut geo.bypass_change_detection().primitives);
        let mut cubes = Vec::new();
        for (group, _, mut c) in voxels.iter_mut().filter(|(_, p, _)| p.parent() == e) {
            cubes.push(std::mem::take(&mut c.0));
            commands
                .entity(group)
                .despawn_related::<Children>()
                .remove::<(Meshed, BoxesInTiles)>();
        }
        evicted.push((primitives, std::mem::take(&mut *index), cubes));
        commands.entity(e).insert(Evicted);
    }
    if !evicted.is_empty() {
        crate::discard::discard_and_trim(evicted);
    }
}

/// Starts making again what a shown evicted stage let go.
pub fn restore_shown(
    mut commands: Commands,
    build: Res<Build>,
    timeline: Res<Timeline>,
    roots: Query<(Entity, &StageRoot, &StageGeometry), EvictedIdle>,
    voxels: Query<&ChildOf, VoxelGroups>,
) {
    for (e, root, geo) in &roots {
        if !timeline.shows_stage(root.stage) {
            continue;
        }
        // The finished build is the one the published stages come from.
        let Some(Ok(artifact)) = build
            .runner()
            .and_then(|r| r.result(root.stage))
            .map(|r| r.outcome.clone())
        else {
            continue;
        };
        let has_voxels = voxels.iter().any(|p| p.parent() == e);
        let (unit, options) = (geo.unit, geo.options);
        let task = AsyncComputeTaskPool::get()
            .spawn(async move { Restored::make(&*artifact, unit, &options, has_voxels) });
        commands.entity(e).insert(Restoring(task));
    }
}

/// Puts back what a finished restoring task made.
pub fn take_restored(
    mut commands: Commands,
    mut roots: Query<(Entity, &mut StageGeometry, &mut Restoring)>,
    mut voxels: Query<(&DrawGroup, &ChildOf, &mut VoxelCubes), Allow<Disabled>>,
    mut pending: ResMut<RestoringStages>,
) {
    let mut still = 0;
    for (e, mut geo, mut task) in &mut roots {
        let Some(mut restored) = check_ready(&mut task.0) else {
            still += 1;
            continue;
        };
        geo.bypass_change_detection().primitives = restored.primitives;
        for (g, parent, mut cubes) in &mut voxels {
            if parent.parent() != e {
                continue;
            }
            let key = (g.kind.clone(), g.first, g.last, g.layer);
            if let Some(back) = restored.cubes.remove(&key) {
                cubes.0 = back;
            }
        }
        commands
            .entity(e)
            .insert(restored.index)
            .remove::<(Evicted, Restoring)>();
    }
    pending.set_if_neq(RestoringStages(still));
}
