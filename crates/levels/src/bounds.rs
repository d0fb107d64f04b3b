//! Numbers in range: every coordinate a level gives must lie within
//! ±[`MAX_COORD`] metres (100 km, the bound brushes already had), so no
//! pipeline ever sees a number whose square or product overflows, and
//! nothing infinite or NaN can reach a NavMesh. Sizes (radii, half
//! extents, pixel sizes times image sizes) are held to the same bound.

pub use navscope_core::geom::polyhedron::MAX_COORD;
use navscope_core::num::short;

/// The problem with the first value of `values` that lies beyond
/// ±[`MAX_COORD`] (`what` names it: "coordinate", "radius", ...); `None`
/// when every finite value is in range. Non-finite values are left to the
/// caller's own "not a finite number" check.
pub(crate) fn beyond(what: &str, values: impl IntoIterator<Item = f64>) -> Option<String> {
    values
        .into_iter()
        .find(|v| v.is_finite() && v.abs() > MAX_COORD)
        .map(|v| {
            format!(
                "{what} {} is beyond the largest allowed, ±{} m",
                short(v),
                short(MAX_COORD)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_named_with_the_bound() {
        assert_eq!(beyond("coordinate", [0.0, -1e5, 1e5]), None);
        assert_eq!(beyond("coordinate", [f64::NAN, f64::INFINITY]), None);
        assert_eq!(
            beyond("coordinate", [1.0, -1e140]).as_deref(),
            Some("coordinate -1.0e140 is beyond the largest allowed, ±100000 m")
        );
    }
}
