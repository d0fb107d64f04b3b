//! Retained drawing of the published stages: one entity per prepared group
//! (gizmo lines, meshes, cube instances), made once per publish; then only
//! visibility flips as the timeline, the legend and the filters change: a
//! hidden group is a disabled entity, which no query and no frame visits. The
//! highlights of the sub-step, the hovered and the selected element are in
//! [`crate::view::highlight`].

use crate::model::band::ViewFilter;
use crate::model::elements::{DrawGroup, StageGeometry};
use crate::view::cubes::CubeAssets;
use crate::view::filter::RefilterSystems;
use crate::view::voxel_meshing::VoxelCubes;
use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::prelude::*;

use crate::model::group::Group;
use crate::model::selection::Legend;
use crate::model::selection::Selection;
use crate::model::style::element_color;
use crate::model::style::style_for;
use crate::model::timeline::Timeline;

/// Keeps the legend's list of kinds (no renderer needed).
pub struct LegendPlugin;

impl Plugin for LegendPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Legend>()
            .init_resource::<Selection>()
            .add_systems(PostUpdate, collect_kinds.after(RefilterSystems));
    }
}

/// Above this many walk links in one stage they start hidden (their legend
/// row kept, to switch them on): on a Quake map thousands of them cover
/// the level and every other kind of link.
pub const WALK_LINKS_SHOWN: usize = 2_000;

fn collect_kinds(added: Query<&StageGeometry, Changed<StageGeometry>>, mut legend: ResMut<Legend>) {
    for geo in &added {
        let walk_links = geo.prepared.drawn.get("link/walk").copied().unwrap_or(0);
        if walk_links > WALK_LINKS_SHOWN && !legend.kinds.contains_key("link/walk") {
            legend.hidden.insert("link/walk".to_string());
        }
        for g in &geo.prepared.groups {
            if !legend.kinds.contains_key(&g.kind) {
                let s = style_for(&g.kind);
                let c = if s.per_element {
                    element_color(3, 1.0)
                } else {
                    s.color
                };
                legend.kinds.insert(g.kind.clone(), c);
            }
        }
    }
}

/// Turns published stage geometry into retained gizmos and meshes and keeps
/// their visibility in step with the timeline and the legend.
pub struct DrawPlugin;

impl Plugin for DrawPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CubeAssets>()
            .init_resource::<crate::view::cubes::VoxelDetail>()
            .init_resource::<crate::view::residency::Residency>()
            .init_resource::<crate::view::residency::RestoringStages>()
            .add_systems(
                PostUpdate,
                (
                    spawn_visuals,
                    update_visibility,
                    crate::view::residency::systems(),
                    crate::view::voxel_meshing::systems(),
                    crate::view::cubes::choose_detail,
                )
                    .chain()
                    .after(RefilterSystems)
                    .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
            )
            .add_plugins((
                crate::view::highlight::HighlightPlugin,
                crate::view::gizmo_release::GizmoReleasePlugin,
            ));
    }
}

/// Shared material settings for fills: unlit, two-sided, blended, drawn a
/// little in front of the level and of earlier stages (`layer` steps).
fn fill_material(layer: usize) -> StandardMaterial {
    StandardMaterial {
        base_color: Color::WHITE,
        unlit: true,
        cull_mode: None,
        alpha_mode: AlphaMode::Blend,
        depth_bias: 10.0 + layer as f32 * 10.0,
        ..default()
    }
}

/// Material settings for a group's line mesh
/// ([`crate::model::drawable::LINE_MESH_FROM`]): a fill's without the
/// depth bias, which the renderer allows for triangles only.
fn line_material(layer: usize) -> StandardMaterial {
    StandardMaterial {
        depth_bias: 0.0,
        ..fill_material(layer)
    }
}

/// The asset stores a group's drawing goes into.
#[derive(bevy::ecs::system::SystemParam)]
pub struct VisualAssets<'w> {
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<StandardMaterial>>,
    gizmos: ResMut<'w, Assets<GizmoAsset>>,
}

/// Shows or hides a drawn group's entity and everything under it (a voxel
/// group's tile meshes). A hidden group is [`Disabled`]: Bevy's queries
/// skip it, so the thousands of hidden groups of a big level's other
/// stages and sub-steps cost an idle frame nothing (as visible-but-hidden
/// entities they were walked by the transform and visibility systems and,
/// with a gizmo, extracted into the render world in every frame).
/// Showing one inserts its [`Visibility`] again so that Bevy recomputes
/// the inherited visibility, which it does not update while the entity is
/// disabled.
pub fn set_shown(commands: &mut Commands, entity: Entity, shown: bool) {
    let mut e = commands.entity(entity);
    if shown {
        e.remove_recursive::<Children, Disabled>()
            .insert(Visibility::Inherited);
    } else {
        e.insert_recursive::<Children>(Disabled);
    }
}

