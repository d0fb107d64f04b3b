//! The coordinate ranges of the geometry crates the pipelines call.
//!
//! `i_overlay` (polygon booleans) panics with `CoordinatesOutOfRange` on a
//! coordinate beyond 2⁵⁰⁰ (about 3.3e150); `spade` (Delaunay) refuses a
//! coordinate beyond about 3.2e60, or a non-zero one below about 1.8e-43,
//! with a bare `TooLarge` / `TooSmall`. A pipeline checks its input with
//! [`check_points`] before it calls either, so a hostile level gets a
//! one-line message instead of a panic or debug text. (`boostvoronoi` takes
//! integers; `navscope-layers` snaps to its grid and checks the range
//! there.)

use glam::DVec2;

/// A geometry library's coordinate range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// `i_overlay`'s polygon booleans.
    Overlay,
    /// `spade`'s (constrained) Delaunay triangulations.
    Delaunay,
}

impl Library {
    /// Largest absolute coordinate accepted (with a margin below the
    /// library's own limit, for the offsets computed from the input).
    pub const fn max(self) -> f64 {
        match self {
            Library::Overlay => 1e150,
            Library::Delaunay => 1e60,
        }
    }

    /// Smallest absolute non-zero coordinate accepted.
    pub const fn min_nonzero(self) -> f64 {
        match self {
            Library::Overlay => 0.0,
            // spade's MIN_ALLOWED_VALUE, 2^-142.
            Library::Delaunay => 1.793662034335766e-43,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Library::Overlay => "polygon booleans",
            Library::Delaunay => "Delaunay triangulation",
        }
    }
}

/// Checks that every point is finite and within `lib`'s range; otherwise a
/// one-line message naming `what`, the coordinate and the range, e.g.
/// `blocker 2: coordinate 1e200 is beyond ±1e150, the range of polygon
/// booleans`.
pub fn check_points(
    lib: Library,
    what: &str,
    points: impl IntoIterator<Item = DVec2>,
) -> Result<(), String> {
    for p in points {
        for v in [p.x, p.y] {
            if !v.is_finite() {
                return Err(format!("{what}: a coordinate is not a finite number"));
            }
            if v.abs() > lib.max() {
                return Err(format!(
                    "{what}: coordinate {v:.3e} is beyond ±{:.0e}, the range of {}",
                    lib.max(),
                    lib.name()
                ));
            }
            if v != 0.0 && v.abs() < lib.min_nonzero() {
                return Err(format!(
                    "{what}: coordinate {v:.3e} is closer to zero than {:.1e}, the resolution of {}",
                    lib.min_nonzero(),
                    lib.name()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_points_are_named() {
        let ok = [DVec2::new(1.0, -1e50), DVec2::ZERO];
        assert!(check_points(Library::Delaunay, "x", ok).is_ok());
        assert_eq!(
            check_points(Library::Overlay, "blocker 2", [DVec2::new(0.0, 1e200)]).unwrap_err(),
            "blocker 2: coordinate 1.000e200 is beyond ±1e150, the range of polygon booleans"
        );
        let e = check_points(Library::Delaunay, "node 'a'", [DVec2::new(1e-50, 0.0)]).unwrap_err();
        assert!(e.contains("closer to zero"), "{e}");
        let e = check_points(Library::Delaunay, "v", [DVec2::new(1e61, 0.0)]).unwrap_err();
        assert!(e.ends_with("the range of Delaunay triangulation"), "{e}");
        let e = check_points(Library::Overlay, "v", [DVec2::new(f64::NAN, 0.0)]).unwrap_err();
        assert_eq!(e, "v: a coordinate is not a finite number");
    }
}
