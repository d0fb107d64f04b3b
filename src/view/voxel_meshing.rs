//! Voxel meshes exist only while their group shows.
//!
//! A voxel stage of a big level holds hundreds of thousands of cubes, and a
//! voxel pipeline has four such stages (voxelize, compact, flag,
//! partition), several with a group per pass. Meshed, a cube is 168 bytes
//! of vertices and indices plus its share of the coarse mesh, held by the
//! renderer as vertex buffers (in the process's own memory under a software
//! renderer) and, in a build without one, by the asset store: on
//! `dungeon.obj` at 0.1 m cells, 189 MB for every voxel stage at once.
//!
//! So a voxel group keeps its cubes as boxes ([`VoxelCubes`], 40 bytes a
//! cube) and is meshed when it is shown: [`start_meshing`] hands the boxes
//! to a task on the async compute pool (off the main thread, like the
//! stage's other preparation), [`finish_meshing`] spawns the tiles when the
//! task is done, and [`release_hidden`] despawns a hidden group's tiles
//! (their meshes go with them) and drops a task in flight. Only the shown
//! stages' voxels are meshed; showing one again meshes it again.
//!
//! A big stage, one that [`crate::view::residency`] evicts when out of
//! sight, does not even keep its boxes once meshed: its tiles hold the
//! same voxels, and on `dungeon.obj` at 0.1 m cells the shown flag stage's
//! boxes were 24 MB beside them. Residency lets them go and marks the
//! group [`BoxesInTiles`]; such a group keeps its tiles while hidden, so
//! scrubbing back to it within the eviction delay shows it at once, and
//! eviction takes the tiles with the rest; restoring makes the boxes
//! again, which are meshed and let go again.

use std::sync::Arc;

use bevy::ecs::entity_disabling::Disabled;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

use crate::model::voxel_mesh::{Cube, VoxelTile, tiles};
use crate::view::cubes::{CubeAssets, VoxelDetail};

/// A voxel group's cubes as boxes, from which its tiles are meshed while
/// it shows.
#[derive(Component, Debug, Clone)]
pub struct VoxelCubes(pub Arc<Vec<Cube>>);

/// The meshing of a shown voxel group, in flight.
#[derive(Component)]
pub struct Meshing(Task<Vec<VoxelTile>>);

/// A voxel group whose tiles are spawned (its children).
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct Meshed;

/// A meshed voxel group whose boxes were let go: its tiles are its only
/// drawing, kept while it is hidden (see the module docs).
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct BoxesInTiles;

/// A hidden voxel group that still has tiles or a task, and boxes to
/// mesh them from again.
type HiddenWithTiles = (
    With<VoxelCubes>,
    With<Disabled>,
    Without<BoxesInTiles>,
    Or<(With<Meshed>, With<Meshing>)>,
);

/// A voxel group with neither tiles nor a task.
type NotMeshed = (Without<Meshed>, Without<Meshing>);

/// The systems, in order: release the hidden, start the shown, spawn the
/// finished.
pub fn systems() -> impl IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, ()> {
    (release_hidden, start_meshing, finish_meshing).chain()
}

/// Despawns the tiles of every hidden voxel group that keeps its boxes
/// and drops its meshing task, so a hidden stage holds only its boxes.
pub fn release_hidden(mut commands: Commands, hidden: Query<Entity, HiddenWithTiles>) {
    for group in &hidden {
        commands
            .entity(group)
            .despawn_related::<Children>()
            .remove::<(Meshed, Meshing)>();
    }
}

/// Starts meshing every shown voxel group that has no tiles yet and holds
/// its boxes (an evicted stage's come back a few frames after it shows:
/// [`crate::view::residency`]).
pub fn start_meshing(mut commands: Commands, shown: Query<(Entity, &VoxelCubes), NotMeshed>) {
    for (group, cubes) in shown.iter().filter(|(_, c)| !c.0.is_empty()) {
        let cubes = cubes.0.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move { tiles(&cubes) });
        commands.entity(group).insert(Meshing(task));
    }
}

