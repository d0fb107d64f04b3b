//! ANavMG on a floor plan of 10,000 vertices and 3,000 notches (the
//! speed target: under 100 ms in release), on the largest corpus
//! plan, and through the stage runner.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_convex::{decompose_plan, pipeline};
use navscope_core::Runner;
use navscope_core::level::{Level, LevelData};

fn bench(c: &mut Criterion) {
    let big = navscope_levels::generate::big_floor_plan(1, 10_000);
    let notches = navscope_convex::notches::find_notches(&big.area, 0.0).len();
    eprintln!(
        "big plan: {} vertices, {} holes, {notches} notches",
        big.area.vertex_count(),
        big.area.holes.len()
    );
    let mut g = c.benchmark_group("anavmg");
    g.sample_size(20);
    g.bench_function("10k vertices, 3k notches, removal", |b| {
        b.iter(|| decompose_plan(black_box(&big.area), 0.0, true).unwrap())
    });
    g.bench_function("10k vertices, 3k notches, tau 5", |b| {
        b.iter(|| decompose_plan(black_box(&big.area), 5.0, true).unwrap())
    });
    let level = Arc::new(Level {
        source: "big".into(),
        data: LevelData::FloorPlan(big.clone()),
    });
    g.bench_function("10k vertices, all stages through the runner", |b| {
        b.iter(|| {
            let mut r = Runner::new(Arc::new(pipeline()), level.clone());
            r.run_all();
            black_box(r.navmesh().unwrap().nodes.len())
        })
    });
    let table8 = navscope_levels::generate::floor_plan(29, 21);
    g.bench_function("corpus table8 (106 notches)", |b| {
        b.iter(|| decompose_plan(black_box(&table8.area), 0.0, true).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
