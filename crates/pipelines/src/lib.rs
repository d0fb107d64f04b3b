//! The registry of every navscope pipeline.
//!
//! The app and the CLI find pipelines here, by id or by the level kinds they
//! accept, so neither names a pipeline crate itself.
//!
//! A pipeline also accepts the level kinds listed for it in
//! [`CONVERSIONS`]: before a run, [`level_for`] converts such a level to
//! the kind the pipeline reads, so one level can be compared across
//! methods ([`convert`] has the conversions):
//!
//! | pipeline | also accepts | through |
//! |---|---|---|
//! | `voxel` | brush level | `navscope_levels::brush_mesh` |
//! | `voxel` | floor plan | `navscope_levels::floor_plan_mesh`, walls 3 m high |
//! | `voxel` | multi-layer environment | `navscope_levels::layers_mesh` |
//! | `voxel` | raster floor plan | [`convert::raster_floor_plan`], then the floor plan extrusion |
//! | `convex` | raster floor plan | [`convert::raster_floor_plan`] (the `navgraph` contour and simplification stages) |
//!
//! [`for_kind`] and [`all`] list a pipeline for the kinds its conversions
//! add, so `navscope-cli info` and the app's pipeline menu offer it.

pub mod agents;
pub mod convert;

use std::sync::Arc;

use navscope_core::Pipeline;
use navscope_core::level::{Level, LevelKind};

pub use convert::Conversion;

/// The conversions the registry applies: (pipeline id, level kind it
/// accepts through the conversion, the conversion).
pub const CONVERSIONS: &[(&str, LevelKind, Conversion)] = &[
    ("voxel", LevelKind::Brushes, convert::brushes_to_mesh),
    ("voxel", LevelKind::FloorPlan, convert::floor_plan_to_mesh),
    ("voxel", LevelKind::Layers, convert::layers_to_mesh),
    ("voxel", LevelKind::Raster, convert::raster_to_mesh),
    ("convex", LevelKind::Raster, convert::raster_to_floor_plan),
];

/// The level as `pipeline` reads it: converted when [`CONVERSIONS`] lists
/// the pipeline and the level's kind, otherwise the level itself.
pub fn level_for(pipeline: &Pipeline, level: &Arc<Level>) -> Result<Arc<Level>, String> {
    match CONVERSIONS
        .iter()
        .find(|(id, kind, _)| *id == pipeline.id && *kind == level.kind())
    {
        Some((_, _, convert)) => convert(level).map(Arc::new),
        None => Ok(level.clone()),
    }
}

/// The pipeline with the level kinds its conversions add.
fn with_conversions(mut p: Pipeline) -> Pipeline {
    for (id, kind, _) in CONVERSIONS {
        if *id == p.id && !p.accepts.contains(kind) {
            p.accepts.push(*kind);
        }
    }
    p
}

/// Every pipeline, in the order menus list them.
pub fn all() -> Vec<Arc<Pipeline>> {
    [
        navscope_convex::pipeline(),
        navscope_voxel::pipeline(),
        navscope_cspace::pipeline(),
        navscope_layers::pipeline(),
        navscope_navgraph::pipeline(),
        navscope_navgraph::nodes_pipeline(),
    ]
    .into_iter()
    .map(|p| Arc::new(with_conversions(p)))
    .collect()
}

/// The pipeline with id `id`.
pub fn by_id(id: &str) -> Option<Arc<Pipeline>> {
    all().into_iter().find(|p| p.id == id)
}

/// The pipelines that accept levels of `kind`, preferred first: those
/// that read the kind directly, then those that read it through a
/// conversion, each in [`all`]'s order.
pub fn for_kind(kind: LevelKind) -> Vec<Arc<Pipeline>> {
    let mut list: Vec<Arc<Pipeline>> = all()
        .into_iter()
        .filter(|p| p.accepts.contains(&kind))
        .collect();
    list.sort_by_key(|p| converts(p.id, kind));
    list
}

/// True when `pipeline` reads `kind` through a conversion.
pub fn converts(pipeline: &str, kind: LevelKind) -> bool {
    CONVERSIONS
        .iter()
        .any(|(id, k, _)| *id == pipeline && *k == kind)
}

