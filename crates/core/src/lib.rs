//! # navscope-core
//!
//! The foundation every navscope crate builds on. It knows nothing of Bevy.
//!
//! * [`geom`]: plan geometry in f64 with exact orientation tests (`robust`),
//!   polygons with holes and their validity checks, triangle meshes, AABBs and
//!   planes.
//! * [`level`]: the in-memory level kinds (floor plans, rasters, triangle
//!   meshes, brushes, multi-layer environments). Parsing lives in
//!   `navscope-levels`; pipelines only ever see these types.
//! * [`brush`]: brush levels (brushes, contents, entities, where doors and
//!   lifts rest), re-exported by [`level`].
//! * [`movers`]: what a brush level's doors, lifts, liquids and triggers
//!   mean to an agent (regions and lifts), derived once for every pipeline.
//! * [`params`]: self-describing parameters, their values and RON presets.
//! * [`draw`]: the drawable primitives every artifact turns itself into.
//! * [`describe`]: what an inspector shows of an element: a NavMesh node's
//!   or link's fields, or its drawn shapes' measures, with units.
//! * [`outside`]: the outside of a sealed Quake map, flooded as `qbsp`
//!   does, so that no pipeline makes NavMesh on a map's roof.
//! * [`facts`]: what depends on the level alone (its seal), worked out
//!   once per level and shared by a runner's stages and clones.
//! * [`heap`]: [`heap::MinCost`], the smallest-cost-first `BinaryHeap` entry
//!   the Dijkstra-style searches share.
//! * [`stage`]: stages, pipelines and the caching [`stage::Runner`].
//! * [`num`]: numbers as error messages print them ([`num::short`]).
//! * [`budget`]: the [`MemoryBudget`] every stage checks its large
//!   allocations against, and the refusal message that says what they
//!   would need.
//! * [`navmesh`]: the common `NavMesh` every pipeline ends in, with its JSON
//!   contract and OBJ export.
//!
//! ## Coordinates
//! World space is Bevy's: Y up, right-handed, metres. 2D pipelines work on the
//! ground plane in *plan coordinates* `(x, -z)`: the plan is the level seen from
//! above with +X to the right and -Z (Bevy's "forward") up the page. With that
//! mapping the usual mathematical orientation of 2D code (counter-clockwise =
//! positive signed area) *is* counter-clockwise seen from +Y, the winding the
//! NavMesh contract asks for. Convert only through [`geom::plan_to_world`] and
//! [`geom::world_to_plan`]. Files always hold world coordinates (`[x, z]`).

pub mod brush;
pub mod budget;
pub mod describe;
pub mod draw;
pub mod facts;
pub mod geom;
pub mod heap;
pub mod jump;
pub mod level;
pub mod movers;
pub mod navmesh;
pub mod num;
pub mod outside;
pub mod params;
pub mod stage;
pub mod swim;
#[cfg(test)]
mod test_support;

pub use budget::{MemoryBudget, OverBudget};
pub use draw::{Primitive, Shape};
pub use navmesh::{Link, LinkKind, NavMesh, Node, StampedNavMesh, Stance};
pub use params::{ParamKind, ParamSpec, ParamValue, ParamValues};
pub use stage::{
    Artifact, PathAnswer, Pipeline, Runner, Stage, StageContext, StageError, StageInfo,
};
