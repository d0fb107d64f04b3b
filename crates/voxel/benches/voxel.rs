//! Whole builds of the Recast demo meshes with the Recast demo settings
//! (cell 0.3 m, height 0.2 m, agent 2.0 m / 0.6 m, climb 0.9 m, slope 45
//! degrees), on one thread, one tile: the standing pass alone and all five
//! passes, and Recast's monotone build without the detail mesh; plus the
//! five passes in 64-cell tiles on every core. Every
//! build is cold (`reuse_tiles` off). Before the
//! criterion groups, the median time of every stage over 15 runs is printed.
//! Meshes absent from `../shared/data/recast-meshes/` are skipped.
//!
//! `CARGO_TARGET_DIR=/work/tgt-rel cargo bench -p navscope-voxel`

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use navscope_core::level::{Level, LevelData};
use navscope_core::{ParamValue, ParamValues, Runner};
use navscope_voxel::build;

// The integration tests' helpers: Recast demo meshes and settings.
#[path = "../tests/common/mod.rs"]
mod common;
use common::{load, recast_mesh, recast_params};

/// The Recast demo settings (with its edge error 1.3 cells = 0.39 m, edge
/// length 12 m and ledge filter) with `passes` in tiles of `tile` cells,
/// cold (no tile reused from an earlier iteration), plus `extra`.
fn params_with(passes: &str, tile: i64, extra: &[(&str, ParamValue)]) -> ParamValues {
    let mut o = vec![
        ("tile_size", ParamValue::Int(tile)),
        ("passes", ParamValue::Text(passes.into())),
        ("reuse_tiles", ParamValue::Bool(false)),
        ("max_error", ParamValue::Float(0.39)),
        ("max_edge_len", ParamValue::Float(12.0)),
        ("filter_ledge_spans", ParamValue::Bool(true)),
    ];
    o.extend(extra.iter().cloned());
    recast_params(&o)
}

fn params(passes: &str, tile: i64) -> ParamValues {
    params_with(passes, tile, &[])
}

fn stage_medians(name: &str, level: &Level, p: &ParamValues) {
    let pipeline = Arc::new(navscope_voxel::pipeline());
    let mut per_stage: Vec<Vec<f64>> = vec![Vec::new(); pipeline.stages.len()];
    for _ in 0..15 {
        let mut r = Runner::new(pipeline.clone(), Arc::new(level.clone()));
        r.set_params(p.clone());
        r.run_all();
        for (i, v) in per_stage.iter_mut().enumerate() {
            v.push(r.result(i).map_or(f64::NAN, |x| x.ms));
        }
    }
    let mut line = format!(
        "{name} [{}, {}] median ms per stage:",
        p.text("passes"),
        p.text("partition")
    );
    let mut total = 0.0;
    for (i, v) in per_stage.iter_mut().enumerate() {
        v.sort_by(f64::total_cmp);
        total += v[7];
        line += &format!(" {} {:.2};", pipeline.stages[i].info.id, v[7]);
    }
    let r = navscope_voxel::build(level, p).unwrap();
    eprintln!("{line} sum {total:.2}; {} nodes", r.navmesh().nodes.len());
}

fn bench(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for name in ["nav_test.obj", "dungeon.obj"] {
        let Some(level) = recast_mesh(name).map(|p| load(&p)) else {
            continue;
        };
        if !matches!(level.data, LevelData::Mesh(_)) {
            continue;
        }
        let stand = params("stand", 0);
        let all = params("stand,crouch,prone,swim,sidestep", 0);
        // Recast's monotone build without the detail mesh, for its figure.
        let monotone = params_with(
            "stand",
            0,
            &[
                ("partition", ParamValue::Text("monotone".into())),
                ("detail_sample_dist", ParamValue::Float(0.0)),
            ],
        );
        one.install(|| {
            stage_medians(name, &level, &stand);
            stage_medians(name, &level, &monotone);
            stage_medians(name, &level, &all);
        });
        let mut g = c.benchmark_group(name);
        g.sample_size(20);
        g.bench_function("stand, 1 thread", |b| {
            b.iter(|| one.install(|| build(&level, &stand).unwrap()))
        });
        g.bench_function("5 passes, 1 thread", |b| {
            b.iter(|| one.install(|| build(&level, &all).unwrap()))
        });
        let tiled = params("stand,crouch,prone,swim,sidestep", 64);
        g.bench_function("5 passes, 64-cell tiles, all threads", |b| {
            b.iter(|| build(&level, &tiled).unwrap())
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
