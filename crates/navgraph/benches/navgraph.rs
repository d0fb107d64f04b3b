//! Speed of the `navgraph` pipeline: the arena map from PNG to every graph
//! (target < 50 ms), a 2048 x 2048 raster (target < 1 s), and the
//! designer-node pipeline on the lobby.

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_core::Runner;
use navscope_core::level::{Level, LevelData, RasterPlan};

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// A 2048 x 2048 office floor at 0.05 m per pixel: rooms of 128 pixels with
/// 2-pixel-thick walls, a door in each wall, and a round pillar in every
/// room. Deterministic.
pub fn big_raster() -> Level {
    let n = 2048u32;
    let mut obstacle = vec![0u8; (n * n) as usize];
    for y in 0..n {
        for x in 0..n {
            let (rx, ry) = (x % 128, y % 128);
            let wall = rx < 2 || ry < 2;
            let door = (rx < 2 && (50..78).contains(&ry)) || (ry < 2 && (50..78).contains(&rx));
            let (dx, dy) = (rx as i32 - 64 - ((x / 128) % 3) as i32 * 10, ry as i32 - 64);
            let pillar = dx * dx + dy * dy < 12 * 12;
            if (wall && !door) || pillar {
                obstacle[(y * n + x) as usize] = 1;
            }
        }
    }
    Level {
        source: "big".into(),
        data: LevelData::Raster(RasterPlan {
            width: n,
            height: n,
            metres_per_pixel: 0.05,
            obstacle,
            rgba: vec![],
        }),
    }
}

fn run(pipeline: &Arc<navscope_core::Pipeline>, level: &Arc<Level>) -> usize {
    let mut r = Runner::new(pipeline.clone(), level.clone());
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    r.navmesh().map_or(0, |m| m.nodes.len())
}

fn benches(c: &mut Criterion) {
    let raster = Arc::new(navscope_navgraph::pipeline());
    let arena = Arc::new(
        navscope_levels::load(&repo("assets/levels/navgraph/arena.png")).expect("arena.png"),
    );
    c.bench_function("arena png to all graphs", |b| {
        b.iter(|| run(&raster, &arena))
    });
    let office = Arc::new(
        navscope_levels::load(&repo("assets/levels/raster/office.png")).expect("office.png"),
    );
    c.bench_function("office png to all graphs", |b| {
        b.iter(|| run(&raster, &office))
    });
    let lobby = Arc::new(
        navscope_levels::load(&repo("assets/levels/floorplan/lobby_nodes.ron")).expect("lobby"),
    );
    let nodes = Arc::new(navscope_navgraph::nodes_pipeline());
    c.bench_function("lobby nodes pipeline", |b| b.iter(|| run(&nodes, &lobby)));
    let big = Arc::new(big_raster());
    let mut g = c.benchmark_group("big");
    g.sample_size(10);
    g.bench_function("2048x2048 raster to all graphs", |b| {
        b.iter(|| run(&raster, &big))
    });
    g.finish();
}

criterion_group!(navgraph, benches);
criterion_main!(navgraph);
