//! The checked fix of a gap on a tiled pipeline builds only the tiles
//! around the gap (`navscope_explain::crop::around_gap`): the fix it finds
//! is the one a build of the whole level finds, on `ledge.ron` and on a
//! made-up level of two rooms, the second 1 m up, long enough that the
//! crop is a real one.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use glam::{DVec3, Vec3};
use navscope_core::Runner;
use navscope_core::geom::TriMesh;
use navscope_core::level::{Level, LevelData, MeshLevel};
use navscope_core::params::{ParamValue, ParamValues};
use navscope_explain::crop::around_gap;
use navscope_explain::fix::{explain_gap_with, rebuild_and_search};
use navscope_explain::solids::Solids;
use navscope_explain::{FixBudget, Gap, explain_gap, failed_path_gap};
use navscope_path::{Locator, PathError, SearchOptions, find_path};

/// Voxel with only its standing pass and tiles of `tile` cells.
fn voxel(level: Arc<Level>, tile: i64) -> Runner {
    let p = navscope_pipelines::by_id("voxel").expect("voxel");
    let level = navscope_pipelines::level_for(&p, &level).expect("voxel reads it");
    let mut v = ParamValues::defaults(&p.params);
    v.set(&p.params, "passes", ParamValue::Text("stand".into()))
        .expect("a pass list");
    v.set(&p.params, "tile_size", ParamValue::Int(tile))
        .expect("in range");
    let mut r = Runner::new(p, level);
    r.set_params(v);
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    r
}

fn gap_of(r: &Runner, from: DVec3, to: DVec3) -> Gap {
    let mesh = r.navmesh().expect("a NavMesh");
    let opts = SearchOptions::default();
    let err = find_path(&mesh, &Locator::new(&mesh), from, to, &opts).expect_err("no path");
    let PathError::NoConnection {
        start_node,
        goal_node,
        ..
    } = err
    else {
        panic!("expected no connection, got {err}");
    };
    failed_path_gap(&mesh, &opts, start_node, goal_node).expect("a gap")
}

fn budget() -> FixBudget {
    FixBudget {
        time: Duration::from_secs(3600),
        ..FixBudget::default()
    }
}

/// The fix found on the tiles around the gap and on the whole level.
fn local_and_whole(r: &Runner, from: DVec3, to: DVec3) -> (Gap, Gap) {
    let gap = gap_of(r, from, to);
    let opts = SearchOptions::default();
    let local = explain_gap(gap.clone(), r, opts.clone(), (from, to), &budget());
    let mut joins = rebuild_and_search(r, from, to, opts);
    let solids = Solids::new(r.level());
    let whole = explain_gap_with(
        gap,
        r,
        solids.as_ref(),
        false,
        Some((&budget(), &mut joins)),
    );
    (local, whole)
}

/// Floor quads 1 m square from x = `x0` to `x1`, z 0 to 4, at `y`.
fn floor(mesh: &mut TriMesh, x0: i32, x1: i32, y: f32) {
    for x in x0..x1 {
        for z in 0..4 {
            let base = mesh.vertices.len() as u32;
            let (x, z) = (x as f32, z as f32);
            mesh.vertices.extend([
                Vec3::new(x, y, z),
                Vec3::new(x + 1.0, y, z),
                Vec3::new(x + 1.0, y, z + 1.0),
                Vec3::new(x, y, z + 1.0),
            ]);
            mesh.triangles
                .extend([[base, base + 2, base + 1], [base, base + 3, base + 2]]);
        }
    }
}

#[test]
fn the_fix_on_the_tiles_around_a_gap_is_the_whole_levels() {
    // Two rooms along x, 60 m each, the second 1 m up, met by a riser.
    let mut mesh = TriMesh::default();
    floor(&mut mesh, 0, 60, 0.0);
    floor(&mut mesh, 60, 120, 1.0);
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend([
        Vec3::new(60.0, 0.0, 0.0),
        Vec3::new(60.0, 1.0, 0.0),
        Vec3::new(60.0, 1.0, 4.0),
        Vec3::new(60.0, 0.0, 4.0),
    ]);
    mesh.triangles
        .extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
    let level = Arc::new(Level {
        source: "two rooms made in the test".into(),
        data: LevelData::Mesh(MeshLevel {
            mesh,
            ..Default::default()
        }),
    });
    let r = voxel(level, 32);
    let (from, to) = (DVec3::new(10.0, 0.0, 2.0), DVec3::new(110.0, 1.0, 2.0));
    let gap = gap_of(&r, from, to);
    // A real crop: fewer triangles than the level.
    let crop = around_gap(&r, gap.from, gap.to).expect("a crop of whole tiles");
    let count = |l: &Level| match &l.data {
        LevelData::Mesh(m) => m.mesh.triangles.len(),
        _ => 0,
    };
    assert!(
        count(crop.level()) < count(r.level()) / 2,
        "{} of {}",
        count(crop.level()),
        count(r.level())
    );
    let (local, whole) = local_and_whole(&r, from, to);
    assert!(!whole.fix.is_empty(), "{}", whole.reason);
    assert_eq!(local.fix, whole.fix, "{} / {}", local.reason, whole.reason);
}

#[test]
fn the_fix_on_ledges_tiles_is_the_whole_levels() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/levels/cspace/ledge.ron");
    let level = Arc::new(navscope_levels::load(&file).expect("ledge.ron loads"));
    let r = voxel(level, 16);
    // From the floor up onto the raised block (x 1..5, 1 m up).
    let (from, to) = (DVec3::new(-3.0, 0.0, 0.0), DVec3::new(3.0, 1.0, 0.0));
    let (local, whole) = local_and_whole(&r, from, to);
    assert!(!whole.fix.is_empty(), "{}", whole.reason);
    assert_eq!(local.fix, whole.fix, "{} / {}", local.reason, whole.reason);
}
