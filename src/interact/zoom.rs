//! The mouse wheel zooms towards the cursor: the point under it stays
//! under it, as in a map viewer, instead of the view closing in on the
//! screen's centre. The orbit camera zooms by its radius (its scale in the
//! orthographic top view); after it has taken the wheel, the focus moves
//! towards the cursor's point by the same factor. The camera then moves by
//! a scaling about that point, which keeps any one point of the cursor's
//! ray in place: the one kept is the surface the cursor shows (the status
//! readout's point), else the point level with the focus.

use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_panorbit_camera::PanOrbitCamera;

use crate::interact::clicks::CursorPoint;
use crate::interact::pointer::ray_through;
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
    surface: Res<CursorPoint>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut PanOrbitCamera, &Camera, &GlobalTransform), With<MainCamera>>,
    mut last: Local<Option<f32>>,
    mut anchor: Local<Option<Anchor>>,
) {
    let scrolled = wheel.read().count() > 0;
    let cursor = windows.single().ok().and_then(|w| w.cursor_position());
    for (mut cam, camera, tf) in &mut cameras {
        let old = last.replace(cam.target_radius);
        // The cursor's ray is taken here, not from the scene pointer: a
        // hover tooltip under the cursor hides the scene from the pointer
        // but not from the orbit camera's wheel.
        let ray = cursor.and_then(|c| ray_through(camera, tf, c));
        let (Some(old), true, Some(ray)) = (old, scrolled, ray) else {
            continue;
        };
        let new = cam.target_radius;
        if (new - old).abs() <= f32::EPSILON * old.abs() || ray.dir.length_squared() == 0.0 {
            continue;
        }
        // The notches of one gesture keep the point the first one found:
        // the camera is still gliding, so the cursor's ray moves, but the
        // point stays under the cursor in the pose the camera glides to.
        let kept = anchor.filter(|a| {
            cursor.is_some_and(|c| c.distance(a.cursor) < 0.5) && a.focus == cam.target_focus
        });
        if let Some(a) = kept {
            let focus = focus_after_zoom(cam.target_focus, a.point, old, new);
            cam.target_focus = focus;
            *anchor = Some(Anchor { focus, ..a });
            continue;
        }
        // The surface under the cursor where it is on the ray, else the
        // ray's point on the plane through the focus, facing the ray.
        let on_ray = |q: Vec3| {
            let d = q - ray.origin;
            let along = d.dot(ray.dir) / ray.dir.length_squared();
            along > 0.0 && (d - ray.dir * along).length() <= 1e-3 * d.length().max(1.0)
        };
        let p = surface.0.filter(|&q| on_ray(q)).unwrap_or_else(|| {
            let t = (cam.target_focus - ray.origin).dot(ray.dir) / ray.dir.length_squared();
            ray.origin + ray.dir * t
        });
        let focus = focus_after_zoom(cam.target_focus, p, old, new);
        cam.target_focus = focus;
        *anchor = cursor.map(|cursor| Anchor {
            cursor,
            point: p,
            focus,
        });
    }
}

/// The point a wheel gesture zooms about.
#[derive(Clone, Copy, Debug)]
pub struct Anchor {
    /// Where the cursor was (window pixels).
    cursor: Vec2,
    /// The world point kept under it.
    point: Vec3,
    /// The focus the zoom left: any other move of the camera ends the
    /// gesture.
    focus: Vec3,
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
        // Perspective: the camera sits at focus + radius * back. Any point
        // of the cursor's ray, the floor under it included, stays on the
        // ray from the moved camera (the same screen pixel).
        let back = Vec3::new(0.3, 0.8, 0.5).normalize();
        let camera = focus + back * 2.0;
        let floor = camera + (p - camera) * 1.7;
        let f = focus_after_zoom(focus, floor, 2.0, 1.4);
        let moved = f + back * 1.4;
        let (was, now) = ((floor - camera).normalize(), (floor - moved).normalize());
        assert!(was.dot(now) > 1.0 - 1e-6, "{was} vs {now}");
        // Zooming at the focus itself moves nothing.
        assert_eq!(focus_after_zoom(focus, focus, 2.0, 1.0), focus);
        assert_eq!(focus_after_zoom(focus, p, 0.0, 1.0), focus);
    }
}
