//! # navscope-navgraph
//!
//! The navigation-graph methods of the article "Navigation graph
//! generation" (Delaunay triangulation of designer nodes, image processing
//! of raster floor plans, art-gallery and dual graphs, hierarchical
//! super-graphs) as two navscope pipelines.
//!
//! ## Two pipelines
//! The article starts from two different inputs, and a pipeline accepts
//! level kinds, so each input gets its own pipeline:
//!
//! * [`nodes_pipeline`] (`navgraph-nodes`, floor plans with named nodes and
//!   blocking primitives): the table's first three stages; the designer
//!   places the nodes and the tool connects and checks them.
//! * [`pipeline`] (`navgraph`, raster floor plans): the other six, fully
//!   automatic.
//!
//! | id | stage | article | module |
//! |---|---|---|---|
//! | `inflate` | boxes and cylinders grown by the agent radius (Minkowski sum) | "finite size of the agents", Fig. 6 | [`primitives`] |
//! | `delaunay` | Delaunay graph of the nodes; edges into blocked space removed, edges whose corridor (the nodes' disks joined by outer tangents) hits blocked space flagged | "Connecting nodes via triangulation", Fig. 5, 7 | [`nodes`] |
//! | `voronoi` | Voronoi cells; a node is badly placed when its cell minus the primitives is not convex or does not contain it | Fig. 8 and the formal requirement | [`nodes`] |
//! | `binary` | the level's obstacle mask (colour rules applied by the loader) dilated by the agent radius with an exact Euclidean distance transform | image processing, "dilation" | [`binary`] |
//! | `contours` | contours with hierarchy (outer boundaries and holes, `RETR_CCOMP`-like) | Fig. 10 | [`contours`] |
//! | `simplify` | Douglas-Peucker with a tolerance, repaired until the rings are valid again | "approximating contours" | [`simplify`] |
//! | `triangulate` | constrained Delaunay triangulation (spade), faces outside navigable space removed | Fig. 11, 12 | [`triangulate`] |
//! | `graphs` | dual graph at incentres with inscribed radii, extended with the triangulation's vertices and edges, repaired dual edges; art-gallery graph with connecting nodes | Fig. 13 to 16 | [`graphs`] |
//! | `supergraph` | automatic partition into regions joined by portals; two-level search; start-node skipping | "Hierarchical graphs", Fig. 17 | [`supergraph`] |
//!
//! Every graph is exported as the common [`NavMesh`](navscope_core::NavMesh)
//! with point nodes and `walk` links (the dual graph's triangle nodes carry
//! their triangle as polygon, so navscope-path's locator finds the triangle
//! a point stands in). The `navgraph` pipeline's mesh is the extended dual
//! graph; the art-gallery graph's mesh is in [`graphs::GalleryGraph::mesh`]
//! and the super-graph's in [`supergraph::SuperGraph::mesh`]. Path search
//! reuses navscope-path's A* on both levels of the hierarchy; the two-level
//! logic, the start-node skip and line-of-sight shortcutting are here
//! ([`raster_stages::SuperGraphArtifact::route`]). Path queries (the app's
//! probe, `navscope-cli path`) are answered by the `supergraph` stage's
//! `path_between` with the article's scheme (base search within the regions
//! of the super path), drawing the regions the super-graph search expanded
//! and the super path beside the path. Dual-graph triangle nodes carry
//! their inscribed radius as the NavMesh node `radius`.
//!
//! ## Written by hand, and why
//! * The exact Euclidean distance transform (Felzenszwalb-Huttenlocher):
//!   `imageproc` without default features has only L1 / L-infinity ones.
//! * Contour tracing with hierarchy: `imageproc` traces borders through
//!   pixel centres and does not say which component a hole belongs to;
//!   navscope traces the cracks between pixels so the rings enclose exactly
//!   the free pixels.
//! * Topology-preserving Douglas-Peucker and the exact line-of-sight test
//!   ([`walls`]): no maintained crate does either on rings with holes.
//!
//! spade does the (constrained) Delaunay triangulations, i_overlay the
//! polygon booleans of the Voronoi check, navscope-path the A* searches.
//!
//! ## Choices where the article leaves room
//! * **Inflation** is the exact Minkowski sum (rounded boxes), not the
//!   bigger box of the article's Fig. 6, and floor-plan walls are inflated
//!   the same way (the article "shrinks the navigable area").
//! * **Raster dilation** blocks a free pixel whose square comes closer than
//!   the radius to an obstacle pixel's square; outside the image is
//!   obstacle. With the one-sided simplification this makes the raster
//!   clearance exact: every point of every triangle is at least the agent
//!   radius from every obstacle pixel (bound 0, up to floating-point
//!   rounding; `tests/properties.rs` checks it exactly, triangle against
//!   square), at the cost of up to `sqrt(2)` pixels of extra margin.
//!   Measured on the sample rasters with the default tolerance
//!   (`cargo test -p navscope-navgraph --test properties
//!   sample_rasters_keep_the_agent_radius -- --nocapture`, brute force
//!   over every triangle and obstacle pixel): the least clearance is
//!   never below the radius, and the margin above it is 0.2 m (0.8 px) on
//!   `office.png` (0.25 m/px) for r = 0.3 m and 0 for r = 0.5 and 1 m, 0
//!   on `rooms.png` (0.1 m/px) for r = 0.3 and 0.5 m, and 0.7 m, 0.5 m and
//!   0 on `arena.png` (1 m/px) for r = 0.3, 0.5 and 1 m (a whole pixel is
//!   blocked for any radius up to one pixel).
//! * **Connectivity.** Free pixels touching only at a corner are not joined
//!   (4-connectivity, as an agent cannot squeeze through a corner); their
//!   contours are kept apart by a quarter-pixel chamfer.
//! * **Simplification tolerance** is in metres (default 0.75 m: a 45-degree staircase of
//!   1 m pixels, whose corners lie 0.71 m off the diagonal, simplifies) and
//!   one-sided: the triangles lie inside the free pixels and cover them up
//!   to the tolerance along the boundary.
//! * **Triangulation** is constrained Delaunay without refinement, instead
//!   of the article's "triangulate, intersect, add vertices, repeat": the
//!   same mesh without the repetition.
//! * **Visibility** ("seen", "clear") is exact against the simplified rings:
//!   touching a wall or grazing a corner is allowed, crossing is not. A
//!   sight line walks the wall grid's cells along itself from its start
//!   and stops at the first wall ([`walls::Walls::clear`]), so a blocked
//!   line costs the cells up to the wall, not its bounding box.
//! * **Ranges.** Blockers, the plan's bounds and nodes are checked against
//!   the coordinate ranges of i_overlay and spade
//!   ([`navscope_core::geom::range`]) before those crates see them: a
//!   blocker of radius 1e200 is a one-line stage error, not a panic.
//! * **Memory.** The graphs are the pipeline's largest structures and their
//!   size follows from the simplified rings (a constrained triangulation
//!   without added vertices has `vertices + 2 × holes − 2 × outer rings`
//!   triangles), so the triangulation stage checks them against the memory
//!   budget before triangulating, and a raster too large is refused in
//!   seconds with what it would need. The build holds the dual graph's
//!   NavMesh once and little else: its vectors are sized before they are
//!   filled, the super-graph shares it and the walls (its point locator is
//!   built by the first path query, the regions' polygons are drawn from
//!   the mesh as the portals are), and `navscope-cli build` streams it to
//!   the file. The NavMesh itself is the floor: on a dotted raster it has
//!   twelve links per triangle (triangle↔corner, dual edges, triangulation
//!   edges, each two-way). A [`navscope_core::Link`] is 32 bytes (its
//!   segment boxed, on the quarter of links that have one) and a
//!   [`navscope_core::Node`] borrows the default area name, so at 2000 ×
//!   2000 px the mesh takes about 1.4 GB of a 1.66 GB peak.
//!
//!   Measured on the 2-core machine (release, `navscope-cli generate
//!   dotted-raster --size N --out rN.png`, then `/usr/bin/time -v
//!   navscope-cli build rN.png --pipeline navgraph --set agent_radius=0
//!   [--out /tmp/r.json]`; peaks are the maximum resident set in kB, so
//!   1.66 GB is 1.58 GiB; `docs/history/navgraph.md` has the runs):
//!
//!   | raster | without `--out` | with `--out` |
//!   |---|---|---|
//!   | 1000 × 1000 px, 62,500 dots (375,002 triangles) | 1.8 - 1.9 s wall, 428 MB peak | 3.8 s wall |
//!   | 2000 × 2000 px, 250,000 dots (1,500,002 triangles) | 7.5 - 7.7 s wall, 1.66 GB peak (estimate ~1.7 GB, within the default 2 GB budget) | 22.6 s wall (3.8 GB of JSON written) |
//!
//!   Writing the JSON is over half of the 2000 × 2000 build. Of the
//!   stages, the graphs take the most, and of them the art-gallery guard
//!   placement, which is sequential: on a dotted raster guards look far
//!   along the open rows, so its line-of-sight walks
//!   ([`walls::Walls::clear`], [`sight`]) grow faster than the triangle
//!   count. The triangulation is next.
//! * **Art gallery.** First guard: a vertex of highest order; next ones at
//!   the highest-order corner of the first unseen triangle; a triangle is
//!   seen when the hull of guard and triangle is free (so every point of it
//!   sees the guard). Connecting nodes: the vertices of shortcut
//!   shortest vertex paths between guards whose Dijkstra regions touch.
//! * **Repaired dual edges** go through the shared corner with the shorter
//!   detour.
//! * **Partition**: breadth-first growth from seeds in triangle order,
//!   radius half of `region_size`.
//! * **Two-level search** restricts the base search to the regions of the
//!   super path (falling back to the whole base graph when a repair left
//!   them disconnected); the node path is then shortcut by line of sight,
//!   first skipping start nodes (the article's run-time fix for
//!   backtracking), then greedily onwards.
//! * **Locating a query on designer nodes** is by visibility: the nearest
//!   node the point sees, never one behind a wall (the article's Figure 4);
//!   the `voronoi` stage answers path queries this way
//!   ([`nodes::node_path`]).
//! * **Voronoi check** polygons use 32 segments per full arc, and a free
//!   cell counts as convex up to a relative turn of 1e-6.
//!
//! ## Figures
//! Measured on the 2-core development machine, release build,
//! `cargo bench -p navscope-navgraph --bench navgraph` (criterion, whole
//! pipeline through [`navscope_core::Runner`]):
//!
//! | level | size | time | targets |
//! |---|---|---|---|
//! | `assets/levels/navgraph/arena.png` | 49 x 49 px, 1 m/px | 0.47 ms | < 50 ms |
//! | `assets/levels/raster/office.png` | 80 x 60 px | 0.31 ms | |
//! | synthetic office (bench) | 2048 x 2048 px, 0.05 m/px | 0.28 - 0.50 s | < 1 s |
//! | `assets/levels/floorplan/lobby_nodes.ron` (`navgraph-nodes`) | 3 nodes, 2 primitives | 0.22 ms | |
//!
//! The table was measured before the raster clearance was made exact
//! (dilation by pixel squares, one-sided simplification);
//! `docs/history/navgraph.md` has a measurement since, on a loaded
//! machine, and the stage times on the 2048 x 2048 raster.
//!
//! `arena` with the defaults (radius 0.3 m, tolerance 0.75 m): 316 free
//! pixels blocked by the dilation,
//! 90 contour vertices simplified to 77, 85 triangles, 162 dual nodes, 10
//! guards and 8 connecting nodes, 19 regions.
//! With agent radius 0 all 160 scenarios of `arena.scen` find a path, and
//! after shortcutting the longest is 2.2 % above the scenario's
//! 8-connected optimum (`tests/arena.rs`; the test allows 10 %).
//! On `islands.png` (two wings with no way between them) the super-graph
//! answers "no path" after a handful of region expansions where A* on the
//! base graph expands every node of one wing (`tests/islands.rs`).
//!
//! The sample floor plans with nodes show the Voronoi check at work:
//! `figure4.ron` flags the node whose cell reaches round the wall's end
//! (the article's Figure 4 and 8), `hall_nodes.ron` shows that round
//! columns always bite a concave arc out of the cell holding them (the
//! formal requirement is strict), and `corridor_nodes.ron` passes.

