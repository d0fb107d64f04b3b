//! # navscope-layers
//!
//! The `layers` pipeline: van Toll, Cook and Geraerts, *Multi-Layered
//! Navigation Meshes* (2011) — the medial axis of a multi-layered
//! environment and, annotated with closest obstacle points, the explicit
//! corridor map built on it.
//!
//! ## Input
//! A [`LayeredLevel`]: layers (2D polygons with holes, each lying in one
//! plane: the paper's definition) and directed connections. A layer is
//! given by its plan (the polygons seen from above) and its plane's height
//! over the plan ([`navscope_core::level::LayerPlane`]): horizontal for a
//! floor, inclined for a ramp or a stair flight, which rises from the
//! height of the layer at its foot connection to that of the layer at its
//! head (the samples' stairs and ramps; level files give three world
//! points of the plane, see `navscope_levels`). Vertical planes and planes
//! steeper than 60° are refused with the layer's name. A connection `a -> b` from
//! layer `f` to layer `t` joins the part of `f` to the *left* of `a -> b`
//! (its access side) to the part of `t` to its *right*: walking across the
//! segment leftwards-to-rightwards moves an agent from `f` to `t`, and back.
//! The other two sides (right on `f`, left on `t`) are walls: the paper's
//! obstacle side. The connection may lie inside both layers (a stair head
//! in the middle of a floor) or on a layer's boundary (a stair flight
//! meeting a landing); its access sides must face free space.
//!
//! ```text
//!   layer f (height 0)            layer t (height 3)
//!   +-------------------+         +-------------------+
//!   |         b         |         |         b         |
//!   |  access ^  wall   |         |  wall   ^  access |
//!   |   side  |  side   |         |  side   |   side  |
//!   |         |         |         |         |         |
//!   |         a         |         |         a         |
//!   +-------------------+         +-------------------+
//!   (plan view, a -> b pointing up the page) walking east across a -> b
//!   on f continues east on t, and back
//! ```
//!
//! ## Algorithm (stages)
//! | stage id | paper | what it publishes |
//! |---|---|---|
//! | `layer-axes` | §3.2 step 1 | per layer, with every connection closed, the medial axis: the primary edges of the segment Voronoi diagram (`boostvoronoi`) that lie in free space, each with its clearance and two closest obstacle points; vertices where the nearest obstacle changes |
//! | `influence-zones` | §3.1 | per connection, the points whose nearest obstacle is its access side (shaded) |
//! | `connection-scenes` | §3.1 | per connection, the obstacles across its zone's boundary, in plan |
//! | `open-connections` | §3.2 step 2 | connections opened one at a time (one sub-step each): the scene's Voronoi diagram replaces the axis inside the zone; edges are cut where they cross an open connection |
//! | `corridor-map` | §4 | the merged axis with closest-point annotations and the walkable areas they bound |
//! | `navmesh` | §4 | the common NavMesh: a node per axis vertex (with its layer), walk links along edges, `connection` links across connections |
//! | `paths` | §4 | a query between the roomiest points of the lowest and highest layers: retraction, A* backbone, corridor, short path keeping the `clearance` ([`paths`]) |
//!
//! ## Choices where the paper is open
//! * **Geometry on a grid.** `boostvoronoi` needs integer input. Plan
//!   coordinates are snapped to a grid of `grid` metres (parameter, 1 mm by
//!   default; ±2²⁸ steps at most), and obstacle segments are split where they
//!   touch or overlap so they meet only at endpoints ([`grid::arrange`]).
//! * **Parabolic arcs** (point–segment bisectors) are cut into chords within
//!   `arc_tolerance` metres of the arc (parameter, 1 cm by default).
//! * **Projection onto the layers' planes (§3).** The paper projects a
//!   connection scene onto the plane supporting the connection's first
//!   layer `L_i` and computes its medial axis there, a heuristic because a
//!   projection does not keep distances. Here the projection is along the
//!   vertical: a scene obstacle keeps its plan position and is lifted onto
//!   `L_i`'s plane (that is where the `connection-scenes` stage and the
//!   opening sub-steps draw it), and every distance — on one layer, across
//!   layers in a scene, and so every clearance — is measured in plan, the
//!   projection every layer shares. Why one metric for all: an opening
//!   joins the scene's axis to the axes of the neighbouring layers where
//!   they cross the zone boundary, and the pieces meet there only if both
//!   were computed with the same distance (a per-plane metric would put the
//!   inclined layer's axis elsewhere than a floor's along the same
//!   boundary). What it costs: on a layer inclined by θ a distance along
//!   the slope is `1 / cos θ` times its plan distance (6.8% for the
//!   samples' 21° flights, 8.8% for the bridge's 23° ramps; across the
//!   slope they agree), so the axis of a ramp is the plan axis, not the
//!   in-plane one. What it guarantees: a 3D distance is never less than
//!   its plan distance, so every clearance reported or kept here is a
//!   lower bound of the clearance on the surfaces. For horizontal layers
//!   everything is exact. A straight plan segment on a layer lifts to a
//!   straight segment of its plane, so the axis, corridors and paths are
//!   lifted point by point ([`navscope_core::level::LayerPlane::lift`]);
//!   the NavMesh's walk links and the path's A* cost their lengths on the
//!   planes, a join costs the height difference at the connection (zero
//!   where a flight meets its floor), and where a leg of a path crosses a
//!   connection the path gets a point on each side of it, so its heights
//!   follow the surfaces without jumps.
//! * **Connection-scene heuristic.** The scene is taken as the Voronoi neighbours of the
//!   access-side sites — the sites across the zone's boundary edges, on any
//!   layer — plus the connection's two endpoints (which stay as the ends
//!   of its walls). Removing a Voronoi site hands its cell to its
//!   neighbours, so these are the only obstacles that can be nearest inside
//!   the zone (the paper's Lemma 2). Where obstacles of different layers
//!   coincide in plan they are merged into one scene segment.
//! * **The scene's diagram is unbounded.** No frame of obstacles is put
//!   around a scene; its infinite Voronoi edges (only ever bisectors of two
//!   points) are cut to straight pieces reaching past a disk that holds the
//!   scene's bounding box grown by twice its larger side, which holds the
//!   zone ([`voronoi::Reach`]).
//! * **Keeping the zone's part of the scene axis.** A point is inside the
//!   zone when it lies in the connection's perpendicular slab and is closer
//!   to the connection than to every zone neighbour on its side (exact, no
//!   polygon clipping); crossings are found by bisection and snapped onto
//!   the old zone-boundary vertices (within `2 * (arc_tolerance + grid)`),
//!   which is where old and new axes
//!   meet. Crossings matching no old vertex are counted ("unmatched
//!   crossings"; 0 on every sample level).
//! * **Layers of new edges** are found by walking from the edge's foot on
//!   the connection to the edge, switching layers at open connections
//!   ([`open::walk`]).
//! * **Repeated connections.** A connection equal to an earlier one with
//!   the segment reversed and `from`/`to` swapped makes the same join (level
//!   files often list both directions); it is opened once and its sub-step
//!   says so.
//! * **Where edges cross a connection** the crossing point becomes two
//!   vertices, one per layer, joined by a [`axis::Join`]; the NavMesh turns a
//!   join into two `connection` links whose cost is the height difference.
//!
//! * **The path stage** has no query input (stages are pure functions of
//!   the level and parameters): it demonstrates a path between the roomiest
//!   vertices of the lowest and highest layers. [`paths::find_path`]
//!   answers any query. Its short path is the backbone pulled tight inside
//!   the clearance disks, not Geraerts' exact shortest path with clearance.
//!   `cargo test -p navscope-layers --test clearance -- --nocapture` runs
//!   40 random queries with a 0.3 m clearance on each of `two_storeys`,
//!   `bridge`, `figure5`, `figure6` and `figure7(3)` and measures every
//!   path by brute force every 5 cm: 39, 40, 40, 40 and 40 paths found
//!   (85,812 points), least clearance 0.3018, 0.3062, 0.3219, 0.3240 and
//!   0.3098 m; lifted onto the layers' planes, the largest height change
//!   between two consecutive points is 0.0187, 0.0214, 0.0188, 0.0188 and
//!   0 m (the steepest flight climbs 2.1 cm in 5 cm) and none where a path
//!   changes layer.
//!
//! ## Drawing
//! * **Layers.** Every primitive that lies on one layer names it
//!   ([`navscope_core::draw::Primitive::on_layer`], the layer's index) so a
//!   viewer can hide unchecked layers: obstacles, connections (drawn once
//!   per layer they lie on), axis edges and vertices, influence-zone sides,
//!   scenes (on the connection's `from` layer, the plane the paper projects
//!   them onto), corridor areas, closest-point segments, clearance disks,
//!   NavMesh nodes and walk links, and the path's corridor and its runs on
//!   each layer. What joins two layers stays untagged so it shows whenever
//!   either layer does: `axis/join`, `link/connection` and the
//!   `path/backbone/across` and `path/short/across` steps between layers.
//! * **Clearance.** Axis edges are drawn as one `axis/edge` segment per
//!   chord of their polyline, each carrying
//!   ([`navscope_core::draw::Primitive::with_value`]) the clearance at the
//!   chord's midpoint ([`AxisEdge::piece_clearance`]: exact on straight
//!   edges, within the arc tolerance on parabolic arcs), so the axis can be
//!   coloured by clearance. Axis vertices, clearance disks
//!   (`corridor/disk`) and closest-point segments carry their point's
//!   clearance too.
//! * **Closest points** are their own kind, `corridor/closest` (two
//!   segments per annotated axis point, in the `corridor-map` stage), so a
//!   viewer can switch them on when wanted.
//!
//! ## Speed
//! The paper's Table 1 times building the whole mesh. Here that is the
//! stages `layer-axes` (sites and per-layer axes), `influence-zones`,
//! `connection-scenes`, `open-connections`, `corridor-map` and `navmesh`
//! (the `paths` demonstration query is left out), measured with
//!
//! ```text
//! cargo build --release -p navscope-cli
//! L="assets/levels/layers-samples/figure5.ron assets/levels/layers-samples/figure6.ron assets/levels/layers-samples/figure7-*.ron"
//! navscope-cli bench $L --runs 25 --json                     # default: 2 threads
//! RAYON_NUM_THREADS=1 navscope-cli bench $L --runs 25 --json # one thread
//! ```
//!
//! and summing the stages' medians. Each figure is the lowest of six such
//! runs, with the median of the six in brackets, on a 2-vCPU virtual
//! machine (AMD EPYC); the paper's are from a Core2 Duo at 3 GHz, one
//! core. Single runs vary by up to twice the lowest figures when other
//! builds share the machine (`docs/history/layers.md` has the conditions
//! and a slower day's figures).
//!
//! | environment | obstacle vertices | paper | here, 2 threads | ratio | here, 1 thread | ratio |
//! |---|---|---|---|---|---|---|
//! | Figure 5 kind ([`samples::figure5`], 7 layers, 8 connections) | 230 | 46 ms | 3.24 ms (4.32) | 14x (11x) | 4.32 ms (5.04) | 11x (9x) |
//! | Figure 6 kind ([`samples::figure6`], 53 more obstacles) | 637 | 58 ms | 9.09 ms (11.8) | 6x (5x) | 12.3 ms (16.7) | 5x (3x) |
//! | Figure 7, 1 connection ([`samples::figure7`]) | 16 | 7 ms | 0.31 ms (0.45) | 23x (15x) | 0.39 ms (0.52) | 18x (14x) |
//! | Figure 7, 2 connections | 16 | 9 ms | 0.45 ms (0.53) | 20x (17x) | 0.49 ms (0.59) | 18x (15x) |
//! | Figure 7, 3 connections | 16 | 11 ms | 0.47 ms (0.67) | 24x (16x) | 0.62 ms (0.76) | 18x (14x) |
//! | Figure 7, 5 connections | 16 | 14 ms | 0.51 ms (0.79) | 27x (18x) | 0.74 ms (0.94) | 19x (15x) |
//! | Figure 7, 8 connections | 16 | 19 ms | 1.03 ms (1.36) | 19x (14x) | 1.00 ms (1.29) | 19x (15x) |
//! | Figure 7, 14 connections | 16 | 30 ms | 1.18 ms (1.60) | 26x (19x) | 1.56 ms (1.98) | 19x (15x) |
//! | Figure 7, 20 connections | 16 | 43 ms | 1.46 ms (1.94) | 30x (22x) | 1.89 ms (2.40) | 23x (18x) |
//! | Figure 7, 28 connections | 16 | 60 ms | 2.24 ms (2.73) | 27x (22x) | 2.75 ms (3.67) | 22x (16x) |
//!
//! `cargo bench -p navscope-layers` times [`build`] on the same
//! environments and on `navscope_levels::generate::stacked_floors`.
//!
//! **Where the time goes.** About 85% of the time on Figures 5 and 6 is
//! spent building the floors' Voronoi diagrams inside `boostvoronoi`
//! 0.12: on these levels its floating-point circle-event predicate gives
//! up and recomputes with exact big-integer arithmetic for 80% (Figure 5)
//! to 95% (Figure 6) of the point–segment–segment events (counted with an instrumented copy of
//! the library), which makes a Figure 6 floor (about 210 segments) cost
//! about 3 ms on one thread. Figure 6 has three such floors, the two vCPUs
//! run them only about 1.4 times faster than one, and its row misses the
//! tenfold goal (five to six times faster with two threads, three to five
//! with one). Figure 5 meets it with two threads and, at its best, with
//! one; every Figure 7 row meets it either way. In nearly every such event the point
//! is an endpoint of one of the two segments (a reflex obstacle corner),
//! and the predicate works in absolute coordinates, where the line terms
//! dwarf the result; translating or coarsening the input changes nothing.
//! Evaluating it in coordinates local to the event cuts Figure 6's exact
//! recomputations from 1541 to 952 of 1664 in the instrumented copy (about
//! 3 ms of a 16 ms single-thread build): the tenfold goal on Figure 6
//! needs a segment Voronoi builder of our own with such an event-local
//! filtered predicate. What this crate does about it:
//! * **No frame around connection scenes.** A scene's infinite edges are
//!   cut across the zone's reach ([`voronoi::Reach`]) rather than bounded
//!   by far-away obstacle segments, whose long segments with large
//!   coordinates make the library's exact arithmetic several times
//!   costlier: scene diagrams build 3 to 5 times faster without them.
//! * **A diagonal inside every strictly convex hole**, added to the
//!   Voronoi input only: the inside of a square or regular pillar is a
//!   nest of nearly degenerate events settled exactly; split, it is not.
//!   The axis is unchanged (tested equal); Figure 5's floors build about
//!   40% faster, Figure 6's about 14% (see `axis::hole_diagonals`).
//! * **Scene diagrams ahead, in parallel.** With more than one thread,
//!   every connection's scene diagram is computed in parallel from the
//!   layer axes and used at its opening when the zone's neighbours are
//!   unchanged (all of them on Figures 5 and 6, 20 of 28 on Figure 7);
//!   the result is the same.
//! * Layers built in parallel, largest first, one per task; layers
//!   validated in parallel; Voronoi edges inside obstacles dropped before
//!   their arcs are cut into chords; axis vertices merged through an
//!   allocation-free cell table with a cheap hash; the free-space test of
//!   point–point edges skips holes by bounding box; point sites classified
//!   in one pass.
//!
//! Table 1's other columns, the merged mesh's edges and pairs of closest
//! points, on [`samples::figure7`] (grid 1 mm, arc tolerance 1 cm; here
//! every polyline point of an edge carries a closest-point pair, edges are
//! cut at every connection and wherever the nearest obstacle changes, and
//! parabolic arcs are drawn as chords):
//!
//! | connections | paper: edges, pairs | here: edges, pairs |
//! |---|---|---|
//! | 1 | 15, 42 | 36, 133 |
//! | 2 | 19, 55 | 44, 160 |
//! | 3 | 23, 68 | 54, 168 |
//! | 5 | 31, 94 | 68, 210 |
//! | 8 | 43, 133 | 92, 232 |
//! | 14 | 66, 208 | 136, 344 |
//! | 20 | 88, 281 | 180, 404 |
//! | 28 | 119, 382 | 244, 532 |
//!
//! Both grow linearly with the connections, as the paper's do: 7.7 edges
//! and 14.8 pairs per added connection here against 3.9 and 12.6 (twice
//! the paper's edges because each connection cuts the axis crossing it
//! into one edge per layer). `tests/properties.rs` checks the growth;
//! the counts come from [`build`] (`merged.edges.len()` and the sum of
//! `points.len()`).

