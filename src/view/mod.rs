//! Showing things: the scene (camera, level, grid), the retained drawing of
//! the published stages, voxel cubes, re-preparing stages when the view
//! filter changes, letting big hidden stages' data go until they show, and
//! standing in for the render world's extraction without a renderer.

pub mod cubes;
pub mod draw;
pub mod extraction_stand_in;
pub mod filter;
pub mod gizmo_release;
pub mod highlight;
pub mod level_drawing;
pub mod residency;
pub mod scene;
pub mod voxel_meshing;
