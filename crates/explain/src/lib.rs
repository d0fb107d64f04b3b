//! Why a NavMesh is in pieces, why a path fails and why a point is not on
//! the mesh (issue 39, DESIGN principle 9): the connected parts of a mesh
//! ([`islands()`]), the gap between two parts or between the two sides of
//! a failed query ([`Gap`]), the rule of the pipeline that refused the
//! link across it, measured on the level ([`rules`]), why a point of the
//! level has no mesh ([`why::why_not_here`]), and the smallest change of
//! one pipeline parameter that joins the sides or keeps the point, found
//! by building and searching again ([`fix::find_fixes`]) among the values
//! a designer could use ([`fix_range`]: the agent's size within a factor
//! of 2, steps below half its height, the rest in their spec ranges).
//!
//! Bevy-free and generic over every pipeline's [`navscope_core::NavMesh`]:
//! links are followed as [`navscope_path::astar`] follows them (directed,
//! only the kinds the search options allow, never into a forbidden stance).
//!
//! For a user interface, with the [`navscope_core::Runner`] that built the
//! mesh (a clone will do; run it off the frame, the fix search builds):
//! - a failed search: [`reach::Graph::new`] then `reach(start, false)` and
//!   `reach(goal, true)` are the two regions to draw; [`failed_path_gap`]
//!   is the gap, and [`fix::explain_gap`] adds the rule and the checked
//!   fix;
//! - [`islands()`] colours the parts, each with its gap to the largest;
//!   [`explain_islands`] names the rules that refuse each gap and checks
//!   fixes for the largest few;
//! - [`why::why_not_here`] answers a click (the W tool): walkable, stage,
//!   reason, fix and the shape of the thing named, to draw.

pub mod crop;
pub mod fix;
pub mod fix_range;
pub mod gap;
pub mod islands;
pub mod place;
pub mod reach;
pub mod rules;
pub mod solids;
pub mod spawn;
#[cfg(test)]
mod test_square;
pub mod why;

pub use fix::{FixBudget, explain_gap, explain_gap_with, find_fixes};
pub use gap::{Fix, Gap, closest_gap, failed_path_gap};
pub use islands::{Island, explain_islands, islands};
pub use spawn::floor_under;
pub use why::{StanceWhy, Why, per_stance, why_not_here};