/// The ids of every pipeline, for messages.
pub fn ids() -> Vec<&'static str> {
    all().iter().map(|p| p.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::level::LevelData;

    fn ids_for(kind: LevelKind) -> Vec<&'static str> {
        for_kind(kind).iter().map(|p| p.id).collect()
    }

    #[test]
    fn every_kind_lists_its_own_pipelines_first_then_the_converted_ones() {
        assert_eq!(
            ids_for(LevelKind::FloorPlan),
            ["convex", "navgraph-nodes", "voxel"]
        );
        assert_eq!(ids_for(LevelKind::Raster), ["navgraph", "convex", "voxel"]);
        assert_eq!(ids_for(LevelKind::Layers), ["layers", "voxel"]);
        assert_eq!(ids_for(LevelKind::Brushes), ["cspace", "voxel"]);
        assert_eq!(ids_for(LevelKind::Mesh), ["voxel"]);
        assert!(converts("voxel", LevelKind::FloorPlan));
        assert!(!converts("convex", LevelKind::FloorPlan));
    }

    #[test]
    fn the_default_floor_plan_reaches_voxel_as_a_mesh_and_convex_as_is() {
        let level = Arc::new(navscope_levels::default_level());
        let mesh = level_for(&by_id("voxel").unwrap(), &level).unwrap();
        assert_eq!(mesh.kind(), LevelKind::Mesh);
        assert_eq!(mesh.source, level.source);
        assert!(Arc::ptr_eq(
            &level_for(&by_id("convex").unwrap(), &level).unwrap(),
            &level
        ));
        let e = convert::raster_to_floor_plan(&level).unwrap_err();
        assert!(e.contains("is not a raster floor plan"), "{e}");
    }

    #[test]
    fn every_pipeline_is_consistent_and_unique() {
        let all = all();
        for (i, p) in all.iter().enumerate() {
            p.check()
                .unwrap_or_else(|e| panic!("pipeline {}: {e}", p.id));
            assert!(
                !all[..i].iter().any(|q| q.id == p.id),
                "duplicate id {}",
                p.id
            );
            assert!(!p.accepts.is_empty());
        }
        assert!(
            !for_kind(LevelKind::FloorPlan).is_empty(),
            "floor plans (the default level) have a pipeline"
        );
    }

    #[test]
    fn a_brush_level_reaches_voxel_as_a_mesh_and_cspace_as_is() {
        let text = "{\n\"classname\" \"worldspawn\"\n{\n( -64 -64 -16 ) ( -64 -63 -16 ) ( -64 -64 -15 ) a 0 0 0 1 1\n( -64 -64 -16 ) ( -64 -64 -15 ) ( -63 -64 -16 ) a 0 0 0 1 1\n( -64 -64 -16 ) ( -63 -64 -16 ) ( -64 -63 -16 ) a 0 0 0 1 1\n( 64 64 16 ) ( 64 65 16 ) ( 65 64 16 ) a 0 0 0 1 1\n( 64 64 16 ) ( 65 64 16 ) ( 64 64 17 ) a 0 0 0 1 1\n( 64 64 16 ) ( 64 64 17 ) ( 64 65 16 ) a 0 0 0 1 1\n}\n}\n";
        let level = Arc::new(navscope_levels::load_bytes("cube.map", text.as_bytes()).unwrap());
        let kinds: Vec<&str> = for_kind(LevelKind::Brushes).iter().map(|p| p.id).collect();
        assert!(
            kinds.contains(&"voxel") && kinds.contains(&"cspace"),
            "{kinds:?}"
        );
        let voxel = by_id("voxel").unwrap();
        let mesh = level_for(&voxel, &level).unwrap();
        assert_eq!(mesh.kind(), LevelKind::Mesh);
        let LevelData::Mesh(m) = &mesh.data else {
            unreachable!()
        };
        assert_eq!(m.mesh.triangles.len(), 12);
        let cspace = by_id("cspace").unwrap();
        assert!(Arc::ptr_eq(&level_for(&cspace, &level).unwrap(), &level));
    }
}
