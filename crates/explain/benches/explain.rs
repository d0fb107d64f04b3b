//! The speed goals: `cargo bench -p navscope-explain --bench
//! explain`.
//! - `gap 4970-node grid`: the gap of a failed query on a 71 x 71 grid
//!   mesh cut in two by a wall column (goal: 100 ms).
//! - `why dungeon.obj voxel`: `why_not_here` at a point of the Recast
//!   dungeon dropped by the voxel pipeline, its checked fix included
//!   (goal: 300 ms).
//! - `fix search <map> cspace`: the gap between the two largest islands
//!   of a shared LibreQuake map explained and its fix searched (goal: 2 s;
//!   the default budget starts no build that would end after 2 s, judged
//!   by the longest so far, so read the fix printed before the run too).
//!
//! Data under `../shared/data` missing: those benches are skipped with a
//! message.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::DVec3;
use navscope_core::Runner;
use navscope_explain::{FixBudget, explain_gap, failed_path_gap, islands, why_not_here};
use navscope_path::SearchOptions;
use navscope_path::sample::grid_mesh;

fn shared(rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("SKIPPED: {} is missing", p.display());
        None
    }
}

fn built(pipeline: &str, file: &Path) -> Runner {
    let level = navscope_levels::load(file).expect("the level loads");
    let p = navscope_pipelines::by_id(pipeline).expect("a pipeline");
    let mut r = Runner::new(p, Arc::new(level));
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    r
}

fn gap_on_a_grid(c: &mut Criterion) {
    let m = grid_mesh(71, 71, |i, _| i == 35);
    let opts = SearchOptions::default();
    let (start, goal) = (0u32, (m.nodes.len() - 1) as u32);
    assert!(failed_path_gap(&m, &opts, start, goal).is_some());
    c.bench_function(&format!("gap {}-node grid", m.nodes.len()), |b| {
        b.iter(|| failed_path_gap(black_box(&m), &opts, start, goal))
    });
}

/// The first floor point of the level (a triangle centroid facing up)
/// that the built mesh does not keep and a rule explains.
fn dropped_point(r: &mut Runner) -> Option<DVec3> {
    let navscope_core::level::LevelData::Mesh(m) = &r.level().data else {
        return None;
    };
    let candidates: Vec<DVec3> = (0..m.mesh.triangles.len())
        .filter(|&i| m.mesh.normal(i).y > 0.9)
        .map(|i| {
            let t = m.mesh.triangle(i);
            ((t[0] + t[1] + t[2]) / 3.0).as_dvec3()
        })
        .collect();
    let quick = FixBudget {
        total: 0,
        ..FixBudget::default()
    };
    candidates.into_iter().step_by(7).find(|p| {
        let w = why_not_here(r, *p, &quick);
        !w.walkable && !w.reason.contains("no rule")
    })
}

fn why_on_dungeon(c: &mut Criterion) {
    let Some(file) = shared("recast-meshes/dungeon.obj") else {
        return;
    };
    let mut r = built("voxel", &file);
    let Some(at) = dropped_point(&mut r) else {
        eprintln!("SKIPPED: no dropped point found on dungeon.obj");
        return;
    };
    let w = why_not_here(&mut r, at, &FixBudget::default());
    eprintln!("why at {at}: stage {}: {}", w.stage, w.reason);
    let mut g = c.benchmark_group("why");
    g.sample_size(10);
    g.bench_function("why dungeon.obj voxel", |b| {
        b.iter(|| why_not_here(&mut r.clone(), at, &FixBudget::default()))
    });
    g.finish();
}

