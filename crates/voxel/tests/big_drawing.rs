//! A million voxels draw: every stage of `dungeon.obj` at the default
//! 0.1 m cells (half a million solid spans, about two million voxels over
//! its voxel stages) draws whole, without the `label/truncated` note that
//! says primitives were left out. Skipped, with a message, when the shared
//! meshes are absent.

mod common;

use common::*;

#[test]
fn every_stage_of_the_dungeon_at_default_cells_draws_whole() {
    let Some(path) = recast_mesh("dungeon.obj") else {
        return;
    };
    let r = run(load(&path), params(&[]));
    let mut voxels = 0;
    for (i, stage) in r.pipeline().stages.iter().enumerate() {
        let a = r.result(i).unwrap().outcome.as_ref().unwrap();
        let prims = a.primitives();
        assert!(
            prims.iter().all(|p| p.kind != "label/truncated"),
            "stage {} left primitives out",
            stage.info.id
        );
        voxels += prims
            .iter()
            .filter(|p| matches!(p.shape, navscope_core::Shape::VoxelColumn { .. }))
            .count();
    }
    assert!(voxels > 1_000_000, "{voxels} voxels drawn");
}
