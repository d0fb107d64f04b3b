//! A* and funnel on a 100 x 100 grid mesh with staggered walls, corner to
//! corner: `cargo bench -p navscope-path --bench search`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::DVec3;
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, NavMesh, SearchOptions, astar, find_path, funnel};

/// Walls every 10 columns, open alternately at the top and the bottom, so
/// the path snakes and the search explores most of the grid.
fn maze() -> NavMesh {
    grid_mesh(100, 100, |i, j| {
        i % 10 == 5 && if (i / 10) % 2 == 0 { j < 95 } else { j > 4 }
    })
}

fn bench(c: &mut Criterion) {
    let m = maze();
    let loc = Locator::new(&m);
    let opts = SearchOptions::default();
    let (from, to) = (DVec3::new(0.5, 0.0, 0.5), DVec3::new(99.5, 0.0, 99.5));
    let (s, g) = (loc.locate(from).unwrap(), loc.locate(to).unwrap());
    let search = astar(&m, s.node, g.node, s.point, g.point, &opts);
    let nodes = search.nodes.clone().expect("the maze is connected");

    c.bench_function("astar 100x100 maze", |b| {
        b.iter(|| astar(black_box(&m), s.node, g.node, s.point, g.point, &opts))
    });
    c.bench_function("funnel 100x100 maze path", |b| {
        b.iter(|| funnel(black_box(&m), &nodes, &search.links, s.point, g.point, 0.0))
    });
    c.bench_function("find_path 100x100 maze", |b| {
        b.iter(|| find_path(black_box(&m), &loc, from, to, &opts))
    });
    c.bench_function("locator build 100x100", |b| {
        b.iter(|| Locator::new(black_box(&m)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
