//! ANavMG convex decomposition (placeholder while the pipeline is written).
use navscope_core::Pipeline;
use navscope_core::level::LevelKind;

/// The `convex` pipeline.
pub fn pipeline() -> Pipeline {
    Pipeline { id: "convex", title: "ANavMG convex decomposition", accepts: vec![LevelKind::FloorPlan], params: vec![], stages: vec![] }
}
