//! Building one side of a comparison: the level through the registry's
//! conversions into the pipeline, every stage run, the NavMesh out.

use std::sync::Arc;

use navscope_core::level::Level;
use navscope_core::params::ParamValues;
use navscope_core::{MemoryBudget, NavMesh, Pipeline, Runner};

/// Runs every stage of `pipeline` with `params` on `level` (converted
/// first when the pipeline reads it through a conversion,
/// `navscope_pipelines::level_for`) and returns its NavMesh, which carries
/// every stage's time and counts. Every stage honours `budget`. A failed
/// stage is an error naming the level and the stage.
pub fn build(
    level: &Arc<Level>,
    pipeline: &Arc<Pipeline>,
    params: ParamValues,
    budget: MemoryBudget,
) -> Result<NavMesh, String> {
    let input = navscope_pipelines::level_for(pipeline, level)?;
    let mut r = Runner::new(pipeline.clone(), input);
    r.set_params(params);
    r.set_budget(budget);
    r.run_all();
    if let Some((i, e)) = r.first_error() {
        return Err(format!(
            "{}: stage '{}' failed: {e}",
            level.source, pipeline.stages[i].info.id
        ));
    }
    r.navmesh().ok_or_else(|| {
        format!(
            "{}: pipeline '{}' produced no NavMesh",
            level.source, pipeline.id
        )
    })
}
