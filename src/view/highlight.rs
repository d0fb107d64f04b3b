//! The highlights drawn over the stages: the current sub-step's own
//! primitives, the hovered element in white and the selected one in yellow.
//!
//! A sub-step's primitives are made when it is shown, by the stage's
//! artifact on a worker ([`StepHighlights`], [`crate::model::substeps`]),
//! and drawn in the frame they arrive.
//!
//! They are one retained gizmo, rebuilt only when what it shows changes
//! (another sub-step, another element, a new publication of the stage);
//! drawn as immediate gizmos they cost a colour conversion per segment on
//! every frame, idle or not.

use bevy::ecs::change_detection::Tick;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use navscope_core::Primitive;

use crate::model::drawable::srgba;
use crate::model::elements::{StageElement, StageGeometry, StageRoot};
use crate::model::group::Group;
use crate::model::index::ElementIndex;
use crate::model::prepare::add_primitive;
use crate::model::selection::{Hover, Selection};
use crate::model::timeline::Timeline;

/// An element of more primitives than this is highlighted by its bounding
/// box: thousands of voxels (a voxel stage's element is a tile) as gizmo
/// cubes would cost more to build and draw than the rest of the frame.
pub const HIGHLIGHT_MAX: usize = 512;

/// Keeps the highlight gizmo in step with the timeline, hover and selection.
pub struct HighlightPlugin;

impl Plugin for HighlightPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StepHighlights>()
            .add_systems(Update, (fetch_step_highlights, update_highlights).chain());
    }
}

/// A sub-step: its stage, its index and the change tick of the stage's
/// geometry (a new publication makes it again).
type StepKey = (usize, u32, Tick);

/// The shown sub-step's highlights, made on a worker from its stage's
/// artifact.
#[derive(Resource, Default)]
pub struct StepHighlights {
    /// The sub-step wanted.
    key: Option<StepKey>,
    /// Its highlights, once made.
    ready: Option<Vec<Primitive>>,
    /// Their making, while under way.
    task: Option<Task<Vec<Primitive>>>,
}

impl StepHighlights {
    /// True while a sub-step's highlights are being made.
    pub fn is_fetching(&self) -> bool {
        self.task.is_some()
    }

    /// The sub-step (stage, step) whose highlights are made, so drawn.
    pub fn drawn(&self) -> Option<(usize, u32)> {
        self.made().map(|((stage, step, _), _)| (stage, step))
    }

    /// The wanted sub-step and its highlights, once they are made.
    fn made(&self) -> Option<(StepKey, &[Primitive])> {
        Some((self.key?, self.ready.as_deref()?))
    }
}

/// Starts making the shown sub-step's highlights when the timeline moves
/// to another one (dropping the making of one no longer shown), and keeps
/// them when made.
fn fetch_step_highlights(
    timeline: Res<Timeline>,
    roots: Query<Ref<StageGeometry>>,
    mut fetched: ResMut<StepHighlights>,
) {
    let wanted = timeline.substep.and_then(|step| {
        let root = roots.iter().find(|r| r.stage == timeline.current)?;
        ((step as usize) < root.substeps.len()).then(|| {
            (
                (timeline.current, step, root.last_changed()),
                root.substeps.clone(),
            )
        })
    });
    let key = wanted.as_ref().map(|(k, _)| *k);
    if fetched.key != key {
        let fetched = fetched.as_mut();
        fetched.key = key;
        fetched.ready = None;
        fetched.task = wanted.map(|((_, step, _), steps)| {
            AsyncComputeTaskPool::get().spawn(async move { steps.highlights(step as usize) })
        });
    }
    // Polled through a shared reference, so the resource reads as changed
    // only when the highlights arrive.
    if fetched.task.as_ref().is_some_and(Task::is_finished)
        && let Some(made) = fetched.task.take().and_then(|mut t| check_ready(&mut t))
    {
        fetched.ready = Some(made);
    }
}

/// The entity that draws the highlights (at most one).
#[derive(Component)]
pub struct HighlightGizmo;

/// What the highlight gizmo shows: the sub-step (stage, step) and the
/// hovered and selected elements, each with the change tick of the data it
/// was drawn from, so a new publication redraws it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Shown {
    substep: Option<(usize, u32, Tick)>,
    hovered: Option<(StageElement, Tick)>,
    selected: Option<(StageElement, Tick)>,
}

