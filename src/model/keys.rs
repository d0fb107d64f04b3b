//! Reading modifier keys so that a shortcut typed faster than a frame still
//! counts: when Ctrl goes down and up within one frame together with Z (as
//! `xdotool key ctrl+z` or a quick hand does), Ctrl is no longer pressed by
//! the time the frame sees Z, but it was released during that frame.

use bevy::prelude::*;

/// True when either key is held, or was let go during this frame.
pub fn held(keys: &ButtonInput<KeyCode>, either: [KeyCode; 2]) -> bool {
    keys.any_pressed(either) || keys.any_just_released(either)
}

/// Ctrl (left or right), as [`held`] reads it.
pub fn ctrl(keys: &ButtonInput<KeyCode>) -> bool {
    held(keys, [KeyCode::ControlLeft, KeyCode::ControlRight])
}

/// Shift (left or right), as [`held`] reads it.
pub fn shift(keys: &ButtonInput<KeyCode>) -> bool {
    held(keys, [KeyCode::ShiftLeft, KeyCode::ShiftRight])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_modifier_released_in_the_same_frame_still_counts() {
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyZ);
        keys.release(KeyCode::KeyZ);
        keys.release(KeyCode::ControlLeft);
        assert!(keys.just_pressed(KeyCode::KeyZ));
        assert!(ctrl(&keys));
        assert!(!shift(&keys));
        keys.clear();
        assert!(!ctrl(&keys), "the next frame it no longer counts");
        keys.press(KeyCode::ShiftRight);
        keys.clear();
        assert!(shift(&keys), "held over frames");
    }
}
