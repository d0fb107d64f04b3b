//! The level conversions the registry applies, so that one level reaches
//! every pipeline that can read it (see the crate docs for the table).
//!
//! The mesh conversions are `navscope-levels`' ([`navscope_levels::brush_mesh`],
//! [`navscope_levels::floor_plan_mesh`], [`navscope_levels::layers_mesh`]).
//! The raster → floor plan conversion is here because it is the `navgraph`
//! pipeline's contour and simplification stages, and `navscope-levels`
//! cannot depend on a pipeline crate.

use navscope_core::geom::{Polygon, PolygonWithHoles};
use navscope_core::level::{FloorPlan, Level, LevelData, MeshLevel, RasterPlan};
use navscope_core::params::ParamValues;
use navscope_navgraph::{binary, contours, simplify};

/// A conversion of a level to the kind a pipeline reads.
pub type Conversion = fn(&Level) -> Result<Level, String>;

/// A raster floor plan as a floor plan: the `navgraph` pipeline's
/// `contours` stage on the obstacle mask without dilation (agent radius
/// 0: the plan keeps all the free space, each pipeline then applies its
/// own radius), then its one-sided `simplify` stage with `tolerance`
/// metres. A floor plan has one outer boundary, so the free component of
/// largest area becomes the plan (with its holes) and the others are left
/// out. Fails when the image has no free pixel.
pub fn raster_floor_plan(plan: &RasterPlan, tolerance: f64) -> Result<FloorPlan, String> {
    let image = binary::binary_image(plan, 0.0)?;
    let traced = contours::trace(&image);
    let simplified = simplify::simplify(&traced, tolerance, image.metres_per_pixel);
    let outer = (0..traced.rings.len())
        .filter(|&k| !traced.rings[k].hole)
        .max_by(|&a, &b| {
            let area = |k: usize| Polygon::new(simplified.rings[k].clone()).signed_area();
            area(a).total_cmp(&area(b))
        })
        .ok_or("raster: the image has no free pixel to make a floor plan of")?;
    let holes = (0..traced.rings.len())
        .filter(|&k| traced.rings[k].parent == Some(outer))
        .map(|k| Polygon::new(simplified.rings[k].clone()))
        .collect();
    Ok(FloorPlan {
        area: PolygonWithHoles::new(Polygon::new(simplified.rings[outer].clone()), holes),
        nodes: Vec::new(),
        blockers: Vec::new(),
    })
}

/// The `navgraph` pipeline's default simplification tolerance, which the
/// registry's raster → floor plan conversion uses.
pub fn default_tolerance() -> f64 {
    ParamValues::defaults(&navscope_navgraph::pipeline().params).float("simplify_tolerance")
}

/// Wraps a failure with the level's source.
fn named(level: &Level) -> impl Fn(String) -> String + '_ {
    move |e| format!("{}: {e}", level.source)
}

/// A level with `level`'s source and new data.
fn relabelled(level: &Level, data: LevelData) -> Level {
    Level {
        source: level.source.clone(),
        data,
    }
}

/// A level of the wrong kind for a conversion.
fn wrong_kind(level: &Level, expected: &str) -> String {
    format!(
        "{}: a {} is not a {expected}",
        level.source,
        level.kind().name()
    )
}

/// Brush level → triangle mesh ([`navscope_levels::brush_mesh`]).
pub fn brushes_to_mesh(level: &Level) -> Result<Level, String> {
    let LevelData::Brushes(b) = &level.data else {
        return Err(wrong_kind(level, "brush level"));
    };
    let c = navscope_levels::brush_mesh(b).map_err(named(level))?;
    Ok(relabelled(level, LevelData::Mesh(c.level)))
}

/// Floor plan → triangle mesh with walls
/// [`navscope_levels::DEFAULT_WALL_HEIGHT`] high.
pub fn floor_plan_to_mesh(level: &Level) -> Result<Level, String> {
    let LevelData::FloorPlan(p) = &level.data else {
        return Err(wrong_kind(level, "floor plan"));
    };
    let m = plan_mesh(p).map_err(named(level))?;
    Ok(relabelled(level, LevelData::Mesh(m)))
}

/// Multi-layer environment → triangle mesh ([`navscope_levels::layers_mesh`]).
pub fn layers_to_mesh(level: &Level) -> Result<Level, String> {
    let LevelData::Layers(l) = &level.data else {
        return Err(wrong_kind(level, "multi-layer environment"));
    };
    let m = navscope_levels::layers_mesh(l).map_err(named(level))?;
    Ok(relabelled(level, LevelData::Mesh(m)))
}

/// Raster floor plan → floor plan ([`raster_floor_plan`] with
/// [`default_tolerance`]).
pub fn raster_to_floor_plan(level: &Level) -> Result<Level, String> {
    let LevelData::Raster(r) = &level.data else {
        return Err(wrong_kind(level, "raster floor plan"));
    };
    let p = raster_floor_plan(r, default_tolerance()).map_err(named(level))?;
    Ok(relabelled(level, LevelData::FloorPlan(p)))
}

/// Raster floor plan → floor plan → triangle mesh.
pub fn raster_to_mesh(level: &Level) -> Result<Level, String> {
    floor_plan_to_mesh(&raster_to_floor_plan(level)?)
}

/// The registry's floor plan → mesh extrusion.
fn plan_mesh(p: &FloorPlan) -> Result<MeshLevel, String> {
    navscope_levels::floor_plan_mesh(p, navscope_levels::DEFAULT_WALL_HEIGHT)
}