/// Spawns one group's drawing: a retained gizmo for its lines and points (a
/// line mesh for the lines of a huge group), a
/// mesh for its fills (drawn `layer` depth steps in front of the level), a
/// voxel group holding its cubes, meshed per tile while it shows
/// ([`crate::view::voxel_meshing`]). Each entity gets `extra`
/// (its tag and parent). Hidden entities start [`Disabled`] (see
/// [`set_shown`]). The lines, points, triangles and cubes move into
/// the gizmo, the meshes and the voxel group ([`Group::take_drawable`]; they are not kept twice).
pub fn spawn_group(
    commands: &mut Commands,
    g: &mut Group,
    layer: usize,
    shown: bool,
    assets: &mut VisualAssets,
    extra: impl Bundle + Clone,
) {
    if !g.cubes.is_empty() {
        let cubes = VoxelCubes(std::sync::Arc::new(std::mem::take(&mut g.cubes)));
        spawn_maybe_shown(
            commands,
            shown,
            (
                extra.clone(),
                crate::view::cubes::VoxelGroup,
                cubes,
                Transform::default(),
            ),
        );
    }
    let s = style_for(&g.kind);
    let drawable = g.drawable.take().map_or_else(|| g.take_drawable(), |d| *d);
    if let Some(asset) = drawable.gizmo {
        let style = if s.dashed {
            GizmoLineStyle::Dashed {
                gap_scale: 3.0,
                line_scale: 4.0,
            }
        } else {
            GizmoLineStyle::Solid
        };
        let gizmo = Gizmo {
            handle: assets.gizmos.add(asset),
            line_config: GizmoLineConfig {
                width: s.width,
                style,
                ..default()
            },
            depth_bias: -1.0,
        };
        spawn_maybe_shown(
            commands,
            shown,
            (extra.clone(), Transform::default(), gizmo),
        );
    }
    let meshes = [
        (drawable.lines, line_material(layer)),
        (drawable.fill, fill_material(layer)),
    ];
    for ((mesh, bounds), material) in meshes
        .into_iter()
        .filter_map(|(m, material)| Some((m?, material)))
    {
        spawn_maybe_shown(
            commands,
            shown,
            (
                extra.clone(),
                bounds,
                Mesh3d(assets.meshes.add(mesh)),
                MeshMaterial3d(assets.materials.add(material)),
                Transform::default(),
            ),
        );
    }
}

/// Spawns `bundle`, [`Disabled`] unless `shown`.
fn spawn_maybe_shown(commands: &mut Commands, shown: bool, bundle: impl Bundle) -> Entity {
    if shown {
        commands.spawn(bundle).id()
    } else {
        commands.spawn((bundle, Disabled)).id()
    }
}

/// Draws `primitives` over the stages (`front` depth steps in front of
/// the level), prepared under the view filter and on the layers it shows,
/// every entity tagged with `marker` (the probe's answer, the compare
/// view's difference).
pub fn spawn_overlay(
    commands: &mut Commands,
    primitives: &[navscope_core::Primitive],
    unit: f32,
    filter: &ViewFilter,
    front: usize,
    assets: &mut VisualAssets,
    marker: impl Bundle + Clone,
) {
    let mut prepared = crate::model::prepare::prepare(primitives, unit, &filter.prepare);
    for g in prepared
        .groups
        .iter_mut()
        .filter(|g| filter.shows_layer(g.layer))
    {
        spawn_group(commands, g, front, true, assets, marker.clone());
    }
}

/// Every drawn group, shown or hidden (disabled).
type AllDrawGroups = (With<DrawGroup>, Allow<Disabled>);

