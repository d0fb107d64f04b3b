//! Why a NavMesh is in pieces and why a path fails (issue 39, DESIGN
//! principle 9): the connected parts of a mesh ([`islands()`]), the gap
//! between two parts or between the two sides of a failed query
//! ([`Gap`]), and the smallest change of one pipeline parameter that joins
//! them, found by building and searching again ([`fix::find_fixes`]).
//!
//! Bevy-free and generic over every pipeline's [`navscope_core::NavMesh`]:
//! links are followed as [`navscope_path::astar`] follows them (directed,
//! only the kinds the search options allow, never into a forbidden stance).

pub mod fix;
pub mod gap;
pub mod islands;
pub mod place;
pub mod reach;
pub mod spawn;

pub use fix::{FixBudget, find_fixes};
pub use gap::{Fix, Gap, closest_gap, failed_path_gap};
pub use islands::{Island, islands};
pub use spawn::floor_under;
