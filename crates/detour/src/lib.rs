//! Detour, recastnavigation's path queries, beside navscope's in one
//! process: the reference for issue #40's speed goals (Polyanya at most
//! twice Detour's per-query time, A* with the funnel at most Detour's).
//!
//! [`Detour::build`] builds a navmesh from a level's triangles exactly as
//! the Recast demo's solo mesh does with the demo defaults (cell 0.3 m,
//! cell height 0.2 m, agent 2.0 m high, radius 0.6 m, climb 0.9 m, slope
//! 45 degrees, watershed regions 8 / 20, edges 12 m / 1.3, 6 vertices a
//! polygon, detail 6 / 1) and hands it to Detour; [`Detour::path`] answers
//! a query as the demo's path tool does (`findNearestPoly` for both ends
//! with the demo's 2 x 4 x 2 m box, `findPath`, `findStraightPath`).
//! `benches/detour.rs` races it against navscope's Polyanya and A* with
//! the funnel on the same pairs of points.
//!
//! Recast's and Detour's C++ sources (zlib licence) are not kept here. The
//! build script compiles them, with `cpp/solo_mesh.cpp`, only for release
//! builds (`cargo bench`): a debug build compiles no C++, and then
//! [`Detour::build`] returns [`Absent`]. It reads them from
//! `RECASTNAVIGATION_DIR` (a folder holding `Recast/` and `Detour/`), or
//! else from the upstream snapshot bundled in the crates.io package
//! `recastnavigation-sys` 1.0.3 in the cargo registry; `cargo fetch` in
//! any scratch crate that depends on `recastnavigation-sys = "=1.0.3"` puts
//! it there (the package itself is not a dependency: its build script needs
//! CMake and libclang, which the bench does not).

use std::fmt;

/// Why there is no Detour: the crate was built without its sources (a
/// debug build, or the sources were not found).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Absent;

impl fmt::Display for Absent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "Detour is not compiled in: build in release (cargo bench) with recastnavigation's \
             sources in RECASTNAVIGATION_DIR or in the cargo registry (recastnavigation-sys \
             1.0.3, see navscope-detour's docs)",
        )
    }
}

/// A failed Recast or Detour build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// See [`Absent`].
    Absent(Absent),
    /// A stage of the Recast build or Detour's initialisation failed.
    Failed,
    /// More vertices or triangles than C `int` indices hold.
    TooLarge,
    /// A triangle (by position) names a vertex that does not exist.
    BadTriangle(usize),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Absent(a) => a.fmt(f),
            BuildError::Failed => f.write_str("the Recast build or Detour's initialisation failed"),
            BuildError::TooLarge => f.write_str("too many vertices or triangles for Recast"),
            BuildError::BadTriangle(t) => {
                write!(f, "triangle {t} names a vertex that does not exist")
            }
        }
    }
}

impl std::error::Error for BuildError {}

#[cfg(detour)]
mod ffi {
    use std::ffi::{c_float, c_int, c_void};

    unsafe extern "C" {
        pub fn navscope_detour_build(
            verts: *const c_float,
            nverts: c_int,
            tris: *const c_int,
            ntris: c_int,
        ) -> *mut c_void;
        pub fn navscope_detour_polygons(handle: *const c_void) -> c_int;
        pub fn navscope_detour_path(
            handle: *mut c_void,
            from: *const c_float,
            to: *const c_float,
        ) -> c_float;
        pub fn navscope_detour_free(handle: *mut c_void);
    }
}

/// A Detour navmesh and its query object (the query keeps its node pool
/// and path buffers between queries, as a game's would).
pub struct Detour {
    #[cfg(detour)]
    handle: std::ptr::NonNull<std::ffi::c_void>,
}

impl Detour {
    /// Whether Detour is compiled in.
    pub const fn available() -> bool {
        cfg!(detour)
    }

    /// Builds the navmesh of a triangle soup (Y up, metres) with the Recast
    /// demo's settings.
    pub fn build(vertices: &[[f32; 3]], triangles: &[[u32; 3]]) -> Result<Self, BuildError> {
        let nv = i32::try_from(vertices.len()).map_err(|_| BuildError::TooLarge)?;
        let nt = i32::try_from(triangles.len()).map_err(|_| BuildError::TooLarge)?;
        if let Some(t) = triangles
            .iter()
            .position(|t| t.iter().any(|&i| i as usize >= vertices.len()))
        {
            return Err(BuildError::BadTriangle(t));
        }
        let tris: Vec<i32> = triangles.iter().flatten().map(|&i| i as i32).collect();
        #[cfg(detour)]
        {
            // SAFETY: the pointers cover `nv` vertices of three floats and
            // `nt` triangles of three ints; the C++ side copies what it keeps.
            let handle = unsafe {
                ffi::navscope_detour_build(vertices.as_ptr().cast(), nv, tris.as_ptr(), nt)
            };
            std::ptr::NonNull::new(handle)
                .map(|handle| Detour { handle })
                .ok_or(BuildError::Failed)
        }
        #[cfg(not(detour))]
        {
            let _ = (nv, nt, tris);
            Err(BuildError::Absent(Absent))
        }
    }

    /// The number of polygons of the navmesh.
    pub fn polygons(&self) -> usize {
        #[cfg(detour)]
        {
            // SAFETY: the handle is live until drop.
            unsafe { ffi::navscope_detour_polygons(self.handle.as_ptr()) as usize }
        }
        #[cfg(not(detour))]
        unreachable!("a Detour exists only when compiled in")
    }

    /// The length of the demo's straight path from `from` to `to`, or
    /// `None` when an end is off the mesh or the goal is not reached.
    pub fn path(&mut self, from: [f32; 3], to: [f32; 3]) -> Option<f32> {
        #[cfg(detour)]
        {
            // SAFETY: the handle is live until drop; the ends are three floats.
            let len = unsafe {
                ffi::navscope_detour_path(self.handle.as_ptr(), from.as_ptr(), to.as_ptr())
            };
            (len >= 0.0).then_some(len)
        }
        #[cfg(not(detour))]
        {
            let _ = (from, to);
            unreachable!("a Detour exists only when compiled in")
        }
    }
}

impl Drop for Detour {
    fn drop(&mut self) {
        // SAFETY: the handle came from navscope_detour_build and is freed once.
        #[cfg(detour)]
        unsafe {
            ffi::navscope_detour_free(self.handle.as_ptr())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_without_detour_says_so_and_a_bad_triangle_is_refused() {
        // A single degenerate triangle has no walkable polygon, which
        // Detour refuses to make a navmesh of.
        let r = Detour::build(&[[0.0; 3]; 3], &[[0, 1, 2]]);
        let expected = if Detour::available() {
            BuildError::Failed
        } else {
            BuildError::Absent(Absent)
        };
        assert_eq!(r.err(), Some(expected));
        let bad = [[0, 1, 2], [0, 1, 3]];
        assert_eq!(
            Detour::build(&[[0.0; 3]; 3], &bad).err(),
            Some(BuildError::BadTriangle(1))
        );
    }
}
