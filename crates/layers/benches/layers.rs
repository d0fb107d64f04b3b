//! Times the whole algorithm (sites, layer axes, every opening) on the
//! paper's environments (Figure 5, Figure 6, Figure 7 with each connection
//! count of Table 1) and on `generate::stacked_floors` with several floors.

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_layers::{build, samples, settings};
use navscope_levels::generate::stacked_floors;

fn bench(c: &mut Criterion) {
    let set = settings(0.001, 0.01);
    let mut g = c.benchmark_group("layers");
    g.sample_size(30);
    for floors in [2, 4, 8, 16] {
        let level = stacked_floors(7, floors);
        g.bench_function(format!("stacked_floors/{floors}"), |b| {
            b.iter(|| build(&level, &set).expect("builds"))
        });
    }
    let fig5 = samples::figure5();
    g.bench_function("figure5", |b| {
        b.iter(|| build(&fig5, &set).expect("builds"))
    });
    let fig6 = samples::figure6();
    g.bench_function("figure6", |b| {
        b.iter(|| build(&fig6, &set).expect("builds"))
    });
    for k in [1, 2, 3, 5, 8, 14, 20, 28] {
        let level = samples::figure7(k);
        g.bench_function(format!("figure7/{k}"), |b| {
            b.iter(|| build(&level, &set).expect("builds"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
