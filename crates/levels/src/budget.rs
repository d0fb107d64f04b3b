//! Memory budget: the largest level a loader will accept.
//!
//! Every loader checks the sizes a file *declares* (PNG header dimensions,
//! vertex and face counts, counts in a polyanya header) against the budget
//! before it allocates for them, so a tiny hostile file cannot make the
//! process reserve gigabytes.

use crate::error::Fault;

/// Limits on what a level may need. [`Budget::default`] suits a desktop
/// machine with a few GiB to spare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Largest file read, in bytes (default 512 MiB).
    pub max_file_bytes: u64,
    /// Largest raster, in pixels (default 64 M).
    pub max_cells: u64,
    /// Most triangles in a mesh level (default 20 M).
    pub max_triangles: u64,
    /// Most vertices in a mesh, floor plan or polyanya mesh (default 20 M).
    pub max_vertices: u64,
    /// Most brushes in a brush level (default 1 M).
    pub max_brushes: u64,
    /// Most layers in a multi-layer environment (default 10 000).
    pub max_layers: u64,
    /// Most corners of one OBJ face (default 1024). A face is cut into a
    /// fan of corners - 2 triangles; a face of a million corners is a
    /// million slivers across the whole face, which no mesh pipeline
    /// handles in reasonable time.
    pub max_face_corners: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Self {
            max_file_bytes: 512 << 20,
            max_cells: 64_000_000,
            max_triangles: 20_000_000,
            max_vertices: 20_000_000,
            max_brushes: 1_000_000,
            max_layers: 10_000,
            max_face_corners: 1024,
        }
    }
}

impl Budget {
    /// The default limits, with no file read that is larger than the
    /// process's memory budget (`--budget` on the CLI, the app's setting):
    /// a file the budget could not hold is refused before it is read.
    pub fn within(memory: navscope_core::MemoryBudget) -> Self {
        let defaults = Self::default();
        Self {
            max_file_bytes: defaults.max_file_bytes.min(memory.bytes()),
            ..defaults
        }
    }

    /// Checks `count` of `what` (e.g. "pixels") against `limit`: a budget
    /// fault naming `element` when it is over.
    pub(crate) fn check(element: &str, what: &str, count: u64, limit: u64) -> Result<(), Fault> {
        if count > limit {
            Err(Fault::budget(
                element,
                format!(
                    "{count} {what} exceed the memory budget of {limit} {what}; refusing to load"
                ),
            ))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_budget_caps_the_file_size_only() {
        use navscope_core::MemoryBudget;
        let small = Budget::within(MemoryBudget::new(1 << 20));
        assert_eq!(small.max_file_bytes, 1 << 20);
        assert_eq!(small.max_cells, Budget::default().max_cells);
        assert_eq!(Budget::within(MemoryBudget::unlimited()), Budget::default());
    }

    #[test]
    fn over_budget_names_the_limit() {
        assert!(Budget::check("image", "pixels", 10, 10).is_ok());
        let f = Budget::check("image", "pixels", 11, 10).unwrap_err();
        assert_eq!(
            f.problem,
            "11 pixels exceed the memory budget of 10 pixels; refusing to load"
        );
        assert_eq!(Budget::default().max_file_bytes, 536_870_912);
    }
}
