//! Stage 9, local rebuild, through navscope-core's `Runner`: the pipeline's
//! own stages reuse the tiles of earlier runs whose inputs did not change,
//! report how many they rebuilt and reused, and give exactly what a cold
//! build gives.
//!
//! The cache is process-wide and tests run in parallel, so every test builds
//! levels no other test builds (its own crate positions).

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use common::*;
use navscope_core::level::{Level, LevelData, MeshLevel};
use navscope_core::{NavMesh, ParamValue, ParamValues, Runner};
use navscope_voxel::TileReuse;
use navscope_voxel::samples::MeshBuilder;
use navscope_voxel::stages::{
    CompactArtifact, ContourArtifact, DetailArtifact, FlagArtifact, PartitionArtifact,
    PolyMeshArtifact, SimplifyArtifact, TilesArtifact, TriangulateArtifact, VoxelArtifact,
};
use proptest::prelude::*;

fn level_of(m: MeshLevel) -> Level {
    Level {
        source: "rebuild test".into(),
        data: LevelData::Mesh(m),
    }
}

/// A walled 24 x 24 m floor with low crates (crouch under some) at `crates`.
fn yard(crates: &[(f32, f32)]) -> MeshLevel {
    let mut b = MeshBuilder::new();
    b.solid("floor", [0., -0.2, 0.], [24., 0., 24.]);
    b.solid("wall_south", [0., 0., -0.2], [24., 3., 0.]);
    b.solid("wall_north", [0., 0., 24.], [24., 3., 24.2]);
    for (i, (x, z)) in crates.iter().enumerate() {
        let top = if i % 2 == 0 { 0.6 } else { 1.5 };
        b.solid("crate", [*x, top - 0.1, *z], [x + 1.0, top, z + 1.0]);
    }
    b.level()
}

/// 0.2 m cells and 20-cell tiles: 6 x 7 tiles over the yard.
fn tiled(extra: &[(&str, ParamValue)]) -> ParamValues {
    let mut o = vec![
        ("cell_size", ParamValue::Float(0.2)),
        ("cell_height", ParamValue::Float(0.1)),
        ("tile_size", ParamValue::Int(20)),
    ];
    o.extend(extra.iter().cloned());
    params(&o)
}

/// The index of stage `id`.
fn stage(r: &Runner, id: &str) -> usize {
    r.pipeline().stage_index(id).unwrap()
}

/// The per-tile stages, in pipeline order (stages 1 to 8).
const PER_TILE: [&str; 9] = [
    "voxelize",
    "compact",
    "flag",
    "regions",
    "contours",
    "simplify",
    "triangulate",
    "polymesh",
    "detail",
];

/// The `reuse` of every per-tile stage, in [`PER_TILE`] order.
fn reuses(r: &Runner) -> [TileReuse; 9] {
    assert_eq!(stage(r, PER_TILE[0]), 1);
    assert_eq!(stage(r, PER_TILE[8]), 9);
    [
        artifact::<VoxelArtifact>(r, "voxelize").reuse.clone(),
        artifact::<CompactArtifact>(r, "compact").reuse.clone(),
        artifact::<FlagArtifact>(r, "flag").reuse.clone(),
        artifact::<PartitionArtifact>(r, "regions").reuse.clone(),
        artifact::<ContourArtifact>(r, "contours").reuse.clone(),
        artifact::<SimplifyArtifact>(r, "simplify").reuse.clone(),
        artifact::<TriangulateArtifact>(r, "triangulate")
            .reuse
            .clone(),
        artifact::<PolyMeshArtifact>(r, "polymesh").reuse.clone(),
        artifact::<DetailArtifact>(r, "detail").reuse.clone(),
    ]
}

fn tile_count(r: &Runner) -> usize {
    artifact::<TilesArtifact>(r, "tiles").layout.tiles.len()
}

/// The mesh without what differs between runs (times, tile counts).
fn graph_json(m: &NavMesh) -> String {
    serde_json::to_string(&(&m.nodes, &m.links, &m.metrics)).unwrap()
}

fn cold(level: Level, p: &ParamValues) -> String {
    let mut p = p.clone();
    p.set(
        &navscope_voxel::settings::specs(),
        "reuse_tiles",
        ParamValue::Bool(false),
    )
    .unwrap();
    let r = run(level, p);
    for reuse in reuses(&r) {
        assert!(reuse.reused.is_empty(), "a cold build reuses nothing");
    }
    graph_json(&navmesh(&r))
}

