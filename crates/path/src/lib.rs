//! # navscope-path
//!
//! Path search written once against the common [`NavMesh`] every pipeline
//! ends in: point location, A* with a recorded trace, stance-aware costs and
//! string pulling. Nothing here knows which pipeline made the mesh.
//!
//! * [`Locator`] (module `locate`): the node a 3D point stands on, through an
//!   R-tree (`rstar`) of node bounds: the polygon containing the point seen
//!   from above with the nearest height, else the nearest node, within
//!   [`Locator::max_distance`]. Heights follow a node's `detail`
//!   triangles (NavMesh version 2) where it has them, else its polygon's
//!   plane; the locator prepares every node's detail once (module
//!   `detail`).
//! * [`astar`] (module `search`): A* over the node graph with link-kind
//!   filters and per-stance cost multipliers (Kirst §32.5), returning the
//!   node and link path and the [`SearchTrace`]: every expansion in order
//!   with `g`, `h` and `f`, and the final open and closed sets, so a viewer
//!   can animate the search. Costs, heuristic and tie-breaking are documented
//!   on [`astar`]'s module. [`AStar`] is the same search with its state
//!   kept per mesh (links out of each node, area costs, arrays stamped per
//!   query instead of cleared) and the trace recorded only when asked.
//! * [`funnel()`] (module `funnel`): the simple stupid funnel over the
//!   portal sequence (module `portal`), with agent-radius clearance at
//!   corners and the stance to hold on each leg by Kirst §32.3.2's rule.
//!   Over detail surfaces the path follows them (see below).
//! * Module `crossing`: where a path goes from one node to the next over
//!   a link, one rule for the funnel and Polyanya. A segment on an edge of
//!   both polygons is crossed anywhere along it (a shared edge, a door, a
//!   lip), one on the source's edge only at its middle, any other at its
//!   ends (a jump from takeoff to landing, a swim from face to face), as
//!   Detour takes an off-mesh link; a walking link crosses the polygons'
//!   shared edge, and a link without a segment goes through the node
//!   positions.
//! * [`find_path`]: locate, search, smooth; [`PathResult::to_json`] is the
//!   CLI's path JSON.
//! * [`polyanya`]: Cui, Harabor and Grastien's optimal any-angle search
//!   over the polygons, with the mesh's other links as point links at their
//!   costs; its module docs say what is optimal where stances and areas
//!   differ. A [`polyanya::PolyMesh`] is built once per mesh and a
//!   [`polyanya::Searcher`] reuses its buffers, so a query allocates nothing
//!   in steady state; the trace (root and interval per search node) is kept
//!   only when asked for.
//! * [`PathFinder`] and [`Method`] (module `method`): the locator,
//!   Polyanya's mesh, A*'s state and the funnel's buffers built once, and
//!   either method per query (Polyanya, the default, or A* with the
//!   funnel, Detour's way), neither recording a trace. Their speed against Detour is measured by
//!   the `navscope-detour` crate's bench.
//! * [`sample`]: grid meshes for tests, benchmarks and samples.
//!
//! The A*, the funnel and Polyanya are written by hand (no maintained crate
//! searches a NavMesh with a recorded trace, pulls strings through portals,
//! or runs Polyanya over navscope's links and stacked floors; the
//! `polyanya` crate is the speed to beat, a dev-dependency of the bench
//! `benches/polyanya.rs`); the R-tree is `rstar`.
//!
//! ## Choices where the papers leave room
//! * Stance multipliers default to stand 1, crouch 1.5, prone 3, swim 2,
//!   sidestep 2. Kirst §32.5 asks that non-standing movement cost more "so
//!   that the pathway around the table is a far cheaper alternative" but
//!   gives no numbers.
//! * Each half of a link (node position to crossing midpoint, midpoint to
//!   next position) is paid at the stance multiplier of the node it lies in;
//!   a link cost above that walked length is added on top. Polyanya prices
//!   its point links by the same rule (module `polyanya`).
//! * Kirst's stance rule is applied to the smoothed path with each node's
//!   path vertex at the middle of the path's stretch through the node (see
//!   the `funnel` module); the order of restrictiveness of the five stances
//!   is in [`stance`].
//! * Agent clearance shrinks each portal by the radius at both ends, never
//!   past its midpoint.
//! * Detail surfaces: the height at `(x, z)` is that of the detail triangle
//!   containing the point seen from above (boundary included); where none
//!   does (slivers, detail short of the polygon's edge) the nearest
//!   triangle's height at its point nearest `(x, z)`, so heights stay
//!   continuous and within the detail's vertex heights; zero-area and
//!   non-finite triangles are ignored, and a node left with none uses its
//!   polygon's plane. Unlike Detour's `findStraightPath`, which returns
//!   corners only, the smoothed path gains a waypoint wherever a leg on the
//!   surface crosses a detail-triangle edge at which the surface bends, so
//!   the drawn path and its 3D length follow a hill instead of cutting
//!   through it; portal segments and legs that are off the surface (step
//!   lips, drops, swim portals at the water surface) keep their own heights
//!   (details in the `funnel` module). Nodes without detail behave as
//!   before.
//! * Everything is deterministic: ties go to the smaller `h`, then the
//!   smaller node id; the same query gives the same answer bit for bit.

mod adjacency;
mod crossing;
mod detail;
mod find;
mod funnel;
mod locate;
mod method;
mod num;
mod open;
mod plan_grid;
pub mod polyanya;
mod portal;
pub mod sample;
mod search;
pub mod stance;
mod surface;

pub use find::{PathError, PathResult, centre_polyline, find_path};
pub use funnel::{Waypoint, funnel, path_length};
pub use locate::{DEFAULT_MAX_DISTANCE, Location, Locator};
pub use method::{Answer, Method, PathFinder};
pub use navscope_core::NavMesh;
pub use search::{
    AStar, DEFAULT_MAX_EXPANSIONS, Expansion, Search, SearchOptions, SearchTrace, astar,
};