/// The highlight of element `id` of `kind`: its primitives in their
/// shapes, or its bounding box when it has more than [`HIGHLIGHT_MAX`].
pub fn highlight_of(index: &ElementIndex, kind: &str, id: u32, unit: f32) -> Group {
    let mut g = Group::default();
    if index.element(kind, id).nth(HIGHLIGHT_MAX).is_some() {
        let (mut lo, mut hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
        for p in index.element(kind, id) {
            for q in p.shape.points() {
                lo = lo.min(q);
                hi = hi.max(q);
            }
        }
        if lo.cmple(hi).all() {
            g.cubes.push((lo, hi, [1.0; 4]));
        }
        return g;
    }
    for p in index.element(kind, id) {
        add_primitive(&mut g, &p, unit);
    }
    g
}

/// Adds a sub-step's highlights to `asset` in their own colours.
fn add_substep(asset: &mut GizmoAsset, g: &Group) {
    for (a, b, c) in &g.lines {
        asset.line(*a, *b, srgba(*c));
    }
    for (at, r, c) in &g.points {
        asset.sphere(Isometry3d::from_translation(*at), *r, srgba(*c));
    }
    for (t, c) in &g.triangles {
        asset.linestrip([t[0], t[1], t[2], t[0]], srgba([c[0], c[1], c[2], 1.0]));
    }
}

/// Adds an element's highlight to `asset` in one colour, lifted by `up` so
/// it is not hidden in the surface it marks.
fn add_marked(asset: &mut GizmoAsset, g: &Group, color: Color, up: Vec3) {
    for (a, b, _) in &g.lines {
        asset.line(*a + up, *b + up, color);
    }
    if g.lines.is_empty() {
        for (t, _) in &g.triangles {
            for k in 0..3 {
                asset.line(t[k] + up, t[(k + 1) % 3] + up, color.with_alpha(0.5));
            }
        }
    }
    for (at, r, _) in &g.points {
        asset.sphere(Isometry3d::from_translation(*at), r * 1.6, color);
    }
    for (lo, hi, _) in &g.cubes {
        asset.cube(
            Transform::from_translation((*lo + *hi) * 0.5).with_scale(*hi - *lo),
            color,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn update_highlights(
    mut commands: Commands,
    steps: Res<StepHighlights>,
    selection: Res<Selection>,
    hover: Option<Res<Hover>>,
    roots: Query<Ref<StageGeometry>>,
    indexes: Query<(&StageRoot, Ref<ElementIndex>)>,
    mut assets: ResMut<Assets<GizmoAsset>>,
    drawn: Query<Entity, With<HighlightGizmo>>,
    mut shown: Local<Option<Shown>>,
) {
    let substep = steps.made().map(|(key, _)| key);
    let with_tick = |el: Option<&StageElement>| {
        let el = el?;
        let (_, index) = indexes.iter().find(|(r, _)| r.stage == el.stage)?;
        Some((el.clone(), index.last_changed()))
    };
    let hovered = hover.as_ref().and_then(|h| with_tick(h.0.as_ref()));
    let want = Shown {
        substep,
        hovered,
        selected: with_tick(selection.0.as_ref()),
    };
    if shown.as_ref() == Some(&want) {
        return;
    }
    for e in &drawn {
        commands.entity(e).despawn();
    }
    let unit = roots.iter().map(|r| r.unit).next().unwrap_or(1.0);
    let mut asset = GizmoAsset::new();
    let mut any = false;
    if let Some((_, highlights)) = steps.made() {
        let mut g = Group::default();
        for p in highlights.iter() {
            add_primitive(&mut g, p, unit);
        }
        add_substep(&mut asset, &g);
        any |= !highlights.is_empty();
    }
    let up = Vec3::Y * 0.002 * unit;
    for (which, color) in [
        (&want.hovered, Color::srgb(1.0, 1.0, 1.0)),
        (&want.selected, Color::srgb(1.0, 0.9, 0.0)),
    ] {
        let Some((el, _)) = which else { continue };
        let Some((_, index)) = indexes.iter().find(|(r, _)| r.stage == el.stage) else {
            continue;
        };
        let g = highlight_of(&index, &el.kind, el.element, unit);
        add_marked(&mut asset, &g, color, up);
        any = true;
    }
    if any {
        commands.spawn((
            HighlightGizmo,
            Gizmo {
                handle: assets.add(asset),
                line_config: GizmoLineConfig {
                    width: 3.0,
                    ..default()
                },
                depth_bias: -1.0,
            },
            Transform::default(),
        ));
    }
    *shown = Some(want);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_element_is_highlighted_by_its_bounds() {
        use navscope_core::{Primitive, Shape};
        let column = |i: u32| {
            Primitive::new(
                "voxel/solid",
                7,
                Shape::VoxelColumn {
                    x: i as f32 * 0.1,
                    z: 0.0,
                    cell: 0.1,
                    y0: 0.0,
                    y1: 0.2,
                },
            )
        };
        let many: Vec<Primitive> = (0..HIGHLIGHT_MAX as u32 + 1).map(column).collect();
        let index = ElementIndex::new(std::sync::Arc::new(many.into()));
        let g = highlight_of(&index, "voxel/solid", 7, 1.0);
        assert_eq!(g.cubes.len(), 1, "one box for the whole element");
        let (lo, hi, _) = g.cubes[0];
        assert!((lo - Vec3::ZERO).length() < 1e-6);
        assert!((hi - Vec3::new((HIGHLIGHT_MAX as f32 + 1.0) * 0.1, 0.2, 0.1)).length() < 1e-4);
        let few = ElementIndex::new(std::sync::Arc::new(
            (0..3).map(column).collect::<Vec<_>>().into(),
        ));
        assert_eq!(
            highlight_of(&few, "voxel/solid", 7, 1.0).cubes.len(),
            3,
            "each voxel"
        );
        assert!(
            highlight_of(&few, "voxel/solid", 8, 1.0).cubes.is_empty(),
            "no such element"
        );
    }
}
