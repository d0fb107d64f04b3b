//! The registry of every navscope pipeline.
//!
//! The app and the CLI find pipelines here, by id or by the level kinds they
//! accept, so neither names a pipeline crate itself.

use std::sync::Arc;

use navscope_core::Pipeline;
use navscope_core::level::LevelKind;

/// Every pipeline, in the order menus list them.
pub fn all() -> Vec<Arc<Pipeline>> {
    vec![
        Arc::new(navscope_convex::pipeline()),
        Arc::new(navscope_voxel::pipeline()),
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
}
