//! All seven stages, standing and crouching sizes, on the 130-brush
//! courtyard (`assets/levels/cspace/courtyard.map`) and on the generated
//! maze of 1,017 brushes (the speed target: under one second).
//!
//! `cargo bench -p navscope-cspace`

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_core::Runner;
use navscope_core::level::{BrushLevel, Level, LevelData};
use navscope_cspace::samples;

fn build(level: &Arc<Level>) -> usize {
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), level.clone());
    r.run_all();
    assert!(r.first_error().is_none());
    r.navmesh().map(|m| m.nodes.len()).unwrap_or(0)
}

fn level(name: &str, b: BrushLevel) -> Arc<Level> {
    Arc::new(Level {
        source: name.into(),
        data: LevelData::Brushes(b),
    })
}

fn bench(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/levels/cspace/courtyard.map"
    );
    let courtyard =
        Arc::new(navscope_levels::load(std::path::Path::new(path)).expect("courtyard.map loads"));
    let maze = level("maze", samples::maze(23, 1));
    let mut g = c.benchmark_group("cspace");
    g.sample_size(10);
    g.bench_function("courtyard (114 brushes, all stages, 2 sizes)", |b| {
        b.iter(|| black_box(build(&courtyard)))
    });
    g.bench_function("maze (1017 brushes, all stages, 2 sizes)", |b| {
        b.iter(|| black_box(build(&maze)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
