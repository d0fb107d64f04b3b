//! Showing things: the scene (camera, level, grid), the retained drawing of
//! the published stages, voxel cubes, re-preparing stages when the view
//! filter changes, and letting big hidden stages' data go until they show.

pub mod cubes;
pub mod draw;
pub mod eviction;
pub mod filter;
pub mod gizmo_release;
pub mod highlight;
pub mod level_drawing;
pub mod navmesh_overlay;
pub mod residency;
pub mod scene;
pub mod voxel_meshing;