/// Spawns the tiles of each shown group whose meshing is done, and counts
/// the groups still meshing ([`VoxelDetail::meshing`]).
pub fn finish_meshing(
    mut commands: Commands,
    mut meshing: Query<(Entity, &mut Meshing)>,
    mut assets: ResMut<CubeAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut detail: ResMut<VoxelDetail>,
) {
    let mut pending = 0;
    for (group, mut task) in &mut meshing {
        let Some(tiles) = check_ready(&mut task.0) else {
            pending += 1;
            continue;
        };
        crate::view::cubes::spawn(
            &mut commands,
            group,
            tiles,
            &mut assets,
            &mut meshes,
            &mut materials,
        );
        commands.entity(group).remove::<Meshing>().insert(Meshed);
    }
    if detail.meshing != pending {
        detail.meshing = pending;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::cubes::TileDetail;
    use bevy::ecs::query::Allow;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Mesh>()
            .init_asset::<StandardMaterial>()
            .init_resource::<CubeAssets>()
            .init_resource::<VoxelDetail>()
            .add_systems(Update, systems());
        app
    }

    fn cubes(n: usize) -> VoxelCubes {
        let c = (0..n)
            .map(|i| {
                let lo = Vec3::new(i as f32 * 0.1, 0.0, 0.0);
                (lo, lo + Vec3::splat(0.1), [0.2, 0.4, 0.6, 1.0])
            })
            .collect();
        VoxelCubes(Arc::new(c))
    }

    /// Runs frames until `done` or a deadline of frames.
    fn until(app: &mut App, what: &str, done: impl Fn(&mut App) -> bool) {
        for _ in 0..2000 {
            app.update();
            if done(app) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        panic!("never: {what}");
    }

    fn tiles_of(app: &mut App, group: Entity) -> usize {
        let mut q = app
            .world_mut()
            .query_filtered::<&ChildOf, (With<TileDetail>, Allow<Disabled>)>();
        q.iter(app.world()).filter(|c| c.parent() == group).count()
    }

    #[test]
    fn a_shown_group_is_meshed_and_a_hidden_one_lets_its_meshes_go() {
        let mut app = app();
        let shown = app.world_mut().spawn(cubes(300)).id();
        let hidden = app.world_mut().spawn((cubes(20), Disabled)).id();
        until(&mut app, "the shown group's tiles", |app| {
            tiles_of(app, shown) > 0
        });
        assert!(app.world().get::<Meshed>(shown).is_some());
        assert_eq!(app.world().resource::<VoxelDetail>().meshing, 0);
        assert_eq!(
            tiles_of(&mut app, hidden),
            0,
            "a hidden group is not meshed"
        );
        assert!(app.world().get::<Meshing>(hidden).is_none());
        let meshes = app.world().resource::<Assets<Mesh>>().len();
        assert!(meshes > 0);

        // Hidden: the tiles and their meshes go, the boxes stay.
        app.world_mut().entity_mut(shown).insert(Disabled);
        app.update();
        app.update();
        assert_eq!(tiles_of(&mut app, shown), 0);
        assert!(app.world().get::<Meshed>(shown).is_none());
        assert_eq!(
            app.world().get::<VoxelCubes>(shown).map(|c| c.0.len()),
            Some(300)
        );
        until(&mut app, "the meshes are freed", |app| {
            app.world().resource::<Assets<Mesh>>().is_empty()
        });

        // Shown again: meshed again, the same number of tiles.
        app.world_mut().entity_mut(shown).remove::<Disabled>();
        until(&mut app, "the tiles come back", |app| {
            tiles_of(app, shown) > 0
        });
        assert_eq!(app.world().resource::<Assets<Mesh>>().len(), meshes);
    }

    #[test]
    fn hiding_a_group_drops_its_task_or_tiles() {
        let mut app = app();
        let group = app.world_mut().spawn(cubes(5000)).id();
        app.update();
        let world = app.world();
        let in_flight = world.get::<Meshing>(group).is_some();
        assert!(
            in_flight || world.get::<Meshed>(group).is_some(),
            "meshing started"
        );
        assert_eq!(
            world.resource::<VoxelDetail>().meshing,
            usize::from(in_flight),
            "the groups still meshing are counted"
        );
        app.world_mut().entity_mut(group).insert(Disabled);
        app.update();
        for _ in 0..20 {
            app.update();
        }
        let world = app.world();
        assert!(world.get::<Meshing>(group).is_none() && world.get::<Meshed>(group).is_none());
        assert_eq!(tiles_of(&mut app, group), 0, "no tile arrives late");
    }

    /// A group without boxes (its stage let them go while out of sight:
    /// [`crate::view::residency`]) starts no task and has no tiles until
    /// they are back, then is meshed.
    #[test]
    fn a_group_without_boxes_waits_for_them() {
        let mut app = app();
        let group = app.world_mut().spawn(cubes(0)).id();
        for _ in 0..5 {
            app.update();
        }
        let world = app.world();
        assert!(world.get::<Meshing>(group).is_none() && world.get::<Meshed>(group).is_none());
        assert_eq!(tiles_of(&mut app, group), 0);
        app.world_mut().entity_mut(group).insert(cubes(300));
        until(&mut app, "meshed", |app| {
            app.world().get::<Meshed>(group).is_some()
        });
        assert!(tiles_of(&mut app, group) > 0);
    }
}
