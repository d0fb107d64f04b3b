//! What the render world's extraction does to the main world's drawing,
//! for the app without a renderer ([`crate::app::drawing_headless`]).
//!
//! With a renderer, the main world keeps no copy of the stage drawing once
//! the render world has its own:
//! - the big meshes (voxel tiles, fills, line meshes) are kept in the
//!   render world only (`RenderAssetUsages::RENDER_WORLD`): Bevy's
//!   extraction takes their vertex and index data out of `Assets<Mesh>` in
//!   the frame after they are added, leaving only their metadata;
//! - the stage groups' gizmos are emptied once uploaded
//!   ([`crate::view::gizmo_release`]).
//!
//! Without a renderer nothing extracts them, so the data would stay in the
//! main world for good and the headless app's memory would count, as the
//! app's own, what a desktop GPU holds in its video memory.
//! [`ExtractionStandIn`] lets the data go the same way, at the end of each
//! frame, and sums what it let go in [`HandedToGpu`], so the bench reports
//! the main world's memory and the GPU's data apart.

use bevy::asset::{RenderAssetUsages, UntypedAssetId};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::discard::discard_and_trim;
use crate::view::gizmo_release::{Released, Uploading, release_uploaded};

/// Lets the main world's copy of render-world-only meshes and uploaded
/// stage gizmos go at the end of each frame, as a renderer does.
pub struct ExtractionStandIn;

impl Plugin for ExtractionStandIn {
    fn build(&self, app: &mut App) {
        app.init_resource::<HandedToGpu>()
            .init_resource::<Uploading>()
            .add_systems(
                Last,
                (
                    take_render_world_meshes,
                    release_uploaded.pipe(note_released),
                    forget_removed,
                )
                    .chain(),
            );
    }
}

/// What [`ExtractionStandIn`] let go of in the main world: the vertex and
/// index bytes of the meshes and gizmos still live, which a renderer would
/// hold on the GPU.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct HandedToGpu {
    /// Bytes of each asset let go, by asset id (one removed drops out).
    by_asset: HashMap<UntypedAssetId, usize>,
}

impl HandedToGpu {
    /// Notes that `bytes` of asset `id` went to the GPU.
    pub fn note(&mut self, id: UntypedAssetId, bytes: usize) {
        self.by_asset.insert(id, bytes);
    }

    /// Bytes of vertex and index data of the live assets let go.
    pub fn bytes(&self) -> usize {
        self.by_asset.values().sum()
    }
}

/// The vertex and index bytes a mesh hands to the GPU.
fn gpu_bytes(mesh: &Mesh) -> usize {
    mesh.get_vertex_buffer_size() + mesh.get_index_buffer_bytes().map_or(0, <[u8]>::len)
}

/// Takes the data of every render-world-only mesh added or changed this
/// frame, as extraction would. Taking it changes the asset without an
/// event (as extraction does), so it is not taken twice.
fn take_render_world_meshes(
    mut events: MessageReader<AssetEvent<Mesh>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut handed: ResMut<HandedToGpu>,
) {
    let mut taken = Vec::new();
    for event in events.read() {
        let (AssetEvent::Added { id } | AssetEvent::Modified { id }) = *event else {
            continue;
        };
        let Some(mesh) = meshes.get_mut_untracked(id) else {
            continue;
        };
        if mesh.asset_usage != RenderAssetUsages::RENDER_WORLD {
            continue;
        }
        let bytes = gpu_bytes(mesh);
        // A mesh whose data is already taken has none to hand over.
        if let Ok(data) = mesh.take_gpu_data() {
            handed.note(id.untyped(), bytes);
            taken.push(data);
        }
    }
    if !taken.is_empty() {
        discard_and_trim(taken);
    }
}

/// Counts the gizmos [`release_uploaded`] emptied as handed to the GPU.
fn note_released(In(released): In<Released>, mut handed: ResMut<HandedToGpu>) {
    for (id, bytes) in released {
        handed.note(id, bytes);
    }
}

