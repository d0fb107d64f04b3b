//! Benchmarks of the voxel pipeline on the Recast demo meshes
//! (`nav_test.obj`, `dungeon.obj`) with the Recast demo settings (cell
//! 0.3 m, height 0.2 m, agent 2.0 m / 0.6 m, climb 0.9 m, slope 45
//! degrees, edge error 1.3 cells = 0.39 m, edges up to 12 m, ledge filter),
//! one tile, cold: `reuse_tiles` off, so no stage takes a tile from the
//! tile cache (`src/tile_cache.rs`) and every iteration builds its tiles
//! anew. Meshes absent from `../shared/data/recast-meshes/` are skipped
//! with a `SKIPPED:` line on stderr.
//!
//! Run (release; the voxel crate alone, never the workspace):
//!
//! ```text
//! cargo bench -p navscope-voxel --bench voxel                       # everything
//! cargo bench -p navscope-voxel --bench voxel -- stage/             # every stage benchmark
//! cargo bench -p navscope-voxel --bench voxel -- stage/nav_test/monotone            # one mesh, one partition
//! cargo bench -p navscope-voxel --bench voxel -- stage/nav_test/monotone/regions    # one stage
//! cargo bench -p navscope-voxel --bench voxel -- stage/ --test      # each once, as a check
//! ```
//!
//! What runs, for each mesh in turn:
//!
//! 1. Printed before the mesh's groups (whatever the filter): the median
//!    time of every stage over 15 whole builds on one thread, as the
//!    [`Runner`] times them, for the standing pass (watershed), Recast's
//!    monotone build without the detail mesh, and all five passes.
//! 2. Groups `stage/MESH/PARTITION` (MESH `nav_test` or `dungeon`,
//!    PARTITION `watershed` or `monotone`), one benchmark per stage of
//!    [`navscope_voxel::pipeline()`], named by the stage id
//!    (`stage/nav_test/monotone/regions`): the standing pass on one
//!    thread, the detail mesh on (sample distance 6 cells, error 1 cell,
//!    Recast's demo values), ledge drops on. Each times that stage alone
//!    ([`Runner::run_stage`]) on the artifacts of the stages before it,
//!    built once beforehand by a whole build and never rebuilt in the timed
//!    part; the dropping of the stage's artifact is not timed either.
//!    Before timing, one run of the stage alone must give the counts the
//!    whole build gave it with no tile reused, or the benchmark panics.
//!    Criterion takes 10 samples over 1 s after a 0.3 s warm-up.
//! 3. Groups `MESH.obj`: whole builds (`navscope_voxel::build`) of the
//!    standing pass and of all five passes on one thread, one tile, and of
//!    the five passes in 64-cell tiles on every core.
//!
//! The stages against Recast's build timers (`rcContext` in
//! RecastDemo's Sample_SoloMesh; see "Stage mapping to Recast" in
//! `src/lib.rs`):
//!
//! | stage | Recast timer |
//! |---|---|
//! | `tiles` | none (the tile layout and each tile's triangles) |
//! | `voxelize` | rasterize triangles (`rcRasterizeTriangles`) |
//! | `compact` | the three span filters + `rcBuildCompactHeightfield` |
//! | `flag` | erode walkable area (`rcErodeWalkableArea`) |
//! | `regions` | distance field + regions (`rcBuildDistanceField`, `rcBuildRegions`; monotone: `rcBuildRegionsMonotone` alone, no distance field) |
//! | `contours` + `simplify` | contours (`rcBuildContours` traces and simplifies) |
//! | `triangulate` + `polymesh` | polygon mesh (`rcBuildPolyMesh`) |
//! | `detail` | detail mesh (`rcBuildPolyMeshDetail`) |
//! | `graph`, `movers` | none (Detour's `dtCreateNavMeshData` is outside Recast's build) |
//! | `drops` | none (ledge jump links; `max_drop=0` switches them off) |

use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// The group `stage/{mesh}/{partition}`: every stage of the pipeline timed
/// alone on `one` (a one-thread pool) on the artifacts of the stages before
/// it, which one whole build made beforehand.
fn stage_group(
    c: &mut Criterion,
    one: &rayon::ThreadPool,
    mesh: &str,
    level: &Level,
    partition: &str,
) {
    let p = params_with(
        "stand",
        0,
        &[("partition", ParamValue::Text(partition.into()))],
    );
    let pipeline = Arc::new(navscope_voxel::pipeline());
    let mut r = Runner::new(pipeline.clone(), Arc::new(level.clone()));
    r.set_params(p);
    one.install(|| r.run_all());
    if let Some((i, e)) = r.first_error() {
        panic!("{mesh} [{partition}]: stage {i} failed: {e}");
    }
    let mut g = c.benchmark_group(format!("stage/{mesh}/{partition}"));
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (i, stage) in pipeline.stages.iter().enumerate() {
        let id = stage.info.id;
        // The stage alone gives what it gave in the whole build, cold.
        let alone = one
            .install(|| r.run_stage(i))
            .unwrap_or_else(|e| panic!("{mesh} [{partition}] {id} alone: {e}"));
        let counts = alone.counts();
        assert_eq!(
            counts,
            r.result(i).unwrap().counts,
            "{mesh} [{partition}] {id}: alone and in the build"
        );
        assert_eq!(
            counts.get("tiles reused").copied().unwrap_or(0),
            0,
            "{mesh} [{partition}] {id}: a tile came from the cache"
        );
        drop(alone);
        g.bench_function(id, |b| {
            // The whole sample on the pool's thread (no hand-over per
            // iteration); each artifact is dropped outside the timing.
            b.iter_custom(|iters| {
                one.install(|| {
                    let mut timed = Duration::ZERO;
                    for _ in 0..iters {
                        let start = Instant::now();
                        let a = std::hint::black_box(r.run_stage(i));
                        timed += start.elapsed();
                        drop(a.expect("the stage ran once already"));
                    }
                    timed
                })
            })
        });
    }
    g.finish();
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
        let mesh = name.trim_end_matches(".obj");
        for partition in ["watershed", "monotone"] {
            stage_group(c, &one, mesh, &level, partition);
        }
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
