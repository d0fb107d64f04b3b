//! # navscope-voxel
//!
//! Kirst, "Extending the Spatial Coverage of a Voxel-Based Navigation Mesh"
//! (Game AI Pro 2, ch. 32) as a navscope pipeline: a Recast-style voxel
//! navmesh on triangle-mesh levels whose non-walkable voxels are *recycled*
//! through further passes with other agent tables (crouch, prone, swim,
//! sidestep), so the mesh also covers the space under tables, in vents, on
//! narrow ledges and in deep water, each triangle tagged with its stance.
//!
//! The voxel stages are written by hand for this crate (as the design asks
//! for Recast-style stages); recastnavigation was read for facts (span
//! rasterisation by polygon clipping, chamfer distance over span links) but
//! no code was taken from it. `spade` does the constrained Delaunay
//! triangulation and the detail mesh's Delaunay triangulation, `rayon` runs
//! the tiles in parallel (and, inside a tile, row bands of the voxelize and
//! compact stages, regions and nodes: see [`blocks`] and [`rows`]), and
//! navscope-path gives the stance order.
//!
//! ## Stages
//!
//! | id | paper / Recast | what it publishes |
//! |---|---|---|
//! | `tiles` | §32.2.5 step 1 | grid, tiles with their overlap (`tile`, `tile/overlap`) ([`tiles`]) |
//! | `voxelize` | §32.2.2; `rcRasterizeTriangles` | solid spans (`voxel/solid`) and water (`voxel/water`) ([`heightfield`], [`blocks`]) |
//! | `compact` | `rcFilter*`, `rcBuildCompactHeightfield`, `rcMarkConvexPolyArea` | per pass: the spans it may stand on before erosion (`voxel/compact`, `voxel/area`), their side neighbours (`compact/neighbour`), the convex volumes (`volume`) ([`compact`], [`filters`]) |
//! | `flag` | §32.2.3, §32.3, §32.4; `rcErodeWalkableArea` | per pass: `voxel/walkable`, `voxel/border`, `voxel/non-walkable`, and `voxel/claimed/<stance>` from the next pass on ([`flags`], [`bands`]) |
//! | `regions` | `rcBuildDistanceField`, `rcBuildRegions` / `…Monotone` / `rcBuildLayerRegions` | per pass: the distance field (`voxel/distance`), the regions (`voxel/region`) and their connections (`voxel/region/connection`) ([`partition`]) |
//! | `contours` | §32.2.3; `rcBuildContours` (raw) | each region's exact outline (`contour/<stance>`, `contour/<stance>/hole`) ([`contour`]) |
//! | `simplify` | §32.2.4; `rcBuildContours` (simplified) | simplified outlines (`polygon/<stance>`) ([`simplify`]) |
//! | `triangulate` | §32.2.4 | triangles (`triangle/<stance>`) ([`triangulate`]) |
//! | `polymesh` | `rcBuildPolyMesh` | convex polygons of at most `max_verts_per_poly` corners (`polymesh/<stance>`) ([`polymesh`]) |
//! | `detail` | `rcBuildPolyMeshDetail` | height detail triangles per polygon (`detail/<stance>`) ([`detail`]) |
//! | `graph` | §32.2.5, §32.3.2, §32.4.2 | one node per polygon (`node/<stance>`), links (`link/walk`, `link/region`, `link/pass`, `link/tile`, `link/swim`) and the NavMesh ([`graph`], [`swim`]) |
//! | `movers` | Quake's movers and triggers (not in the paper) | door, elevator, teleport and jump links of a brush level's movers ([`movers`]) |
//! | `drops` | Recast's off-mesh connections, generated at ledges (not in the paper) | one-way jump links off ledges onto the floor below and, with a running jump, across gaps and up ledges (`link/jump`) ([`drops`]) |
//!
//! **Stage ids** are Recast's names: `regions` is Recast's regions (the
//! partition of the walkable spans; the `partition` parameter picks the
//! algorithm) and `contours` its contours. Ids reach presets, the app's
//! saved state and `--stage`: the former id `partition` stays an alias of
//! `regions` ([`STAGE_ALIASES`], resolved by `Pipeline::stage_index`). The
//! former `regions` (the outlines) cannot be an alias, being a current id:
//! `--stage regions` now shows Recast's regions, and `--stage contours` the
//! outlines. The app saves the stage on screen by its position, which did
//! not change, so saved state shows the same stage as before.
//!
//! Every stage with passes (`compact` to `detail`) has one sub-step per
//! pass whose highlight is the outline of that pass's own spans
//! ([`outline`]), computed only when a viewer asks for the sub-steps.
//!
//! **Local rebuild.** The per-tile stages (`voxelize` to `triangulate`)
//! look every tile up in a process-wide [`TileCache`] by (stage,
//! [`TileKey`]: grid origin, tile cells, hash of the triangles and water
//! the padded tile reads, hash of the parameters that stage and the earlier
//! ones read) and build only the misses, so a hot reload rebuilds only the
//! tiles an edit touches. The least recently used results are dropped past
//! [`tile_cache::CACHE_BUDGET_BYTES`]; `reuse_tiles = false` turns the
//! cache off. [`build()`] runs the same stage functions outside a `Runner`.
//!
//! ## Choices where the paper is open
//!
//! * **Voxels are spans** (Recast's representation): the flags belong to the
//!   surface voxel and the column of free voxels over it.
//! * **Radius.** A span is too close to an obstacle when a 12/17 chamfer
//!   distance (at most 7.7% under the Euclidean one) to the nearest
//!   obstacle face is below the radius. Erosion is measured on all spans,
//!   not the pool, so a later pass's area borders an earlier pass's exactly
//!   (§32.3.1); a later pass's region is kept only where it reaches space
//!   the earlier passes do not ([`bands`]).
//! * **Ledges** (`erode_ledges`). Recast keeps the radius from a drop as
//!   from a wall: its cylinder stands wholly on the floor. A game's box
//!   hull may overhang a ledge (Quake's player stands wherever the bottom
//!   of his box rests on some floor under its footprint), so with
//!   `erode_ledges` off (the game agent presets) only columns where the
//!   body does not fit at a span's floor are obstacles, a wall across a
//!   narrow gap included: the walkable area reaches a ledge's edge, and
//!   ledges, beams and sills narrower than the body keep their nodes
//!   ([`overhang`]). The centre stops at the edge's outermost cell, not
//!   half a width beyond it as Quake allows: a conservative reading.
//! * **Border voxels are part of the polygon**, whose outline runs along
//!   their outer cell edges; a region never holds two spans of one column,
//!   so every outline is a plan polygon.
//! * **Simplification is Recast's and keeps shared edges exact**: edges
//!   against obstacles within `max_error` and `max_edge_len`, portals
//!   between regions straight from one region change to the next, edges
//!   against another pass or tile kept cell by cell ([`simplify`]).
//! * **Heights.** An outline vertex takes the highest floor of its region's
//!   cells around that corner; the detail stage samples the voxel surface.
//! * **Partitions**: Recast's watershed, monotone and layers ([`partition`]).
//! * **Areas** (Recast's convex volumes): a mesh level's `NAME.obj.ron`
//!   sidecar marks spans like `rcMarkConvexPolyArea`; RecastDemo's area
//!   table (`water`, `grass`, `road`, `door`: costs 10, 2, 1, 1) is the
//!   preset; regions never cross an area change; areas never cut. A brush
//!   level's slime and lava are volumes of area `slime` and `lava` too,
//!   costed by `slime_cost` and `lava_cost` (0 forbids them), as in
//!   `cspace` ([`hazards`]).
//! * **Swim.** A swimmer swims anywhere in the water, not only at its
//!   surface (Quake's player swims fully under water; QuakeC's air supply
//!   only costs health after 12 s). So the swim pass measures its room
//!   from the submerged floor, as every pass does ([`filters`]): a passage
//!   flooded to its ceiling is swum where `swim.height` fits between its
//!   floor and its ceiling. The polygons stay on the floor; the nodes and
//!   the portals between swim nodes float where the whole body fits
//!   ([`swim::stance_height`]): at the water surface where there is room
//!   above it (§32.4.2), else as high as the body fits under the ceiling,
//!   so no swim node is in the rock over it. Across a boundary between
//!   areas a swim edge reaches over its water column, from its floor up to
//!   there ([`graph`]). Swims through the water in three dimensions
//!   ([`swim_through`]), falls into it and running jumps are clear for the
//!   body's width strictly ([`swim::fits_across`]: a 32-unit player does
//!   not pass a 32-unit gap); [`swim`] links join the water to ground a
//!   swimmer can climb onto within [`swim::max_gap`], never through a wall.
//!   Not handled: a floor of one brush buried inside another solid leaves
//!   an open pocket in the voxels (the fill below stops at that floor), and
//!   a swim node can float there when the pocket is under water (an
//!   island: its walls close it).
//! * **Stances along a path**: [`graph::path_stances`] applies Listing 32.2
//!   to every stance. Links between a crouch or prone node and another
//!   stance are `crouch`, others `walk`; costs are centre distances.
//! * **Faces on grid lines** belong to the cell behind them ([`heightfield`]);
//!   **closed solids are filled** from a face looking down to the next face
//!   looking up.
//! * **Drops**: ledges get one-way `jump` links at most `max_drop` down
//!   (never deeper than the nodes' height span, so at its maximum every
//!   drop is taken), a hurting landing (deeper than `safe_fall`) costing
//!   `fall_cost` more ([`drops`], [`navscope_core::jump::Fall`]); Recast
//!   leaves such off-mesh connections to its user.
//! * **Tiles** are padded by what the erosion of the largest enabled radius
//!   reads plus two cells ([`tiles::tile_padding`]), so a tile's flags equal
//!   a one-tile build's; seam edges stay exact and are linked across.
//! * **Degenerate input** and builds over [`tiles::MAX_COLUMNS`],
//!   [`tiles::MAX_GRID_SIDE`], [`grid::MAX_HEIGHT_UNITS`],
//!   [`heightfield::MAX_SPANS`] or the runner's
//!   [`navscope_core::MemoryBudget`] are errors naming the problem.
//! * **Cells.** The paper gives no grid size; the defaults are 0.1 m cells
//!   and 0.05 m voxels, fine enough for the 0.2 m sidestep radius.
//!
//! ## Figures
//!
//! Against Recast on the same machine, one thread, Recast demo settings,
//! median per-round ratio navscope / Recast over 7 rounds of 15 whole
//! builds (`bash crates/voxel/recast-reference/rounds.sh DIR 7 MESH
//! PARTITION detail|nodetail target/release/navscope-cli`, then
//! `python3 crates/voxel/recast-reference/summarize.py DIR`):
//!
//! | mesh, partition | whole build | largest stage ratio | polygons, Recast / navscope |
//! |---|---|---|---|
//! | nav_test, watershed + detail | 0.71 | 0.98 | 155 / 156 |
//! | nav_test, monotone | 0.83 | 1.00 | 186 / 187 |
//! | dungeon, watershed + detail | 0.76 | 1.00 | 118 / 116 |
//! | dungeon, monotone | 0.94 | 1.09 | 100 / 97 |
//!
//! 96-cell tiles on two cores (`TILE_SIZE=96` before the same command)
//! against Recast's single thread: 0.39 to 0.50 (nav_test), 0.49 to 0.53
//! (dungeon). Five passes against the standing pass: 1.73 (nav_test),
//! 1.87 (dungeon). How these came to be: `docs/history/voxel.md`.

