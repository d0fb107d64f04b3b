//! Plan and world geometry.
//!
//! Plan (2D) geometry is f64 with exact predicates; world (3D) geometry is
//! `glam` vectors. See the crate docs for the plan-coordinate convention.

mod pairs;
mod polygon;
pub mod polyhedron;
mod predicates;
pub mod range;
mod ray;
mod solid;
mod sweep;
mod validate;

pub use pairs::candidate_segment_pairs;
pub use polygon::{Polygon, PolygonWithHoles, interior_angle, ray_crosses_edge, ring_side};
pub use predicates::{
    Orientation, SegmentHit, on_segment, orient, orient_value, point_segment_distance,
    project_on_segment, segment_intersection, segments_properly_cross,
};
pub use ray::ray_triangle;
pub use solid::{Aabb, Plane, TriMesh};
pub use validate::{GeometryError, Ring, validate_polygon_with_holes};

use glam::{DVec2, DVec3};

/// World point on the ground plane (height `y`) for a plan point.
pub fn plan_to_world(p: DVec2, y: f64) -> DVec3 {
    DVec3::new(p.x, y, -p.y)
}

/// Plan point for a world point (its height is dropped).
pub fn world_to_plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, -p.z)
}

/// Plan point from a file's `[x, z]` pair.
pub fn plan_from_xz(xz: [f64; 2]) -> DVec2 {
    DVec2::new(xz[0], -xz[1])
}

/// A file's `[x, z]` pair for a plan point.
pub fn xz_from_plan(p: DVec2) -> [f64; 2] {
    [p.x, -p.y]
}
