//! Number guards shared by the geometry modules (kept apart so that
//! `detail` and `surface`, which both use them, do not import each other).

/// True for a number greater than zero (false for NaN), so that guards
/// like `if !positive(len)` also catch NaN.
pub(crate) fn positive(x: f64) -> bool {
    x > 0.0
}
