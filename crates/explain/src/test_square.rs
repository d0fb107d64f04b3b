//! The square floor polygon the unit tests build their meshes from.

use glam::DVec3;

/// The square of side `s` at height `y` with its low corner at (x, z),
/// counter-clockwise seen from above.
pub(crate) fn square(x: f64, y: f64, z: f64, s: f64) -> Vec<DVec3> {
    vec![
        DVec3::new(x, y, z),
        DVec3::new(x, y, z + s),
        DVec3::new(x + s, y, z + s),
        DVec3::new(x + s, y, z),
    ]
}
