//! The registry of every navscope pipeline.
//!
//! The app and the CLI find pipelines here, by id or by the level kinds they
//! accept, so neither names a pipeline crate itself.
//!
//! A pipeline also accepts the level kinds listed for it in
//! [`CONVERSIONS`]: before a run, [`level_for`] converts such a level to
//! the kind the pipeline reads (a brush level becomes a triangle mesh for
//! `voxel`, through `navscope_levels::brush_mesh`), so one level can be
//! compared across methods.

use std::sync::Arc;

use navscope_core::Pipeline;
use navscope_core::level::{Level, LevelData, LevelKind};

/// A conversion of a level to the kind a pipeline reads.
pub type Conversion = fn(&Level) -> Result<Level, String>;

/// The conversions the registry applies: (pipeline id, level kind it
/// accepts through the conversion, the conversion).
pub const CONVERSIONS: &[(&str, LevelKind, Conversion)] =
    &[("voxel", LevelKind::Brushes, brushes_to_mesh)];

/// A brush level as a triangle-mesh level (`navscope_levels::brush_mesh`).
fn brushes_to_mesh(level: &Level) -> Result<Level, String> {
    let LevelData::Brushes(b) = &level.data else {
        return Err(format!("{}: not a brush level", level.source));
    };
    let c = navscope_levels::brush_mesh(b).map_err(|e| format!("{}: {e}", level.source))?;
    Ok(Level {
        source: level.source.clone(),
        data: LevelData::Mesh(c.level),
    })
}

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
    vec![
        Arc::new(navscope_convex::pipeline()),
        Arc::new(with_conversions(navscope_voxel::pipeline())),
        Arc::new(navscope_cspace::pipeline()),
        Arc::new(navscope_layers::pipeline()),
        Arc::new(navscope_navgraph::pipeline()),
        Arc::new(navscope_navgraph::nodes_pipeline()),
    ]
}

/// The pipeline with id `id`.
pub fn by_id(id: &str) -> Option<Arc<Pipeline>> {
    all().into_iter().find(|p| p.id == id)
}

/// The pipelines that accept levels of `kind`, preferred first.
pub fn for_kind(kind: LevelKind) -> Vec<Arc<Pipeline>> {
    all()
        .into_iter()
        .filter(|p| p.accepts.contains(&kind))
        .collect()
}

/// The ids of every pipeline, for messages.
pub fn ids() -> Vec<&'static str> {
    all().iter().map(|p| p.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
