//! Presses, drags and releases in the scene, and the hover.
//!
//! A press inside the 3D view starts a gesture. Pressed within
//! [`MARKER_GRAB_PIXELS`] of a probe marker, it drags that marker: the orbit
//! camera is switched off until the release, the marker follows the point
//! under the cursor and the path is searched again as it moves; the whole
//! drag is one undo step; a press with Shift or Ctrl held never grabs (it
//! places a point, even next to a marker). Probe points land on the
//! walkable surface under the cursor ([`crate::probe::place`]). Otherwise a
//! release within [`CLICK_SLOP_PIXELS`]
//! of the press is a click, and the active tool ([`Tools`]) says what it
//! does; a longer movement was the camera's drag. The hover is the element
//! under the cursor, picked again when the cursor, the stage or what is
//! shown changes.

use bevy::prelude::*;
use bevy_panorbit_camera::PanOrbitCamera;

use crate::edit::history::History;
use crate::interact::pick::{self, PickRay};
use crate::interact::pointer::ScenePointer;
use crate::interact::tool::{ClickAction, ProbePoint, Tools};
use crate::model::band::ViewFilter;
use crate::model::elements::StageElement;
use crate::model::elements::StageGeometry;
use crate::model::elements::StageRoot;
use crate::model::index::ElementIndex;
use crate::model::selection::Selection;
use crate::model::selection::{Hover, Legend};
use crate::model::timeline::Timeline;
use crate::probe::Probe;
use crate::view::scene::MainCamera;
use crate::view::scene::Surface;

/// A press this close to a probe marker (pixels) grabs it.
pub const MARKER_GRAB_PIXELS: f32 = 10.0;
/// A release this close to its press (pixels) is a click, not a drag.
pub const CLICK_SLOP_PIXELS: f32 = 4.0;

/// The gesture in progress.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Gesture {
    /// Where the left button went down in the scene.
    pub pressed_at: Option<Vec2>,
    /// The marker being dragged.
    pub dragging: Option<ProbePoint>,
    /// The probe's points when the drag began (for undo).
    pub before: (Option<Vec3>, Option<Vec3>),
    /// Shift and Ctrl as they were at the press: a modifier let go before
    /// the release (in a slow frame) still counts for the click.
    pub modifiers: (bool, bool),
}

/// Where each probe marker is on screen (window logical pixels).
pub fn marker_pixels(
    camera: &Camera,
    tf: &GlobalTransform,
    probe: &Probe,
) -> (Option<Vec2>, Option<Vec2>) {
    let px = |p: Option<Vec3>| p.and_then(|p| camera.world_to_viewport(tf, p).ok());
    (px(probe.start), px(probe.goal))
}

/// The marker within grabbing distance of `cursor`, the nearer if both.
pub fn marker_at(cursor: Vec2, start: Option<Vec2>, goal: Option<Vec2>) -> Option<ProbePoint> {
    let d = |p: Option<Vec2>| p.map_or(f32::INFINITY, |p| p.distance(cursor));
    let (ds, dg) = (d(start), d(goal));
    if ds.min(dg) > MARKER_GRAB_PIXELS {
        return None;
    }
    Some(if ds <= dg {
        ProbePoint::Start
    } else {
        ProbePoint::Goal
    })
}

/// What is drawn, for picking: the timeline's position, the legend, the
/// view filter and the published stages' element indexes.
#[derive(bevy::ecs::system::SystemParam)]
pub struct ShownElements<'w, 's> {
    timeline: Res<'w, Timeline>,
    legend: Res<'w, Legend>,
    filter: Res<'w, ViewFilter>,
    roots: Query<
        'w,
        's,
        (
            &'static StageRoot,
            &'static StageGeometry,
            &'static ElementIndex,
        ),
    >,
}

impl ShownElements<'_, '_> {
    /// True when something the picker depends on changed this frame.
    fn changed(&self) -> bool {
        self.timeline.is_changed() || self.legend.is_changed() || self.filter.is_changed()
    }

