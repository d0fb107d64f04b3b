//! The Recast demo meshes as navscope builds them: the `voxel` pipeline
//! with the Recast demo's settings (issue #40), and a fixed-seed
//! generator for query pairs. Shared by the Detour bench and the tests.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use navscope_core::{NavMesh, ParamValues, Runner};

/// The Recast demo's settings as navscope's `voxel` parameters (issue #40).
const DEMO: [(&str, &str); 11] = [
    ("cell_size", "0.3"),
    ("cell_height", "0.2"),
    ("stand.height", "2.0"),
    ("stand.radius", "0.6"),
    ("stand.max_step", "0.9"),
    ("stand.max_slope", "45"),
    ("passes", "stand"),
    ("max_error", "0.39"),
    ("max_edge_len", "12"),
    ("filter_ledge_spans", "true"),
    ("tile_size", "0"),
];

/// navscope's voxel NavMesh of the level with the demo settings.
pub fn navscope_mesh(path: &Path) -> NavMesh {
    let level = navscope_levels::load(path).unwrap_or_else(|e| panic!("{e}"));
    let pipeline = navscope_pipelines::by_id("voxel").expect("the voxel pipeline");
    let mut values = ParamValues::defaults(&pipeline.params);
    for (name, text) in DEMO {
        let spec = navscope_core::params::spec(&pipeline.params, name).expect(name);
        let v = spec.parse(text).expect(name);
        values.set(&pipeline.params, name, v).expect(name);
    }
    let n = pipeline.stages.len();
    let mut r = Runner::new(pipeline, Arc::new(level));
    r.set_params(values);
    r.run_to(n - 1, &AtomicBool::new(false), &mut |_| {});
    assert!(
        r.first_error().is_none(),
        "{}: {:?}",
        path.display(),
        r.first_error()
    );
    r.navmesh().expect("voxel makes a NavMesh")
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants): the
/// same pairs on every run, without a dependency.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