pub mod axis;
pub mod grid;
pub mod open;
pub mod paths;
pub mod samples;
pub mod sites;
pub mod stages;
pub mod verify;
pub mod voronoi;

use navscope_core::level::{LayeredLevel, LevelKind};
use navscope_core::{ParamSpec, Pipeline, Stage, StageInfo};

pub use axis::{Axis, AxisEdge, AxisPoint, AxisVertex, Join};
pub use open::{Opening, Settings};
pub use sites::Sites;

/// Opening settings for a grid step and an arc tolerance (metres). Axis
/// vertices merge when closer than a thousandth of the grid step (the same
/// Voronoi vertex computed in two diagrams); zone crossings snap onto old
/// vertices within `2 * (tolerance + grid)`.
pub fn settings(grid: f64, tolerance: f64) -> Settings {
    Settings {
        grid: grid::Grid { step: grid },
        tolerance,
        snap: grid * 1e-3,
    }
}

/// Everything the algorithm computes, for library use.
#[derive(Clone, Debug)]
pub struct Built {
    /// Obstacle sites.
    pub sites: Sites,
    /// The per-layer axes (every connection closed).
    pub layer_axes: Axis,
    /// The merged axis: the explicit corridor map's skeleton.
    pub merged: Axis,
    /// What each opening did.
    pub openings: Vec<Opening>,
}