    /// The element under `ray` among those shown at the timeline's
    /// position: the primitives near the ray (each stage's hierarchy) that
    /// are shown are ranked by one rule ([`pick::pick`]), within and across
    /// elements and stages.
    pub fn pick(&self, ray: &PickRay) -> Option<StageElement> {
        let (timeline, legend, filter) = (&*self.timeline, &*self.legend, &*self.filter);
        let band = filter.prepare.slice;
        let pad = |t: f32| ray.tolerance.at(t, ray.px);
        let mut candidates = Vec::new();
        for (root, geo, index) in &self.roots {
            if !timeline.shows_stage(root.stage) {
                continue;
            }
            let substeps = geo.substeps.len() as u32;
            candidates.extend(
                index
                    .along_ray(ray.origin, ray.dir, pad)
                    .into_iter()
                    .filter(|(p, _)| {
                        crate::view::draw::shown(
                            root.stage,
                            &p.kind,
                            p.first_step,
                            p.last_step,
                            p.layer,
                            substeps,
                            timeline,
                            legend,
                            filter,
                        )
                    })
                    .map(|(p, piece)| ((root.stage, p), piece)),
            );
        }
        let ((stage, p), hit) = pick::pick(ray, band.as_ref(), candidates)?;
        hit.t.is_finite().then(|| StageElement {
            stage,
            kind: p.kind.to_string(),
            element: p.element,
        })
    }
}

/// The point a click would land on under the cursor, for the status
/// readout: with the why tool the surface seen
/// ([`crate::probe::place::visible_point`]), else the walkable surface a
/// probe point lands on; inside the height slice; `None` off the scene.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct CursorPoint(pub Option<Vec3>);

/// Keeps [`CursorPoint`] under the cursor, found again when the cursor, the
/// mesh, the level or the slice changes.
pub fn update_cursor_point(
    pointer: Res<ScenePointer>,
    surface: Res<Surface>,
    filter: Res<ViewFilter>,
    probe: Res<Probe>,
    tools: Res<Tools>,
    mut at: ResMut<CursorPoint>,
    mut mesh_seen: Local<u64>,
) {
    let mesh_changed = *mesh_seen != probe.mesh_revision;
    *mesh_seen = probe.mesh_revision;
    let changed = pointer.is_changed() || surface.is_changed() || filter.is_changed();
    if !(changed || mesh_changed || tools.is_changed()) {
        return;
    }
    let seen = tools.tool == crate::interact::tool::Tool::Why;
    at.set_if_neq(CursorPoint(point_under(
        &pointer, &probe, &surface, &filter, seen,
    )));
}

/// The surface under the cursor, inside the height slice: the surface
/// seen when `seen` (the why tool's question), else the walkable surface
/// a probe point lands on.
fn point_under(
    pointer: &ScenePointer,
    probe: &Probe,
    surface: &Surface,
    filter: &ViewFilter,
    seen: bool,
) -> Option<Vec3> {
    let r = pointer.ray?;
    let find = if seen {
        crate::probe::place::visible_point
    } else {
        crate::probe::place::walkable_point
    };
    find(
        probe.mesh(),
        &surface.triangles,
        filter.prepare.slice,
        r.origin,
        r.dir,
    )
}