#![warn(missing_docs)]

// Shared by every stage: grid, settings, spans, links, chamfer, flags.
pub mod chamfer;
pub mod grid;
pub mod heightfield;
pub mod links;
pub mod pass_flags;
pub mod rows;
pub mod schedule;
pub mod settings;

// The stages' algorithms (the table above says which is which).
pub mod bands;
pub mod blocks;
pub mod compact;
pub mod contour;
pub mod detail;
pub mod drops;
pub mod filters;
pub mod flags;
pub mod graph;
pub mod hazards;
pub mod movers;
pub mod overhang;
pub mod partition;
pub mod polymesh;
pub mod simplify;
pub mod swim;
pub mod swim_through;
pub mod tiles;
pub mod triangulate;

// The navscope stages over them: cache, artifacts, a whole build.
pub mod build;
pub mod outline;
pub mod samples;
pub mod stages;
pub mod tile_cache;

#[cfg(test)]
mod reference;

pub use build::{Build, TileBuild, build};
pub use settings::{AgentParams, Settings, paper_defaults};
pub use tile_cache::{TileCache, TileKey, TileReuse};

use navscope_core::level::LevelKind;
use navscope_core::{Pipeline, Stage, StageInfo};

use settings::reads;

/// Former stage ids that still resolve, `(former, current)` (see the crate
/// docs, "Stage ids").
pub const STAGE_ALIASES: &[(&str, &str)] = &[("partition", "regions")];

