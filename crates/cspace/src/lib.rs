//! # navscope-cspace
//!
//! Navigation meshes generated in configuration space from brush levels:
//! Stuart Golodetz, *Automatic Navigation Mesh Generation in Configuration
//! Space* (Overload 117, 2013), after J. P. van Waveren's *The Quake III
//! Arena Bot* (2001). The brush CSG (polyhedra from planes, Minkowski
//! expansion, BSP clipping) is written by hand in this crate: no maintained
//! Rust crate does brush CSG.
//!
//! ```text
//!  brushes ──expand──▶ expanded brushes ──union──▶ boundary faces ──walkable──▶ polygons
//!   (per agent AABB,      + bevel planes     (BSP clip,        (slope ≤ 45°)
//!    stand and crouch)                         Listing 1)
//!  polygons ──edge-planes──▶ vertical plane → {same, opposite} edges ──links──▶ walk/step
//!                             (Listings 2, 3)                         (Listing 4)
//!  ──extra-links──▶ jump, crouch (stand ↔ crouch mesh), ladder ──navmesh──▶ NavMesh
//! ```
//!
//! ## Algorithm
//! 1. **expand** ([`expand`]): each solid brush becomes the set of positions
//!    of the agent box's centre at which the box would overlap it, i.e. the
//!    Minkowski sum of the brush and the box. Faces move out by the box's
//!    support distance `Σ |nᵢ| hᵢ`; bevel planes (axial planes and the cross
//!    products of brush edges with the axes) close the sum at slanted edges.
//!    Without them (parameter `bevels`) an expanded brush overshoots the sum
//!    (Figure 3(c)) and the test `expanded_vertices_match_brute_force_and_
//!    fail_without_bevels` shows it.
//! 2. **union** ([`union`], [`bsp`]): Listing 1. The BSP tree of a convex
//!    brush is the chain of its planes; every face is clipped by the trees of
//!    the brushes in range; pieces outside all of them form the union's
//!    boundary. The brushes in range are asked of an R-tree one brush at a
//!    time and visited in index order lazily ([`near`]), never stored as a
//!    list of pairs: 20,000 identical cubes would be 400 million of them.
//! 3. **walkable** ([`walkable`]): faces within the slope threshold of up.
//! 4. **edge-planes** ([`edge_plane`]): Listing 2's table, keyed with
//!    Listing 3's tolerances.
//! 5. **links** ([`links`]): Listing 4 on every opposing pair of edges.
//! 6. **extra-links** ([`extra`]): §5's jump, crouch and ladder links.
//! 7. **navmesh** ([`output`]): one [`navscope_core::NavMesh`], standing
//!    nodes and crouching nodes, lowered to the feet, ending over the
//!    brushes at ledges ([`ledges`]), with areas and the link kinds of the
//!    level's semantics.
//!
//! ## Quake map semantics
//! The loader gives every brush a contents (`navscope-levels`'
//! `FORMATS.md` lists the rules and their sources); [`scene`] reads it:
//! * solid and clip brushes are obstacles; triggers, liquids and empty
//!   brushes are not;
//! * a **door** that slides sideways is not solid (one that moves up or
//!   down is, open; a floor panel is, closed) and the volume it is drawn
//!   in is a region ([`regions`]): the walkable polygons are cut along it, and a
//!   walk or step into or out of it becomes a `door` link;
//! * a **lift** is solid at its low position; the floor on it and the
//!   floors beside its top position are joined by `elevator` links (the
//!   ladder rule of [`extra`] on the lift's travel box);
//! * `trigger_teleport` gives `teleport` links to the floor under its
//!   destination, `trigger_push` `jump` links to
//!   where its flight lands ([`movers`]);
//! * **water** cuts the polygons it submerges (the agent's centre under the
//!   surface): they become `swim` nodes joined to the shore and to each
//!   other by `swim` links, straight swims through the water between
//!   near polygons of one body, a few per polygon, so that a body of any
//!   size is swum in three dimensions ([`movers`]); **slime** and **lava** are areas whose incoming
//!   links cost `slime_cost` and `lava_cost` times more (default 0: left
//!   out, so paths go around; Quake's preset prices the health they take,
//!   `navscope_pipelines::agents`);
//! * `trigger_changelevel` marks the floor under it with area `exit`;
//! * a brush that makes no closed solid (or whose expansion fails) is
//!   skipped and listed in the `expand` artifact (count "skipped
//!   brushes", drawn as `brush/skipped` boxes); the rest builds.
//! * **the player fits strictly** ([`free`]): Quake collides the player's
//!   origin against the brushes grown by his hull (qbsp's `ExpandBrush`
//!   moves every plane out by the corner of `hull_size[1]`, −16 −16 −24
//!   to 16 16 32 about the origin, 32 × 32 × 56, and adds axial and edge
//!   bevels: the expansion of [`expand`]), and `SV_RecursiveHullCheck`
//!   stops every trace `DIST_EPSILON` (1/32 unit) short of the plane it
//!   hits, so the origin never rests on a grown face. Where two grown
//!   brushes touch, as between bars exactly 32 units apart or the walls
//!   of a 32-unit corridor, there is no room: the player passes only
//!   where the gap is wider than he is. Every flight, swim, fall and link
//!   crossing checked against the solids asks [`free::is_free`], which
//!   refuses a point on two faces that face each other (closer than
//!   twice 1/32 unit at 1/32 m per unit). The union itself drops
//!   polygons of no area, so two touching grown brushes leave no floor
//!   between them.
//!
//! ## Choices where the paper is open
//! * **Agent sizes.** Two AABBs: standing 0.6 × 1.8 × 0.6 m and crouching
//!   0.6 × 1.0 × 0.6 m (width × height × depth, parameters). They share the
//!   width and depth, as §5.1's crouch-link rule assumes. The AABB is
//!   centred on the agent's reference point, so a mesh in configuration
//!   space sits half the box's height above the floor.
//! * **Polyhedra** are built by clipping a huge square on each plane by the
//!   other planes ([`polyhedron`]); degenerate brushes (duplicate planes,
//!   zero volume, open brushes, coordinates beyond ±100 km, more than
//!   1,024 planes) are skipped with the reason.
//! * **Bevels** are found generically (every candidate normal gets its
//!   support offset; candidates that leave no face are dropped), so the sum
//!   is exact for any convex brush, not only for the bevels Quake's bspc
//!   adds. An edge's candidates `±(e × axis)` are kept only when they lie
//!   on the edge's Gaussian arc (between its two face normals): the others
//!   cannot bound the sum, and without this a 96-sided pillar expanded to
//!   hundreds of useless planes.
//! * **Stand and crouch are disjoint** ([`crouch_space`]): the crouching
//!   mesh keeps only where standing does not fit, as in `voxel`, where
//!   "crouch" means crouch-only space. The meshes are lowered by their
//!   half heights, so both lie at the feet and never overlap.
//! * **Coplanar faces** in the union: same-facing ones are kept by the
//!   lower brush index (Listing 1's `i < j`); opposite-facing ones (brushes
//!   touching face to face) are interior and removed.
//! * **Edge plane table.** Listing 3's tolerant comparator is not
//!   transitive; edges are matched against plane representatives instead,
//!   then the table is ordered lexicographically (see [`edge_plane`]).
//! * **Links** are computed once per unordered pair, both directions, with
//!   endpoints on the actual edges (see [`links`]). Jumps are vertical
//!   (§5.3), both ways up to `jump_height`, one way down to `max_drop`;
//!   with `jump_reach` set, ledges also link one way to the floors a
//!   running jump reaches across a gap or down a drop ([`gaps`]); no
//!   probe looks deeper than the walkable polygons' height span, so
//!   `max_drop` at its maximum refuses no drop. A jump link whose landing
//!   hurts (a fall deeper than `safe_fall`, [`navscope_core::jump::Fall`];
//!   not into water) costs `fall_cost` more. Crouch links probe the crouching mesh beyond each
//!   standing edge interval that makes no walk, step or jump link (see
//!   [`extra`]). Ladders are brush entities of class `func_ladder`
//!   (parameter); their brushes are not solid.
//! * **Fragments merged** ([`merge`]): pieces of one plane and region that
//!   share an edge are merged while their union stays convex, so a room is
//!   a few nodes, not the dozens of slivers the union cuts it into.
//! * **Not done**: polygons are not shrunk at ledges (a standing polygon
//!   reaches half the agent's width past a ledge: its box still rests on
//!   the ledge there).
//! * **Defaults.** Slope 45° (hesperus); step 0.45 m (Quake III's 18
//!   units at an inch per unit); jump 1.1 m (Quake III's jump rises 45.6
//!   units, 1.16 m); edge plane tolerances 0.1° and 5 mm.
//!
//! ## Figures
//! `cargo bench -p navscope-cspace` (release,
//! the 2-core development machine, shared with other builds), all seven
//! stages for the standing and the crouching size (the range is over
//! runs with different background load):
//!
//! | level | brushes | time | nodes | links |
//! |---|---|---|---|---|
//! | `courtyard.map` (Valve 220) | 114 | 12–19 ms | 860 | 3,596 |
//! | `samples::maze(23, 1)` | 1,017 | 96–100 ms | 4,180 | 10,848 |
//!
//! Real Quake maps (`../shared/data/quake-maps/`, release build, median
//! and lowest of 3 runs on the shared 2-core machine):
//! `navscope-cli bench ../shared/data/quake-maps/*.map
//! assets/levels/cspace/q2_many_sided.map --pipeline cspace --runs 3`
//!
//! | map | brushes | time (median / min) | nodes | links | door / elevator / teleport / swim links |
//! |---|---|---|---|---|---|
//! | `q1_mountain.map` | 393 | 353 / 288 ms | 484 | 1,656 | 0 / 0 / 0 / 0 |
//! | `retrojam1_ericw.map` | 891 | 294 / 280 ms | 605 | 4,046 | 88 / 2 / 0 / 2,252 |
//! | `lq_e3m4.map` | 3,441 | 2,037 / 1,913 ms | 3,833 | 13,772 | 522 / 4 / 37 / 106 |
//! | `q2_many_sided.map` | 10 | 56 / 36 ms | 269 | 1,032 | 0 / 0 / 0 / 38 |
//!
//! The speed target is under one second on a 1,000-brush maze. On the maze the
//! union takes half the time (22,012 brush pairs in range, 37,134 face
//! pieces clipped away), expansion a quarter.
//!
//! Sample levels (`assets/levels/cspace/`, standing mesh): *ramp* walks up
//! the ramp and steps along its sides (12 step-up links); *archway* makes
//! the standing agent crouch (4 crouch links); *stairs* climbs six steps;
//! *ledge* needs a jump; *ladder* climbs a `func_ladder`.
//!
//! ## Example
//! ```
//! use std::sync::Arc;
//! use glam::DVec3;
//! use navscope_core::level::{BrushLevel, Level, LevelData};
//! use navscope_core::Runner;
//! use navscope_cspace::build::box_brush;
//!
//! let floor = box_brush(DVec3::new(-5.0, -1.0, -5.0), DVec3::new(5.0, 0.0, 5.0));
//! let level = Level { source: "floor".into(), data: LevelData::Brushes(BrushLevel { brushes: vec![floor], ..Default::default() }) };
//! let mut runner = Runner::new(Arc::new(navscope_cspace::pipeline()), Arc::new(level));
//! runner.run_all();
//! let mesh = runner.navmesh().unwrap();
//! // One standing polygon: the floor's top, grown by the agent's half width
//! // (no crouching one: crouching space is only where standing does not fit).
//! assert_eq!(mesh.nodes.len(), 1);
//! ```

pub mod bsp;
pub mod build;
pub mod crouch_space;
pub mod edge_plane;
pub mod expand;
pub mod extra;
pub mod free;
pub mod gaps;
pub mod inspect;
pub mod ledges;
pub mod links;
pub mod mapfile;
pub mod merge;
pub mod movers;
pub mod near;
pub mod output;
pub use navscope_core::geom::polyhedron;
pub mod regions;
pub mod samples;
pub mod scene;
pub mod stages;
#[cfg(test)]
mod test_support;
pub mod union;
pub mod walkable;

pub use stages::{agent_sizes, param, pipeline};