#![warn(missing_docs)]

pub mod binary;
pub mod contours;
pub mod graphs;
pub mod node_stages;
pub mod nodes;
pub mod primitives;
pub mod raster_stages;
pub mod sight;
pub mod simplify;
pub mod supergraph;
#[cfg(test)]
mod test_support;
pub mod triangulate;
pub mod walls;

use navscope_core::level::LevelKind;
use navscope_core::{ParamSpec, Pipeline, Stage, StageInfo};

fn agent_radius() -> ParamSpec {
    ParamSpec::float(
        "agent_radius",
        "Agent radius",
        "m",
        0.3,
        0.0,
        10.0,
        0.05,
        "Blocking primitives and obstacles grow by this much so the agent is a point",
    )
}

/// The `navgraph` pipeline: raster floor plan to binary image, contours,
/// simplified rings, constrained Delaunay triangulation, dual and
/// art-gallery graphs, and super-graph.
pub fn pipeline() -> Pipeline {
    use raster_stages::*;
    Pipeline {
        id: "navgraph",
        stage_aliases: &[],
        title: "Navigation graph from a raster floor plan",
        accepts: vec![LevelKind::Raster],
        params: vec![
            agent_radius(),
            ParamSpec::float(
                "simplify_tolerance",
                "Simplification tolerance",
                "m",
                0.75,
                0.0,
                20.0,
                0.05,
                "Douglas-Peucker tolerance for the contours; simplification only ever cuts into free space, so it costs room, never clearance",
            ),
            ParamSpec::float(
                "region_size",
                "Region size",
                "m",
                20.0,
                0.5,
                10000.0,
                1.0,
                "About how wide the regions of the super-graph are",
            ),
        ],
        stages: vec![
            Stage {
                info: StageInfo::new(
                    "binary",
                    "Binary image, dilated",
                    "Pixels are obstacle or free by the level's colour rules; an exact Euclidean distance transform then blocks every free pixel whose square comes closer than the agent radius to an obstacle pixel's square, so every point of the remaining free pixels keeps the radius and the agent can be treated as a point.",
                    "Navigation graph generation, image processing",
                    &["agent_radius"],
                ),
                run: stage_binary,
            },
            Stage {
                info: StageInfo::new(
                    "contours",
                    "Contours with hierarchy",
                    "The boundaries of the free pixels: one outer contour per free component and its holes, like OpenCV's RETR_CCOMP.",
                    "Navigation graph generation, Fig. 10",
                    &[],
                ),
                run: stage_contours,
            },
            Stage {
                info: StageInfo::new(
                    "simplify",
                    "Simplified contours",
                    "Douglas-Peucker removes staircase vertices within the tolerance, one-sided: a new segment only ever cuts into free space, never towards an obstacle, so clearance is kept. Segments that would cross or touch another ring get vertices back until the rings are valid and nested as before.",
                    "Navigation graph generation, approximating contours",
                    &["simplify_tolerance"],
                ),
                run: stage_simplify,
            },
            Stage {
                info: StageInfo::new(
                    "triangulate",
                    "Constrained Delaunay triangulation",
                    "The simplified rings are triangulated with every ring edge kept; triangles outside navigable space are removed.",
                    "Navigation graph generation, Fig. 11-12",
                    &[],
                ),
                run: stage_triangulate,
            },
            Stage {
                info: StageInfo::new(
                    "graphs",
                    "Dual and art-gallery graphs",
                    "Dual graph: a node at each triangle's incentre with its inscribed radius, plus the triangulation's vertices and edges; dual edges crossing blocked space go through a shared corner. Art gallery: guards until every triangle is seen, plus connecting nodes.",
                    "Navigation graph generation, Fig. 13-16",
                    &[],
                ),
                run: stage_graphs,
            },
            Stage {
                info: StageInfo::new(
                    "supergraph",
                    "Super-graph",
                    "Triangles are grouped into regions; regions joined by portals form the super-graph, searched first so that 'no path' is answered without searching the base graph.",
                    "Navigation graph generation, Hierarchical graphs, Fig. 17",
                    &["region_size", "simplify_tolerance"],
                ),
                run: stage_supergraph,
            },
        ],
    }
}