/// Runs the whole algorithm, opening the connections in `order` (indices
/// into `level.connections`; every connection should appear once).
pub fn build_in_order(
    level: &LayeredLevel,
    set: &Settings,
    order: &[usize],
) -> Result<Built, String> {
    if let Some(&c) = order.iter().find(|&&c| c >= level.connections.len()) {
        return Err(format!("connection {c} does not exist"));
    }
    let sites = Sites::build(level, set.grid)?;
    let layer_axes = axis::layer_axes(&sites, set.grid, set.tolerance, set.snap)?;
    let (merged, openings) = open::merge(&layer_axes, &sites, set, order)?;
    Ok(Built {
        sites,
        layer_axes,
        merged,
        openings,
    })
}

/// The `k`-th permutation of `0..n`: connection `i` of the order is taken
/// from the connections left by the mixed-radix digit `k mod (n - i)`
/// (then `k` is divided by `n - i`), so 0 is index order and every order
/// of `n` connections has a number below `n!`.
pub fn opening_order(n: usize, mut k: u64) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let base = (n - i) as u64;
        out.push(pool.remove((k % base) as usize));
        k /= base;
    }
    out
}

/// Runs the whole algorithm, opening connections in index order.
pub fn build(level: &LayeredLevel, set: &Settings) -> Result<Built, String> {
    let order: Vec<usize> = (0..level.connections.len()).collect();
    build_in_order(level, set, &order)
}

