//! Builds the multi-layered medial axis of `stacked_floors` levels.

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_layers::{build, settings};
use navscope_levels::generate::stacked_floors;

fn bench(c: &mut Criterion) {
    let set = settings(0.001, 0.01);
    for floors in [2, 4, 8] {
        let level = stacked_floors(7, floors);
        c.bench_function(&format!("stacked_floors/{floors}"), |b| b.iter(|| build(&level, &set).expect("builds")));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
