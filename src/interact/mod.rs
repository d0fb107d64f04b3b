//! Interaction with the scene: what is under the cursor, the click tools,
//! dragging the probe's markers, and hover.
//!
//! - [`pointer`]: each frame, whether the cursor is over the scene (not a
//!   panel, menu or window) and the pick ray through it.
//! - [`tool`]: the active tool (inspect or probe, RecastDemo-style: a
//!   toolbar toggle and a key) and what a click does under it.
//! - [`pick`]: plain 3D picking of drawn elements along the ray.
//! - [`clicks`]: the systems that turn presses, drags and releases into
//!   selections, probe points and marker moves, keep the hover and the
//!   world point under the cursor (the status readout).
//! - [`zoom`]: the wheel zooms towards the cursor.
//!
//! All of it runs in `Update`, before the orbit camera (`PostUpdate`), so a
//! drag that moves a marker switches the camera off before it could turn
//! the view.

pub mod clicks;
pub mod pick;
pub mod pointer;
pub mod tool;
pub mod zoom;

use bevy::prelude::*;

use crate::view::scene::SceneSystems;

/// The scene's mouse interaction (needs a window and a camera).
pub struct InteractPlugin;

impl Plugin for InteractPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<pointer::ScenePointer>()
            .init_resource::<crate::model::selection::Hover>()
            .init_resource::<clicks::Gesture>()
            .init_resource::<clicks::CursorPoint>()
            .add_systems(
                Update,
                (
                    pointer::update_pointer,
                    clicks::update_cursor_point,
                    clicks::press_drag_release,
                    clicks::update_hover,
                )
                    .chain()
                    .after(SceneSystems),
            )
            .add_systems(
                PostUpdate,
                zoom::zoom_towards_cursor.after(bevy_panorbit_camera::PanOrbitCameraSystemSet),
            );
    }
}
