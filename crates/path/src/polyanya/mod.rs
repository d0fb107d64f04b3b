//! Polyanya: optimal any-angle paths over a NavMesh's polygons (Cui,
//! Harabor and Grastien, "Compromise-free Pathfinding on a Navigation
//! Mesh", IJCAI 2017), written for navscope from the paper.
//!
//! A search node is a root (the last point where the path so far bends, or
//! the start) and an interval of a polygon edge that the root sees in full;
//! expanding it projects the interval through the polygon behind it onto
//! that polygon's other edges. The estimate is the length from the root
//! through the interval to the goal. See module `search` for the details
//! and for where navscope departs from the paper's presentation, and
//! module `mesh` for how a NavMesh becomes the plan-view mesh searched.
//!
//! ## What is optimal
//! * Within polygons joined by shared edges (walking links: walk, step,
//!   crouch, portal, connection, swim) the path is the shortest in plan
//!   view (x, z), bending only at corners of the free space. Adjacency, not
//!   plan position, joins polygons, so floors over each other stay apart.
//! * Every other link is crossed by the rule A* with the funnel follows
//!   too (module `crossing` of the crate), so a path either method finds
//!   is one the other could take:
//!   - A link whose segment lies, in plan, on an edge of its source
//!     polygon and on an edge of its target, the two on either side of it
//!     (a door, a step's lip, the lip of a jump up to a ledge, a walking
//!     link one way only across an edge) is a gate: the agent leaves the
//!     source anywhere along the segment, goes on straight from there,
//!     and pays the link's price
//!     above its walk (the rule below) once. The search treats it as a
//!     shared edge whose crossing costs that price, so paths through
//!     gates are optimal as through shared edges. One exception: a path
//!     that reaches the gate's line from the polygon beside the gate on
//!     the source's floor (behind the gate, its edge shared with that
//!     polygon) takes the gate at its middle, as a point link; a
//!     straight way through the gate would turn back there.
//!   - Every other link (a jump or a drop from its takeoff to its
//!     landing, a swim from face to face, a ladder, a teleport, a link
//!     without a segment) is a point link: the agent walks to its entry
//!     point in the source polygon (the segment's end on the source's
//!     side, its middle where it lies on the source's edge, else the
//!     source node's position), is carried to its exit point in the
//!     target (the segment's other end, its middle, or the target node's
//!     position; each kept inside its polygon)
//!     and pays what the link asks above its walk, by A*'s rule:
//!     `max(0, cost - walked)`, `walked` being the plan length from the
//!     source node's position through the link's middle to the target's
//!     (a link's `cost` is its price from node to node, the walk
//!     included). The entry-to-exit distance counts as walked. A
//!     teleport carries the agent: it costs its `cost`.
//!
//!   The search minimises plan length plus the links' prices, and is
//!   optimal for that sum among paths that cross each link by its rule;
//!   A* with the funnel crosses by the same rule, so its path priced that
//!   way is never cheaper (the `stacked` property test).
//! * Stance and area multipliers: Polyanya measures length, so the
//!   multipliers do not weigh the path inside polygons; a multiplier that
//!   is infinite forbids its polygons (never entered), and link kinds the
//!   options forbid are never crossed. Where an agent should pay more for
//!   crouching or swimming, [`crate::Method::AStar`] weighs every node by
//!   its multiplier, at the price of paths that are not the shortest.
//!   Between cost classes (stances, areas) the shortest walk therefore
//!   ignores the class; the returned [`AnyAnglePath::cost`] is the length
//!   plus point-link costs it minimised.
//! * Link-kind filters apply to the shared edges a straight leg crosses;
//!   a path that bends at a vertex may go on into any polygon around that
//!   vertex whose stance is allowed, whatever kinds join them.
//! * Where the free space touches itself at a point of one floor (corners
//!   with the same 3D position, no shared edge), a path may pass through
//!   that point, as in the polyanya crate; A* (links only) cannot.
//! * The waypoints' heights come from the polygons' planes (vertices keep
//!   their own height); the reported length is measured along them in 3D.

mod export;
mod mesh;
mod price;
mod search;

pub use export::to_polyanya_mesh;
pub use mesh::PolyMesh;
pub use price::cost_of;
pub use search::{AnyAnglePath, Searcher, StepKind, TraceStep};