/// The `layers` pipeline.
pub fn pipeline() -> Pipeline {
    Pipeline {
        id: "layers",
        stage_aliases: &[],
        title: "Multi-layered navigation meshes (van Toll, Cook & Geraerts)",
        accepts: vec![LevelKind::Layers],
        params: vec![
            ParamSpec::float(
                "grid",
                "Grid step",
                "m",
                0.001,
                1e-5,
                0.1,
                0.0005,
                "Plan coordinates are snapped to this grid for the exact integer Voronoi diagram.",
            ),
            ParamSpec::float(
                "clearance",
                "Path clearance",
                "m",
                0.3,
                0.0,
                5.0,
                0.05,
                "Distance the demonstration path keeps from every obstacle.",
            ),
            ParamSpec::int(
                "opening_order",
                "Opening order",
                "",
                0,
                0,
                1_000_000,
                "Which order the connections open in: 0 opens them by index, k the k-th permutation (mixed-radix digits of k pick the next connection). The merged axis is the same for every order (the paper's order independence).",
            ),
            ParamSpec::float(
                "arc_tolerance",
                "Arc tolerance",
                "m",
                0.01,
                1e-4,
                1.0,
                0.005,
                "Largest distance between a parabolic medial-axis arc and the chords drawn for it.",
            ),
        ],
        stages: vec![
            Stage {
                info: StageInfo::new(
                    "layer-axes",
                    "Layer medial axes",
                    "Each layer on its own, with every connection closed like a wall: the medial axis is the set of points with two or more nearest obstacles. It comes from the Voronoi diagram of the obstacle segments, keeping edges in free space. Each edge knows its clearance and its two closest obstacle points; vertices mark where the nearest obstacle changes.",
                    "van Toll et al. §3.2 step 1",
                    &["grid", "arc_tolerance"],
                ),
                run: stages::run_layer_axes,
            },
            Stage {
                info: StageInfo::new(
                    "influence-zones",
                    "Influence zones",
                    "For each connection, the points whose nearest obstacle is its access side. Only these points change their nearest obstacle when the connection opens (Lemma 1).",
                    "van Toll et al. §3.1",
                    &[],
                ),
                run: stages::run_zones,
            },
            Stage {
                info: StageInfo::new(
                    "connection-scenes",
                    "Connection scenes",
                    "For each connection, the obstacles nearest to the zone's boundary, on both layers, laid in one plane. They are the only obstacles that can become nearest inside the zone (Lemma 2).",
                    "van Toll et al. §3.1",
                    &[],
                ),
                run: stages::run_scenes,
            },
            Stage {
                info: StageInfo::new(
                    "open-connections",
                    "Opening connections",
                    "Connections open one at a time: the medial axis of the connection scene replaces the axis inside the influence zone, on every affected layer. Edges crossing a connection are cut there so each edge lies on one layer; the axes of the two layers join at the cut.",
                    "van Toll et al. §3.2 step 2",
                    &["opening_order"],
                ),
                run: stages::run_open,
            },
            Stage {
                info: StageInfo::new(
                    "corridor-map",
                    "Explicit corridor map",
                    "The merged medial axis with its closest-point annotations: every axis point knows its clearance disk and the obstacle points that bound it, which partitions the walkable space into areas along the edges.",
                    "van Toll et al. §4, Geraerts 2010",
                    &[],
                ),
                run: stages::run_corridor,
            },
            Stage {
                info: StageInfo::new(
                    "navmesh",
                    "Navigation mesh",
                    "Axis vertices become nodes on their layer, edges become walk links, and the cuts at connections become connection links between layers.",
                    "van Toll et al. §4",
                    &[],
                ),
                run: stages::run_navmesh,
            },
            Stage {
                info: StageInfo::new(
                    "paths",
                    "Paths in the corridor",
                    "Stepped: retraction, A* on the backbone, corridor, pull. A query from the roomiest point of the lowest layer to that of the highest: both ends are retracted onto the medial axis, A* finds a backbone path along it (using only edges wide enough for the clearance), the walkable areas along the backbone form the corridor, and the backbone is pulled tight inside its clearance disks to give a short path that keeps the clearance.",
                    "van Toll et al. §4",
                    &["clearance"],
                ),
                run: stages::run_paths,
            },
        ],
    }
}
