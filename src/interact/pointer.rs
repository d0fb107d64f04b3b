//! The cursor and the scene: whether a press belongs to the 3D view, and
//! the pick ray through the cursor.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::interact::pick::{PickRay, Tolerance};
use crate::model::timeline::UiFocus;
use crate::view::scene::MainCamera;

/// How close, in pixels, the cursor must pass a point or a line to pick it.
pub const PICK_PIXELS: f32 = 6.0;

/// The cursor as the scene sees it this frame.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct ScenePointer {
    /// Cursor position in window logical pixels, if it is in the window.
    pub cursor: Option<Vec2>,
    /// The cursor is over the 3D view (not a panel, menu or window).
    pub in_scene: bool,
    /// The ray from the camera through the cursor, when in the scene.
    pub ray: Option<PickRay>,
    /// The cursor moved since the last frame.
    pub moved: bool,
}

/// The pick ray through window position `cursor`. Bevy's
/// `viewport_to_world` takes window coordinates (it subtracts the
/// viewport's origin itself), so the cursor goes in as it is.
pub fn ray_through(camera: &Camera, tf: &GlobalTransform, cursor: Vec2) -> Option<PickRay> {
    let r = camera.viewport_to_world(tf, cursor).ok()?;
    let r1 = camera.viewport_to_world(tf, cursor + Vec2::X).ok()?;
    let (o0, d0) = (r.origin, *r.direction);
    let (o1, d1) = (r1.origin, *r1.direction);
    // One pixel to the side: in an orthographic view the origin moves and
    // the direction does not; in a perspective view the reverse.
    let tolerance = if d0.distance(d1) < 1e-7 {
        Tolerance::Ortho {
            per_px: o0.distance(o1).max(1e-9),
        }
    } else {
        Tolerance::Perspective {
            per_px_at_1: d0.distance(d1),
        }
    };
    Some(PickRay {
        origin: o0,
        dir: d0,
        tolerance,
        px: PICK_PIXELS,
    })
}

/// Updates [`ScenePointer`] from the window, the camera and the panels.
pub fn update_pointer(
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<MainCamera>>,
    focus: Res<UiFocus>,
    mut pointer: ResMut<ScenePointer>,
) {
    let cursor = windows.single().ok().and_then(|w| w.cursor_position());
    let moved = cursor != pointer.cursor;
    let in_scene = cursor.is_some_and(|c| focus.scene_at(c));
    let ray = match (cursor, cameras.single()) {
        (Some(c), Ok((cam, tf))) if in_scene => ray_through(cam, tf, c),
        _ => None,
    };
    let next = ScenePointer {
        cursor,
        in_scene,
        ray,
        moved,
    };
    if *pointer != next {
        *pointer = next;
    }
}
