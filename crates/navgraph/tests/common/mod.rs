//! Helpers shared by the integration tests.
// Each test binary uses a subset of these helpers.
#![allow(dead_code)]

use std::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

use navscope_core::level::Level;
use navscope_core::{Artifact, ParamValue, Pipeline, Runner};

/// Path of a file under the repository root.
pub fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// Loads a level from the repository's assets.
pub fn level(rel: &str) -> Level {
    navscope_levels::load(&repo(rel)).unwrap_or_else(|e| panic!("{e}"))
}

/// A raster level from an obstacle mask (row-major, 1 = obstacle).
pub fn raster(
    source: &str,
    width: u32,
    height: u32,
    metres_per_pixel: f64,
    obstacle: Vec<u8>,
) -> Level {
    Level {
        source: source.into(),
        data: navscope_core::level::LevelData::Raster(navscope_core::level::RasterPlan {
            width,
            height,
            metres_per_pixel,
            obstacle,
            rgba: vec![],
        }),
    }
}

/// Runs every stage of `pipeline` on `level` with the given parameters and
/// panics on the first error.
pub fn run(pipeline: Pipeline, level: Level, params: &[(&str, ParamValue)]) -> Runner {
    let mut r = Runner::new(Arc::new(pipeline), Arc::new(level));
    for (k, v) in params {
        r.set_param(k, v.clone()).unwrap();
    }
    r.run_all();
    if let Some((i, e)) = r.first_error() {
        panic!("stage {} failed: {e}", r.pipeline().stages[i].info.id);
    }
    r
}

/// The artifact of stage `id`, downcast.
pub fn artifact<'a, T: Artifact>(r: &'a Runner, id: &str) -> &'a T {
    let i = r.pipeline().stage_index(id).unwrap();
    let a: &Arc<dyn Artifact> = r.result(i).unwrap().outcome.as_ref().unwrap();
    let any: &dyn Any = a.as_ref();
    any.downcast_ref::<T>().unwrap()
}
