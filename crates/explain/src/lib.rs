//! Why a NavMesh is in pieces, why a path fails and why a point is not on
//! the mesh (issue 39, DESIGN principle 9): the connected parts of a mesh
//! ([`islands()`]), the gap between two parts or between the two sides of
//! a failed query ([`Gap`]), the rule of the pipeline that refused the
//! link across it, measured on the level ([`rules`]), why a point of the
//! level has no mesh ([`why::why_not_here`]), and the smallest change of
//! one pipeline parameter that joins the sides or keeps the point, found
//! by building and searching again ([`fix::find_fixes`]).
//!
//! Bevy-free and generic over every pipeline's [`navscope_core::NavMesh`]:
//! links are followed as [`navscope_path::astar`] follows them (directed,
//! only the kinds the search options allow, never into a forbidden stance).
//!
//! For a user interface: with a built [`navscope_core::Runner`],
//! [`failed_path_gap`] then [`fix::explain_gap`] explain a failed search;
//! [`islands()`] colours the parts; [`why::why_not_here`] answers a click.

pub mod fix;
pub mod gap;
pub mod islands;
pub mod place;
pub mod reach;
pub mod rules;
pub mod solids;
pub mod spawn;
pub mod why;

pub use fix::{FixBudget, explain_gap, find_fixes};
pub use gap::{Fix, Gap, closest_gap, failed_path_gap};
pub use islands::{Island, islands};
pub use spawn::floor_under;
pub use why::{Why, why_not_here};