/// The `voxel` pipeline.
pub fn pipeline() -> Pipeline {
    let infos = [
        StageInfo::new(
            "tiles",
            "Tiles",
            "The level's bounds are cut into square tiles of voxel columns. Each tile is built on its own, in parallel, with a border of extra cells so that its flags come out as if the whole level were one tile.",
            "Kirst §32.2.5 step 1",
            reads::TILES,
        ),
        StageInfo::new(
            "voxelize",
            "Voxelization",
            "Every triangle is clipped to the columns it covers and becomes a solid span; the open space above each solid span is where an agent could be. Water volumes and the water level give each open span a water depth.",
            "Kirst §32.2.2",
            reads::VOXELIZE,
        ),
        StageInfo::new(
            "compact",
            "Compact heightfield and areas",
            "For each pass's agent table, the open spans it may stand on before erosion (slope, water depth and Recast's span filters) and each span's neighbour on every side: the span of the next column whose floor is within a step and whose open space leaves the agent's height (Recast's compact heightfield). The level's convex volumes (its NAME.obj.ron sidecar) mark the spans inside them with an area (water, grass, road, door or their own name) that the regions never cross and the nodes carry, with its cost.",
            "Recast rcBuildCompactHeightfield, rcMarkConvexPolyArea",
            reads::COMPACT,
        ),
        StageInfo::new(
            "flag",
            "Flagging with recycled passes",
            "Each pass flags the voxels left over by the earlier passes with its stance's agent table: non-walkable (too steep, too low, wrong water depth, closer than the radius to an obstacle), walkable, or border (walkable next to a non-walkable voxel). The non-walkable voxels, flags discarded, are the next pass's pool.",
            "Kirst §32.2.3, §32.3.1, §32.4; Recast rcErodeWalkableArea",
            reads::FLAG,
        ),
        StageInfo::new(
            "regions",
            "Distance field and regions",
            "Each pass's walkable voxels get their distance to the edge of the walkable area (Recast's distance field), and are cut into regions: by watershed over that field, by monotone row sweeps, or by row sweeps merged into layers that never overlap in height. Regions too small are removed and small ones merged into a neighbour (Recast's min and merge region area; layers use the min area only).",
            "Recast rcBuildDistanceField, rcBuildRegions / rcBuildRegionsMonotone / rcBuildLayerRegions; Kirst §32.2.3",
            reads::REGIONS,
        ),
        StageInfo::new(
            "contours",
            "Contours",
            "The voxels of each region form polygons; each outline is traced along the region's border voxels (Recast's raw contours). Islands are separate regions, holes extra rings.",
            "Kirst §32.2.3; Recast rcBuildContours (raw)",
            &[],
        ),
        StageInfo::new(
            "simplify",
            "Simplification",
            "Staircase outlines become sloping ones: wall edges within the max error on either side and no longer than the max edge length, edges between two regions straight from one region change to the next (as Recast simplifies contours). Edges that meet another pass's or tile's area stay exact so the areas meet exactly.",
            "Kirst §32.2.4; Recast rcBuildContours (simplified)",
            reads::SIMPLIFY,
        ),
        StageInfo::new(
            "triangulate",
            "Triangulation",
            "Each simplified polygon, with its holes, is triangulated by a constrained Delaunay triangulation; the triangles carry their pass's stance.",
            "Kirst §32.2.4, §32.3.1",
            &[],
        ),
        StageInfo::new(
            "polymesh",
            "Polygon mesh",
            "The triangles of each region are merged into convex polygons of at most 'max verts per poly' corners, longest shared edge first; these polygons are the navmesh's nodes.",
            "Recast rcBuildPolyMesh",
            reads::POLYMESH,
        ),
        StageInfo::new(
            "detail",
            "Detail mesh",
            "The surface height inside each polygon: samples along its edges and on a grid inside it take the height of the voxels under them on the polygon's own floor (its region's spans and the spans linked to them, never another storey in the same column), and the ones farther than the error bound from the surface so far are added to a Delaunay triangulation.",
            "Recast rcBuildPolyMeshDetail",
            reads::DETAIL,
        ),
        StageInfo::new(
            "graph",
            "Node graph",
            "One node per polygon of the polygon mesh, linked across shared edges, across passes and across tiles. Swim nodes float where the swimmer fits (at the water surface, or under the ceiling of a passage flooded to it), and swim polygons at the edge of the water get entry and exit links across the gap to the ground the swimmer can climb onto.",
            "Kirst §32.2.5, §32.3.2, §32.4.2",
            reads::GRAPH,
        ),
        StageInfo::new(
            "movers",
            "Mover links",
            "A brush level's doors, lifts, teleporters and pushers (carried through its conversion to a mesh) become links: walking through a door's closed volume is a door link, a lift joins the floor on it to the floors beside its top, a teleporter's floor links to the floor under its destination, a pusher's to where its flight lands, a floor panel door's top to the floor under the hole it opens. Each link end attaches to the polygon within radius + 2 cells of it; movers with an end on no polygon are listed as skipped.",
            "navscope (Quake's func_door, func_plat, trigger_teleport, trigger_push)",
            reads::MOVERS,
        ),
        StageInfo::new(
            "drops",
            "Drop links",
            "Where a polygon's edge is a ledge, a probe goes out from it and looks for a floor below, deeper than a step and at most the max drop: the agent can walk off there and fall onto it, if the voxels leave room for the fall. Each such drop is a one-way jump link from the top to the floor below.",
            "navscope (Recast's off-mesh connections, generated at ledges)",
            reads::DROPS,
        ),
    ];
    let stages = infos
        .into_iter()
        .zip(stages::FUNCTIONS)
        .map(|(info, (id, run))| {
            debug_assert_eq!(info.id, id);
            Stage { info, run }
        });
    Pipeline {
        id: "voxel",
        stage_aliases: STAGE_ALIASES,
        title: "Voxel navmesh with recycled passes (Kirst)",
        accepts: vec![LevelKind::Mesh],
        params: settings::specs(),
        stages: stages.collect(),
    }
}