/// Turns left-button presses, drags and releases into clicks and marker
/// moves.
#[allow(clippy::too_many_arguments)]
pub fn press_drag_release(
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    pointer: Res<ScenePointer>,
    surface: Res<Surface>,
    filter: Res<ViewFilter>,
    shown: ShownElements,
    cameras: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    mut orbit: Query<&mut PanOrbitCamera, With<MainCamera>>,
    mut gesture: ResMut<Gesture>,
    mut tools: ResMut<Tools>,
    mut probe: ResMut<Probe>,
    mut selection: ResMut<Selection>,
    mut history: ResMut<History>,
    mut why: ResMut<crate::why::WhyTool>,
    mut islands: ResMut<crate::probe::islands::IslandView>,
) {
    let Some(mouse) = mouse else { return };
    let Some(cursor) = pointer.cursor else {
        return;
    };
    let point = |probe: &Probe| point_under(&pointer, probe, &surface, &filter, false);
    if mouse.just_pressed(MouseButton::Left) {
        *gesture = Gesture::default();
        if !pointer.in_scene {
            return;
        }
        gesture.pressed_at = Some(cursor);
        gesture.modifiers = (
            keys.as_ref().is_some_and(|k| crate::model::keys::shift(k)),
            keys.as_ref().is_some_and(|k| crate::model::keys::ctrl(k)),
        );
        // A plain press on a marker drags it; with Shift or Ctrl held the
        // click places a point, even next to a marker.
        let placing = gesture.modifiers.0 || gesture.modifiers.1;
        if let (false, Ok((cam, tf))) = (placing, cameras.single()) {
            let (s, g) = marker_pixels(cam, tf, &probe);
            if let Some(m) = marker_at(cursor, s, g) {
                gesture.dragging = Some(m);
                gesture.before = (probe.start, probe.goal);
                for mut o in &mut orbit {
                    o.enabled = false;
                }
            }
        }
        // A press and its release can arrive in the same frame (a click
        // right after a fast mouse move): go on to the release.
    }
    if let Some(marker) = gesture.dragging {
        if pointer.moved
            && let Some(at) = point(&probe)
        {
            match marker {
                ProbePoint::Start => probe.set_start(at),
                ProbePoint::Goal => probe.set_goal(at),
            }
        }
        if !mouse.pressed(MouseButton::Left) {
            history.probe_moved(gesture.before, (probe.start, probe.goal));
            *gesture = Gesture::default();
            for mut o in &mut orbit {
                o.enabled = true;
            }
        }
        return;
    }
    if !mouse.just_released(MouseButton::Left) {
        return;
    }
    let Some(start) = gesture.pressed_at.take() else {
        return;
    };
    if start.distance(cursor) > CLICK_SLOP_PIXELS || !pointer.in_scene {
        return;
    }
    let shift = gesture.modifiers.0 || keys.as_ref().is_some_and(|k| crate::model::keys::shift(k));
    let ctrl = gesture.modifiers.1 || keys.as_ref().is_some_and(|k| crate::model::keys::ctrl(k));
    let before = (probe.start, probe.goal);
    match tools.click(shift, ctrl) {
        ClickAction::Select => {
            selection.0 = pointer.ray.and_then(|r| shown.pick(&r));
            // With the island view on, the click also selects the island.
            if islands.on
                && let Some(at) = point(&probe)
            {
                crate::probe::islands::select_at(&mut islands, &probe, at);
            }
        }
        ClickAction::SetStart => {
            if let Some(at) = point(&probe) {
                probe.set_start(at);
            }
        }
        ClickAction::SetGoal => {
            if let Some(at) = point(&probe) {
                probe.set_goal(at);
            }
        }
        ClickAction::AskWhy => {
            if let Some(at) = point_under(&pointer, &probe, &surface, &filter, true) {
                why.ask(at);
            }
        }
    }
    history.probe_moved(before, (probe.start, probe.goal));
}

/// Keeps [`Hover`] on the element under the cursor.
#[allow(clippy::too_many_arguments)]
pub fn update_hover(
    pointer: Res<ScenePointer>,
    gesture: Res<Gesture>,
    shown: ShownElements,
    changed_roots: Query<(), Changed<StageGeometry>>,
    mut hover: ResMut<Hover>,
) {
    if !(pointer.is_changed() || shown.changed() || !changed_roots.is_empty()) {
        return;
    }
    let next = match (&pointer.ray, gesture.dragging) {
        (Some(ray), None) => shown.pick(ray),
        _ => None,
    };
    if hover.0 != next {
        hover.0 = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearer_marker_within_reach_is_grabbed() {
        let s = Some(Vec2::new(100.0, 100.0));
        let g = Some(Vec2::new(108.0, 100.0));
        assert_eq!(
            marker_at(Vec2::new(101.0, 100.0), s, g),
            Some(ProbePoint::Start)
        );
        assert_eq!(
            marker_at(Vec2::new(107.0, 101.0), s, g),
            Some(ProbePoint::Goal)
        );
        assert_eq!(marker_at(Vec2::new(130.0, 100.0), s, g), None);
        assert_eq!(marker_at(Vec2::new(100.0, 100.0), None, None), None);
    }
}