/// Forgets the meshes and gizmos removed: their GPU copies go with them.
fn forget_removed(
    mut meshes: MessageReader<AssetEvent<Mesh>>,
    mut gizmos: MessageReader<AssetEvent<GizmoAsset>>,
    mut handed: ResMut<HandedToGpu>,
) {
    let gone: Vec<UntypedAssetId> = meshes
        .read()
        .filter_map(removed)
        .chain(gizmos.read().filter_map(removed))
        .collect();
    for id in gone {
        handed.by_asset.remove(&id);
    }
}

/// The asset an event says was removed, if it says so.
fn removed<A: Asset>(event: &AssetEvent<A>) -> Option<UntypedAssetId> {
    match *event {
        AssetEvent::Removed { id } => Some(id.untyped()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::mesh::PrimitiveTopology;

    fn mesh(usage: RenderAssetUsages, n: usize) -> Mesh {
        Mesh::new(PrimitiveTopology::TriangleList, usage)
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, vec![[0.0f32; 3]; n])
            .with_inserted_indices(bevy::mesh::Indices::U16(vec![0; n]))
    }

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Mesh>()
            .init_asset::<GizmoAsset>()
            .add_plugins(ExtractionStandIn);
        app
    }

    #[test]
    fn render_world_meshes_lose_their_data_and_count_as_handed_over() {
        let mut app = app();
        let mut meshes = app.world_mut().resource_mut::<Assets<Mesh>>();
        let gpu = meshes.add(mesh(RenderAssetUsages::RENDER_WORLD, 30));
        let both = meshes.add(mesh(RenderAssetUsages::default(), 30));
        app.update();
        let meshes = app.world().resource::<Assets<Mesh>>();
        assert!(
            meshes
                .get(&gpu)
                .unwrap()
                .try_attribute(Mesh::ATTRIBUTE_POSITION)
                .is_err(),
            "a render-world-only mesh keeps no vertex data in the main world"
        );
        assert_eq!(
            meshes
                .get(&both)
                .unwrap()
                .attribute(Mesh::ATTRIBUTE_POSITION)
                .map(|a| a.len()),
            Some(30),
            "a mesh the main world uses keeps its data"
        );
        // 30 positions of 12 bytes and 30 16-bit indices.
        assert_eq!(
            app.world().resource::<HandedToGpu>().bytes(),
            30 * 12 + 30 * 2
        );
    }

    #[test]
    fn a_removed_mesh_no_longer_counts() {
        let mut app = app();
        let gpu = app
            .world_mut()
            .resource_mut::<Assets<Mesh>>()
            .add(mesh(RenderAssetUsages::RENDER_WORLD, 8));
        app.update();
        assert!(app.world().resource::<HandedToGpu>().bytes() > 0);
        app.world_mut().resource_mut::<Assets<Mesh>>().remove(&gpu);
        app.update();
        app.update();
        assert_eq!(app.world().resource::<HandedToGpu>().bytes(), 0);
    }

    #[test]
    fn a_stage_groups_gizmo_is_released_and_counted_until_it_is_removed() {
        let mut app = app();
        let mut lines = GizmoAsset::new();
        lines.line(Vec3::ZERO, Vec3::X, Color::WHITE);
        lines.line(Vec3::ZERO, Vec3::Y, Color::WHITE);
        let expected = crate::view::gizmo_release::gizmo_bytes(&lines);
        let handle = app
            .world_mut()
            .resource_mut::<Assets<GizmoAsset>>()
            .add(lines);
        let group = app
            .world_mut()
            .spawn((
                crate::model::elements::DrawGroup {
                    stage: 0,
                    kind: "edge".into(),
                    first: 0,
                    last: 0,
                    layer: None,
                },
                Gizmo {
                    handle: handle.clone(),
                    ..default()
                },
            ))
            .id();
        drop(handle);
        for _ in 0..=crate::view::gizmo_release::RELEASE_AFTER_FRAMES {
            app.update();
        }
        // Four vertices of a position (12 bytes) and a colour (16).
        assert_eq!(expected, 4 * 28);
        assert_eq!(app.world().resource::<HandedToGpu>().bytes(), expected);
        app.world_mut().despawn(group);
        for _ in 0..3 {
            app.update();
        }
        assert_eq!(
            app.world().resource::<HandedToGpu>().bytes(),
            0,
            "forgotten once removed"
        );
    }
}
