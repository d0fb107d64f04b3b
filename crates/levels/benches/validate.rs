//! Loading and validating large floor plans (the target: a
//! 1,000,000-vertex plan validates in at most 2 s in release). Measures
//! core's plane-sweep validation alone and the whole load (JSON parse,
//! cleaning, bounds, validation) of generated plans: the big hall, a
//! 1000 x 1000 maze and a star whose edges all overlap in their boxes.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_core::geom::validate_polygon_with_holes;
use navscope_levels::generate::{big_floor_plan, rectilinear_maze, star_polygon};
use navscope_levels::{load_bytes, write};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("validate");
    g.sample_size(10);
    for (name, plan) in [
        ("big floor plan, 1M vertices", big_floor_plan(1, 1_000_000)),
        ("maze 1000 x 1000", rectilinear_maze(1, 1000, 1000)),
        ("star, 100k vertices", star_polygon(1, 100_000)),
    ] {
        eprintln!(
            "{name}: {} vertices, {} holes",
            plan.area.vertex_count(),
            plan.area.holes.len()
        );
        g.bench_function(format!("sweep: {name}"), |b| {
            b.iter(|| validate_polygon_with_holes(black_box(&plan.area)).unwrap())
        });
        let json = write::floor_plan_json(&plan);
        g.bench_function(format!("load JSON: {name}"), |b| {
            b.iter(|| load_bytes("plan.json", black_box(json.as_bytes())).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
