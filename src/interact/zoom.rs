//! The mouse wheel zooms towards the cursor: the point under it stays
//! under it, as in a map viewer, instead of the view closing in on the
//! screen's centre. The orbit camera zooms by its radius (its scale in the
//! orthographic top view); after it has taken the wheel, the focus moves
//! towards the cursor's point by the same factor.

use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;
use bevy_panorbit_camera::PanOrbitCamera;

use crate::interact::pointer::ScenePointer;
use crate::view::scene::MainCamera;

/// The focus that keeps `p` where it is on screen when the zoom goes from
/// `old` to `new` (radius or scale): `p` moves towards the focus in the
/// same proportion the view shrinks.
pub fn focus_after_zoom(focus: Vec3, p: Vec3, old: f32, new: f32) -> Vec3 {
    if old <= 0.0 || !new.is_finite() {
        return focus;
    }
    p + (focus - p) * (new / old)
}

/// Moves the camera's focus towards the cursor after a wheel zoom (runs
/// after the orbit camera has read the wheel).
pub fn zoom_towards_cursor(
    mut wheel: MessageReader<MouseWheel>,
    pointer: Res<ScenePointer>,
    mut cameras: Query<&mut PanOrbitCamera, With<MainCamera>>,
    mut last: Local<Option<f32>>,
) {
    let scrolled = wheel.read().count() > 0;
    for mut cam in &mut cameras {
        let old = last.replace(cam.target_radius);
        let (Some(old), true, Some(ray)) = (old, scrolled, pointer.ray) else {
            continue;
        };
        let new = cam.target_radius;
        if (new - old).abs() <= f32::EPSILON * old.abs() || ray.dir.length_squared() == 0.0 {
            continue;
        }
        // The cursor's point on the plane through the focus, facing the ray.
        let t = (cam.target_focus - ray.origin).dot(ray.dir) / ray.dir.length_squared();
        let p = ray.origin + ray.dir * t;
        let focus = focus_after_zoom(cam.target_focus, p, old, new);
        cam.target_focus = focus;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_point_under_the_cursor_keeps_its_place_on_screen() {
        // Orthographic top view: a point's screen offset from the centre is
        // (point - focus) / scale, which must not change.
        let (focus, p) = (Vec3::new(10.0, 0.0, 5.0), Vec3::new(14.0, 0.0, 2.0));
        for (old, new) in [(2.0, 1.6), (1.0, 1.25), (0.5, 0.05)] {
            let f = focus_after_zoom(focus, p, old, new);
            let before = (p - focus) / old;
            let after = (p - f) / new;
            assert!((before - after).length() < 1e-5, "{before} vs {after}");
        }
        // Zooming at the focus itself moves nothing.
        assert_eq!(focus_after_zoom(focus, focus, 2.0, 1.0), focus);
        assert_eq!(focus_after_zoom(focus, p, 0.0, 1.0), focus);
    }
}
