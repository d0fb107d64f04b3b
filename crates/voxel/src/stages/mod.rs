//! The stages, their artifacts and how each draws itself.
//!
//! Every per-tile stage maps its tiles with rayon and collects them in tile
//! order, so the result does not depend on the thread count. Drawing is
//! bounded: every voxel span of a tile's core is one `VoxelColumn` (the
//! app instances cubes), and an artifact draws at most [`MAX_PRIMITIVES`]
//! primitives, then one label saying how many were left out. The stages
//! with passes record one sub-step per pass, highlighting the outline of
//! the pass's own spans ([`crate::outline`], computed on demand).
//!
//! One module a stage, each importing only the stages before it in the
//! pipeline; `common` holds what they share.

mod common;
mod compact;
mod contours;
mod detail;
mod drops;
mod flag;
mod graph;
mod movers;
mod polymesh;
mod regions;
mod simplify;
mod tiles;
mod triangulate;
mod voxelize;

pub use common::{MAX_PRIMITIVES, Prims};
pub use compact::CompactArtifact;
pub use contours::{ContourArtifact, PerRegion, RegionOutput};
pub use detail::DetailArtifact;
pub use flag::FlagArtifact;
#[cfg(test)]
pub(crate) use flag::claimed_kind;
pub use graph::GraphArtifact;
pub use movers::MoverArtifact;
pub use polymesh::PolyMeshArtifact;
pub use regions::PartitionArtifact;
pub use simplify::SimplifyArtifact;
pub use tiles::TilesArtifact;
pub use triangulate::TriangulateArtifact;
pub use voxelize::VoxelArtifact;

/// The stage functions in order: `(id, function)`.
pub const FUNCTIONS: [(&str, navscope_core::stage::StageFn); 13] = [
    ("tiles", tiles::run_tiles),
    ("voxelize", voxelize::run_voxelize),
    ("compact", compact::run_compact),
    ("flag", flag::run_flag),
    ("regions", regions::run_partition),
    ("contours", contours::run_contours),
    ("simplify", simplify::run_simplify),
    ("triangulate", triangulate::run_triangulate),
    ("polymesh", polymesh::run_polymesh),
    ("detail", detail::run_detail),
    ("graph", graph::run_graph),
    ("movers", movers::run_movers),
    ("drops", drops::run_drops),
];