#[test]
fn an_edited_triangle_rebuilds_only_the_tiles_that_read_it() {
    let crates = [(2.3, 2.1), (11.1, 12.3), (20.2, 19.7), (5.4, 17.2)];
    let before = yard(&crates);
    // Keep the 1 m crate tops (25 columns): the edit changes one of them.
    let p = tiled(&[("min_region_size", ParamValue::Int(0))]);
    let first = run(level_of(before.clone()), p.clone());
    let n = tile_count(&first);
    assert!(n >= 36, "{n} tiles");

    // Hot reload: a new level value in which one triangle of the first
    // crate's top has one corner raised by 0.3 m.
    let mut after = before.clone();
    let t = after
        .mesh
        .triangles
        .iter()
        .position(|tri| {
            tri.iter().all(|&i| {
                let v = after.mesh.vertices[i as usize];
                (v.y - 0.6).abs() < 1e-6 && v.x < 4.0 && v.z < 4.0
            })
        })
        .expect("the first crate's top");
    let mut v = after.mesh.vertices[after.mesh.triangles[t][0] as usize];
    v.y += 0.3;
    after.mesh.vertices.push(v);
    after.mesh.triangles[t][0] = after.mesh.vertices.len() as u32 - 1;
    let second = run(level_of(after.clone()), p.clone());

    // The tiles whose padded cells the triangle touches, before or after.
    let reading = |r: &Runner| -> BTreeSet<usize> {
        let l = &artifact::<TilesArtifact>(r, "tiles").layout;
        l.tiles
            .iter()
            .filter(|tile| tile.triangles.contains(&(t as u32)))
            .map(|tile| tile.index)
            .collect()
    };
    let expected: Vec<usize> = reading(&first).union(&reading(&second)).copied().collect();
    assert!(
        !expected.is_empty() && expected.len() <= 4,
        "the crate is near one corner: {expected:?}"
    );
    for (i, reuse) in reuses(&second).iter().enumerate() {
        assert_eq!(reuse.rebuilt, expected, "stage {}", i + 1);
        assert_eq!(reuse.reused.len(), n - expected.len());
        let counts = &second.result(i + 1).unwrap().counts;
        assert_eq!(counts["tiles rebuilt"], expected.len() as u64);
        assert_eq!(counts["tiles reused"], (n - expected.len()) as u64);
    }
    // The navmesh changed, and is the one a cold build gives.
    let warm = graph_json(&navmesh(&second));
    assert_ne!(warm, graph_json(&navmesh(&first)));
    assert_eq!(warm, cold(level_of(after), &p));

    // The same level again: every tile of every stage is reused.
    let third = run(level_of(before), p);
    for reuse in reuses(&third) {
        assert_eq!(reuse.reused.len(), n);
    }
    assert_eq!(graph_json(&navmesh(&third)), graph_json(&navmesh(&first)));
}

#[test]
fn a_parameter_change_rebuilds_every_tile_of_the_stages_that_read_it() {
    let level = level_of(yard(&[(3.3, 7.1), (15.6, 4.4), (9.9, 20.5)]));
    let p = tiled(&[]);
    let mut r = Runner::new(
        Arc::new(navscope_voxel::pipeline()),
        Arc::new(level.clone()),
    );
    r.set_params(p.clone());
    r.run_all();
    let n = tile_count(&r);
    let first = graph_json(&navmesh(&r));

    // A flag parameter: the runner re-runs flag and later stages, and each
    // of them rebuilds every tile.
    assert_eq!(
        r.set_param("crouch.height", ParamValue::Float(1.0))
            .unwrap(),
        Some(2)
    );
    r.run_all();
    assert_eq!(r.executions(1), 1, "voxelize is not re-run");
    for reuse in &reuses(&r)[1..] {
        assert_eq!(reuse.rebuilt.len(), n);
    }
    let p1 = r.params().clone();
    assert_eq!(graph_json(&navmesh(&r)), cold(level.clone(), &p1));

    // A partition parameter: the band rule in flag cuts regions too, so
    // flag and every later stage rebuild.
    assert_eq!(
        r.set_param("min_region_size", ParamValue::Int(4)).unwrap(),
        Some(stage(&r, "flag"))
    );
    r.run_all();
    assert_eq!(r.executions(1), 1, "voxelize is not re-run");
    for reuse in &reuses(&r)[1..] {
        assert_eq!(reuse.rebuilt.len(), n);
    }

    // A simplification parameter: only simplify and triangulate rebuild.
    r.set_param("max_error", ParamValue::Float(0.3)).unwrap();
    r.run_all();
    assert_eq!(r.executions(4), 3, "regions is not re-run");
    for reuse in &reuses(&r)[4..] {
        assert_eq!(reuse.rebuilt.len(), n);
    }
    let p2 = r.params().clone();
    assert_eq!(graph_json(&navmesh(&r)), cold(level.clone(), &p2));

    // Back to the first values: the earlier tiles are still cached.
    r.set_params(p);
    r.run_all();
    for reuse in &reuses(&r)[1..] {
        assert_eq!(reuse.reused.len(), n);
    }
    assert_eq!(graph_json(&navmesh(&r)), first);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Random crates, then one of them moved: the warm rebuild (reusing
    /// the tiles the move did not touch) equals a cold build of the moved
    /// level, for every per-tile stage's data and for the navmesh.
    #[test]
    fn warm_rebuilds_equal_cold_builds(
        crates in proptest::collection::vec((1.0f32..22.0, 1.0f32..22.0), 1..5),
        moved in (0usize..4, -3.0f32..3.0, -3.0f32..3.0),
        tile in prop_oneof![Just(20i64), Just(32i64)],
    ) {
        let p = tiled(&[("tile_size", ParamValue::Int(tile))]);
        run(level_of(yard(&crates)), p.clone());
        let mut edited = crates.clone();
        let k = moved.0 % edited.len();
        edited[k].0 = (edited[k].0 + moved.1).clamp(1.0, 22.0);
        edited[k].1 = (edited[k].1 + moved.2).clamp(1.0, 22.0);
        let warm = run(level_of(yard(&edited)), p.clone());
        let mut cold_p = p.clone();
        cold_p
            .set(&navscope_voxel::settings::specs(), "reuse_tiles", ParamValue::Bool(false))
            .unwrap();
        let cold = run(level_of(yard(&edited)), cold_p);
        for i in 1..=PER_TILE.len() {
            let a = warm.result(i).unwrap().outcome.as_ref().unwrap().to_json();
            let b = cold.result(i).unwrap().outcome.as_ref().unwrap().to_json();
            let strip = |mut v: serde_json::Value| {
                v.as_object_mut().unwrap().remove("reuse");
                v
            };
            prop_assert!(strip(a) == strip(b), "stage {i} differs");
        }
        prop_assert_eq!(graph_json(&navmesh(&warm)), graph_json(&navmesh(&cold)));
    }
}