/// Spawns the drawing of every stage whose geometry was published or
/// re-prepared, replacing what was drawn for it before.
fn spawn_visuals(
    mut commands: Commands,
    mut changed: Query<(Entity, &mut StageGeometry), Changed<StageGeometry>>,
    drawn: Query<(Entity, &ChildOf), AllDrawGroups>,
    mut assets: VisualAssets,
) {
    for (root, mut geo) in &mut changed {
        // Taking the groups' geometry is not a change of what the stage shows.
        let geo = geo.bypass_change_detection();
        for (e, parent) in &drawn {
            if parent.parent() == root {
                commands.entity(e).despawn();
            }
        }
        for g in &mut geo.prepared.groups {
            let tag = DrawGroup {
                stage: geo.stage,
                kind: g.kind.clone(),
                first: g.first,
                last: g.last,
                layer: g.layer,
            };
            spawn_group(
                &mut commands,
                g,
                geo.stage,
                false,
                &mut assets,
                (tag, ChildOf(root)),
            );
        }
    }
}

/// Whether a group drawn for stage `g.stage` shows under the timeline's
/// position (see [`shown`]).
pub fn group_visible(
    g: &DrawGroup,
    substeps: u32,
    timeline: &Timeline,
    legend: &Legend,
    filter: &ViewFilter,
) -> bool {
    shown(
        g.stage, &g.kind, g.first, g.last, g.layer, substeps, timeline, legend, filter,
    )
}

/// Whether something of `kind` drawn by stage `stage` for sub-steps
/// `first..=last` on `layer` shows under the timeline's position: its stage
/// is the current one (or earlier, when accumulating), the sub-step shown
/// lies in its range, its kind is not hidden and its layer is shown. The
/// drawing and picking both ask this, so what can be picked is what is
/// seen.
#[allow(clippy::too_many_arguments)]
pub fn shown(
    stage: usize,
    kind: &str,
    first: u32,
    last: u32,
    layer: Option<u32>,
    substeps: u32,
    timeline: &Timeline,
    legend: &Legend,
    filter: &ViewFilter,
) -> bool {
    let stage_ok = timeline.shows_stage(stage);
    if !stage_ok || legend.is_hidden(kind) || !filter.shows_layer(layer) {
        return false;
    }
    let end = substeps.saturating_sub(1);
    let step = if stage == timeline.current {
        timeline.substep.unwrap_or(end).min(end)
    } else {
        end
    };
    first <= step && step <= last
}

/// Shows the groups the timeline, the legend and the filter show and hides
/// the rest ([`set_shown`]); only in frames where one of them changed or
/// groups were spawned (a stage of thousands of sub-step groups made this
/// a scan of every group in every frame).
fn update_visibility(
    mut commands: Commands,
    timeline: Res<Timeline>,
    legend: Res<Legend>,
    filter: Res<ViewFilter>,
    roots: Query<&StageGeometry>,
    spawned: Query<(), (Added<DrawGroup>, Allow<Disabled>)>,
    groups: Query<(Entity, &DrawGroup, &ChildOf, Has<Disabled>), Allow<Disabled>>,
) {
    let changed = timeline.is_changed() || legend.is_changed() || filter.is_changed();
    if !changed && spawned.is_empty() {
        return;
    }
    for (e, g, parent, disabled) in &groups {
        let substeps = roots
            .get(parent.parent())
            .map(|r| r.substeps.len() as u32)
            .unwrap_or(0);
        let shown = group_visible(g, substeps, &timeline, &legend, &filter);
        if shown == disabled {
            set_shown(&mut commands, e, shown);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visibility_follows_stage_step_and_legend() {
        let g = DrawGroup {
            stage: 1,
            kind: "portal/removed".into(),
            first: 2,
            last: 3,
            layer: Some(1),
        };
        let mut t = Timeline {
            current: 1,
            substep: Some(2),
            ..Default::default()
        };
        let mut legend = Legend::default();
        let mut filter = ViewFilter::default();
        assert!(group_visible(&g, 5, &t, &legend, &filter));
        filter.hidden_layers.insert(1);
        assert!(!group_visible(&g, 5, &t, &legend, &filter), "layer hidden");
        filter.hidden_layers.clear();
        t.substep = Some(4);
        assert!(!group_visible(&g, 5, &t, &legend, &filter));
        t.substep = Some(3);
        legend.hidden.insert("portal".into());
        assert!(!group_visible(&g, 5, &t, &legend, &filter));
        legend.hidden.clear();
        t.current = 2;
        assert!(
            !group_visible(&g, 5, &t, &legend, &filter),
            "current stage only"
        );
        t.accumulate = true;
        assert!(
            !group_visible(&g, 5, &t, &legend, &filter),
            "earlier stages show their final step"
        );
        let persistent = DrawGroup {
            last: u32::MAX,
            ..g
        };
        assert!(group_visible(&persistent, 5, &t, &legend, &filter));
    }
}
