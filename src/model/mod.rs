//! Plain data and pure functions every part of the app shares: the style
//! table and drawing preparation, the published stages' components, the
//! view filter, the stages' sub-steps, the timeline's position, the selection, the level's extent,
//! the journal, key helpers and which agent preset parameter values are.
//! Nothing here registers systems.

pub mod agent;
pub mod band;
pub mod bvh;
pub mod compact_vertex;
pub mod drawable;
pub mod elements;
pub mod extent;
pub mod group;
pub mod index;
pub mod journal;
pub mod keys;
pub mod prepare;
pub mod selection;
pub mod stage_primitives;
pub mod step_batches;
pub mod style;
pub mod style_table;
pub mod substeps;
pub mod tessellate;
pub mod timeline;
pub mod voxel_mesh;