/// The `navgraph-nodes` pipeline: floor plan with designer-placed nodes and
/// blocking primitives to inflated primitives, Delaunay graph and Voronoi
/// check.
pub fn nodes_pipeline() -> Pipeline {
    use node_stages::*;
    Pipeline {
        id: "navgraph-nodes",
        stage_aliases: &[],
        title: "Navigation graph from designer-placed nodes",
        accepts: vec![LevelKind::FloorPlan],
        params: vec![
            agent_radius(),
            ParamSpec::float(
                "node_radius",
                "Node radius",
                "m",
                0.5,
                0.0,
                10.0,
                0.05,
                "Radius of the node disks whose outer tangents bound an edge's corridor",
            ),
        ],
        stages: vec![
            Stage {
                info: StageInfo::new(
                    "inflate",
                    "Inflated blocking primitives",
                    "Boxes and cylinders grow by the agent radius (Minkowski sum), so the agent can be treated as a point.",
                    "Navigation graph generation, finite size of the agents, Fig. 6",
                    &["agent_radius"],
                ),
                run: stage_inflate,
            },
            Stage {
                info: StageInfo::new(
                    "delaunay",
                    "Delaunay graph",
                    "The nodes are joined by their Delaunay triangulation; edges entering blocked space are removed, edges whose corridor between the node disks touches it are flagged.",
                    "Navigation graph generation, connecting nodes via triangulation, Fig. 5, 7",
                    &["node_radius"],
                ),
                run: stage_delaunay,
            },
            Stage {
                info: StageInfo::new(
                    "voronoi",
                    "Voronoi check",
                    "A node is well placed when its Voronoi cell minus the blocked space is convex and contains it: then from every point the nearest node is directly reachable.",
                    "Navigation graph generation, Fig. 8",
                    &[],
                ),
                run: stage_voronoi,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines_are_consistent() {
        pipeline().check().unwrap();
        nodes_pipeline().check().unwrap();
    }
}
