//! The main world's copy of a stage group's line drawing is let go once the
//! render world has made its own.
//!
//! Bevy's retained gizmos ([`GizmoAsset`]) are kept in both worlds: the
//! main world's asset, and the vertex buffers the render world builds from
//! it when it is added. Other assets can say they are wanted only in the
//! render world; gizmo assets cannot. A stage group's gizmo is written once
//! and never changed (a new publication spawns new groups), so after its
//! upload the main world's copy is dead weight: on `lq_e3m4.map`, 1.7
//! million lines, about 90 MiB. [`release_uploaded`] empties it a few
//! frames after the group was spawned, without telling the render world
//! (which would drop its buffers too): hiding and showing the group,
//! which only disables and enables its entity, keep drawing from the
//! render world's buffers, and despawning the group drops the asset in
//! both worlds as before.
//!
//! Only an app that renders registers it (see [`GizmoReleasePlugin`]);
//! the app without a renderer does the same release in its stand-in for
//! extraction (`dev::extraction_stand_in`), so that its memory is the main
//! world's as with a renderer, and counts what each release returns
//! ([`Released`]) as handed to the GPU.

use bevy::asset::UntypedAssetId;
use bevy::diagnostic::FrameCount;
use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::prelude::*;
use bevy::render::RenderApp;

use crate::discard::discard_and_trim;
use crate::model::elements::DrawGroup;

/// Frames between a group's spawning and the release of its main-world
/// copy: the render world extracts a new asset at the end of the frame it
/// was added in, or of the next when the asset event comes after the
/// extraction; the rest is margin.
pub const RELEASE_AFTER_FRAMES: u32 = 3;

/// Empties stage groups' gizmo assets in the main world once uploaded.
pub struct GizmoReleasePlugin;

impl Plugin for GizmoReleasePlugin {
    fn build(&self, _app: &mut App) {}

    fn finish(&self, app: &mut App) {
        // In `finish`, so the render sub-app, added by a plugin that may
        // come later, is known.
        if app.get_sub_app(RenderApp).is_some() {
            app.init_resource::<Uploading>()
                .add_systems(Last, release_uploaded.map(drop));
        }
    }
}

/// The vertex bytes of a gizmo's lines and strips (a position and a
/// colour per vertex), as the render world's buffers hold them.
pub fn gizmo_bytes(g: &GizmoAsset) -> usize {
    let per_vertex = size_of::<Vec3>() + size_of::<LinearRgba>();
    (g.list_positions.len() + g.strip_positions.len()) * per_vertex
}

/// The gizmos of groups spawned lately, with the frame each was seen in.
#[derive(Resource, Default, Debug)]
pub struct Uploading(Vec<(AssetId<GizmoAsset>, u32)>);

/// Stage groups spawned this frame, shown or hidden.
type NewGroups = (Added<Gizmo>, With<DrawGroup>, Allow<Disabled>);

/// The gizmos a [`release_uploaded`] emptied, with the vertex bytes each
/// held ([`gizmo_bytes`]).
pub type Released = Vec<(UntypedAssetId, usize)>;

/// Notes the gizmos of newly spawned stage groups, and empties the
/// main-world copy of those noted [`RELEASE_AFTER_FRAMES`] ago; returns
/// what it emptied (an app that renders drops the list, the stand-in for
/// extraction counts it).
pub fn release_uploaded(
    spawned: Query<&Gizmo, NewGroups>,
    frame: Res<FrameCount>,
    mut uploading: ResMut<Uploading>,
    mut assets: ResMut<Assets<GizmoAsset>>,
) -> Released {
    let now = frame.0;
    uploading
        .0
        .extend(spawned.iter().map(|g| (g.handle.id(), now)));
    let mut copies = Vec::new();
    let mut released = Released::new();
    uploading.0.retain(|&(id, seen)| {
        if now.wrapping_sub(seen) < RELEASE_AFTER_FRAMES {
            return true;
        }
        if let Some(asset) = assets.get_mut_untracked(id) {
            let copy = std::mem::replace(asset, GizmoAsset::new());
            released.push((id.untyped(), gizmo_bytes(&copy)));
            copies.push(copy);
        }
        false
    });
    // Freed on a worker, and the pages given back: a big stage's copies are
    // tens of megabytes that the allocator would otherwise keep.
    if !copies.is_empty() {
        discard_and_trim(copies);
    }
    released
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::asset::AssetEvent;

    /// A group's gizmo is emptied in the main world after
    /// [`RELEASE_AFTER_FRAMES`], without an asset event (which would make
    /// the render world drop its buffers), and a gizmo of something else
    /// is left alone.
    #[test]
    fn a_groups_gizmo_is_emptied_quietly_after_its_upload() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<GizmoAsset>()
            .init_resource::<Uploading>()
            .add_systems(Last, release_uploaded.map(drop));
        let mut lines = GizmoAsset::new();
        lines.line(Vec3::ZERO, Vec3::X, Color::WHITE);
        let other = lines.clone();
        let (group, other) = {
            let mut assets = app.world_mut().resource_mut::<Assets<GizmoAsset>>();
            (assets.add(lines), assets.add(other))
        };
        let tag = DrawGroup {
            stage: 0,
            kind: "edge".into(),
            first: 0,
            last: 0,
            layer: None,
        };
        app.world_mut().spawn((
            tag,
            Gizmo {
                handle: group.clone(),
                ..default()
            },
            Disabled,
        ));
        app.world_mut().spawn(Gizmo {
            handle: other.clone(),
            ..default()
        });
        let len = |app: &App, h: &Handle<GizmoAsset>| {
            app.world()
                .resource::<Assets<GizmoAsset>>()
                .get(h)
                .map(|a| a.list_positions.len())
        };
        app.update();
        // Both added, then nothing more: the release sends no event.
        app.world_mut()
            .resource_mut::<Messages<AssetEvent<GizmoAsset>>>()
            .clear();
        for _ in 1..RELEASE_AFTER_FRAMES {
            app.update();
            assert_eq!(len(&app, &group), Some(2), "kept while uploading");
        }
        app.update();
        app.update();
        assert_eq!(len(&app, &group), Some(0), "emptied once uploaded");
        assert_eq!(len(&app, &other), Some(2), "not a stage group's");
        assert!(
            app.world()
                .resource::<Messages<AssetEvent<GizmoAsset>>>()
                .is_empty(),
            "the render world is not told"
        );
        assert!(app.world().resource::<Uploading>().0.is_empty());
    }
}
