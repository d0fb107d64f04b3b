//! The level's extent: its bounding points, size and bounds, used to scale
//! markers and frame the camera.

use bevy::prelude::*;
use navscope_core::geom::Polygon;
use navscope_core::geom::polyhedron::Polyhedron;
use navscope_core::level::{LayerPlane, Level, LevelData};

pub(crate) fn ring_world(ring: &Polygon, plane: LayerPlane) -> Vec<Vec3> {
    ring.points
        .iter()
        .map(|p| plane.lift(*p).as_vec3())
        .collect()
}

/// The solid of every brush that has one (a broken brush is skipped here:
/// the loader and the pipeline report it).
pub(crate) fn brush_solids(
    b: &navscope_core::level::BrushLevel,
) -> impl Iterator<Item = (Polyhedron, &navscope_core::level::Brush)> {
    b.brushes
        .iter()
        .filter_map(|br| Some((Polyhedron::from_planes(&br.planes).ok()?, br)))
}

/// Every point that bounds the level.
pub fn level_points(level: &Level) -> Vec<Vec3> {
    match &level.data {
        LevelData::FloorPlan(fp) => fp
            .area
            .rings()
            .flat_map(|r| ring_world(r, LayerPlane::level(0.0)))
            .collect(),
        LevelData::Raster(r) => vec![
            Vec3::ZERO,
            Vec3::new(r.width as f32, 0.0, r.height as f32) * r.metres_per_pixel as f32,
        ],
        LevelData::Mesh(m) => m.mesh.vertices.clone(),
        LevelData::Brushes(b) => {
            let mut pts: Vec<Vec3> = b
                .entities
                .iter()
                .filter_map(|e| e.origin.map(|o| o.as_vec3()))
                .collect();
            pts.extend(
                brush_solids(b).flat_map(|(solid, _)| {
                    solid.distinct_vertices().into_iter().map(|v| v.as_vec3())
                }),
            );
            pts
        }
        LevelData::Layers(l) => l
            .layers
            .iter()
            .flat_map(|layer| {
                layer
                    .area
                    .rings()
                    .flat_map(|r| ring_world(r, layer.plane()))
                    .collect::<Vec<_>>()
            })
            .collect(),
    }
}

/// The level's size (its largest extent, at least 1).
pub fn level_extent(level: &Level) -> f32 {
    crate::model::prepare::extent(level_points(level))
}

/// Bounds of `pts` (their finite ones), `(min, max)`; a 10 m cube about
/// the origin when there are none.
pub fn bounds_of(pts: &[Vec3]) -> (Vec3, Vec3) {
    let lo = pts
        .iter()
        .filter(|p| p.is_finite())
        .fold(Vec3::splat(f32::INFINITY), |a, p| a.min(*p));
    let hi = pts
        .iter()
        .filter(|p| p.is_finite())
        .fold(Vec3::splat(f32::NEG_INFINITY), |a, p| a.max(*p));
    if lo.x > hi.x {
        (Vec3::splat(-5.0), Vec3::splat(5.0))
    } else {
        (lo, hi)
    }
}

/// True when the level lies on one plane (top-down view is the default).
pub fn is_flat(level: &Level) -> bool {
    matches!(level.data, LevelData::FloorPlan(_) | LevelData::Raster(_))
}