fn fix_search_on_librequake(c: &mut Criterion) {
    let mut g = c.benchmark_group("fix search");
    g.sample_size(10);
    for map in ["lq_e0m1", "lq_e1m1"] {
        let Some(file) = shared(&format!("quake-maps/librequake/{map}.map")) else {
            continue;
        };
        let r = built("cspace", &file);
        let mesh = r.navmesh().expect("a NavMesh");
        let opts = SearchOptions::default();
        let parts = islands(&mesh, &opts);
        let Some(second) = parts.get(1) else {
            eprintln!("SKIPPED: {map} is in one piece");
            continue;
        };
        let Some(gap) = second.gap.clone() else {
            continue;
        };
        let ends = (gap.from, gap.to);
        let t = std::time::Instant::now();
        let explained = explain_gap(gap.clone(), &r, opts.clone(), ends, &FixBudget::default());
        eprintln!(
            "{map}: {:.2} s, fix {:?}: {}",
            t.elapsed().as_secs_f64(),
            explained.fix.first(),
            explained.reason
        );
        g.bench_function(format!("fix search {map} cspace"), |b| {
            b.iter(|| explain_gap(gap.clone(), &r, opts.clone(), ends, &FixBudget::default()))
        });
    }
    g.finish();
}

/// The fix search of the failed route from lq_e1m1's player start to its
/// exit in `voxel` (Quake's player, as `navscope-cli path` builds it),
/// searched on the tiles around the gap and confirmed by a whole build
/// (`explain_gap`), and on the whole level only (`explain_gap_locally`
/// with no local check): before and after the local search.
fn fix_search_in_voxel(c: &mut Criterion) {
    let Some(file) = shared("quake-maps/librequake/lq_e1m1.map") else {
        return;
    };
    let level = Arc::new(navscope_levels::load(&file).expect("the map loads"));
    let p = navscope_pipelines::by_id("voxel").expect("voxel");
    let mut values = navscope_core::ParamValues::defaults(&p.params);
    if let Some(agent) = navscope_pipelines::agents::for_level(&level) {
        agent
            .apply(&p, &level, &mut values)
            .expect("Quake's player");
    }
    let level = navscope_pipelines::level_for(&p, &level).expect("voxel reads it");
    let mut r = Runner::new(p, level);
    r.set_params(values);
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    let mesh = r.navmesh().expect("a NavMesh");
    // The start and the exit as `navscope-cli routes lq_e1m1.map
    // --pipeline voxel --json` finds them.
    let ends = (DVec3::new(30.25, 2.0, -45.5), DVec3::new(-6.0, 14.0, -29.5));
    let opts = SearchOptions::default();
    let at = navscope_path::Locator::new(&mesh);
    let Err(navscope_path::PathError::NoConnection {
        start_node,
        goal_node,
        ..
    }) = navscope_path::find_path(&mesh, &at, ends.0, ends.1, &opts)
    else {
        eprintln!("SKIPPED: lq_e1m1's route is found in voxel");
        return;
    };
    let t = std::time::Instant::now();
    let gap = failed_path_gap(&mesh, &opts, start_node, goal_node).expect("a gap");
    eprintln!(
        "lq_e1m1 voxel: {} nodes, gap in {:.1} ms",
        mesh.nodes.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    let whole = || {
        let mut joins = navscope_explain::fix::rebuild_and_search(&r, ends.0, ends.1, opts.clone());
        let solids = navscope_explain::solids::Solids::new(r.level());
        navscope_explain::fix::explain_gap_locally(
            gap.clone(),
            &r,
            solids.as_ref(),
            false,
            &FixBudget::default(),
            None,
            &mut joins,
        )
    };
    let local = || explain_gap(gap.clone(), &r, opts.clone(), ends, &FixBudget::default());
    for (name, f) in [
        ("tiles around the gap", &local as &dyn Fn() -> _),
        ("whole level", &whole),
    ] {
        let t = std::time::Instant::now();
        let g = f();
        eprintln!(
            "lq_e1m1 voxel fix search ({name}): {:.2} s, fix {:?}",
            t.elapsed().as_secs_f64(),
            g.fix.first()
        );
    }
    let mut g = c.benchmark_group("fix search voxel");
    g.sample_size(10);
    g.bench_function("fix search lq_e1m1 voxel, tiles around the gap", |b| {
        b.iter(local)
    });
    g.bench_function("fix search lq_e1m1 voxel, whole level", |b| b.iter(whole));
    g.finish();
}

criterion_group!(
    benches,
    gap_on_a_grid,
    why_on_dungeon,
    fix_search_on_librequake,
    fix_search_in_voxel
);
criterion_main!(benches);
