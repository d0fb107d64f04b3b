//! Showing things: the scene (camera, level, grid), the retained drawing of
//! the published stages, voxel cubes, and re-preparing stages when the view
//! filter changes.

pub mod cubes;
pub mod draw;
pub mod filter;
pub mod gizmo_release;
pub mod highlight;
pub mod level_drawing;
pub mod scene;
pub mod voxel_meshing;
