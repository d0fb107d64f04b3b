//! Polygon counts against Recast's on its own demo meshes: the standing pass
//! alone, one tile, with the Recast demo settings (cell 0.3 m, cell height
//! 0.2 m, agent 2.0 m / 0.6 m, climb 0.9 m, slope 45 degrees, region min 8 /
//! merge 20, edge error 1.3 cells = 0.39 m, edge length 12 m, 6 corners per
//! polygon, ledge filter on) gives within [`BAND`] of the polygons Recast
//! builds (`../shared/data/README.md`). Skipped, with a message, when the
//! shared meshes are absent.

mod common;

use common::*;
use navscope_core::ParamValue;

/// How far (relative) a count may stray from Recast's: the bar.
const BAND: f64 = 0.15;

/// (mesh, partition, Recast's polygon count).
const RECAST: [(&str, &str, usize); 4] = [
    ("nav_test.obj", "watershed", 155),
    ("nav_test.obj", "monotone", 186),
    ("dungeon.obj", "watershed", 118),
    ("dungeon.obj", "monotone", 100),
];

#[test]
fn polygon_counts_are_within_the_band_of_recasts() {
    for (mesh, partition, recast) in RECAST {
        let Some(path) = recast_mesh(mesh) else {
            return;
        };
        let p = recast_params(&[
            ("passes", ParamValue::Text("stand".into())),
            ("reuse_tiles", ParamValue::Bool(false)),
            ("max_error", ParamValue::Float(0.39)),
            ("max_edge_len", ParamValue::Float(12.0)),
            ("filter_ledge_spans", ParamValue::Bool(true)),
            ("partition", ParamValue::Text(partition.into())),
        ]);
        let polys = navmesh(&run(load(&path), p)).nodes.len();
        let off = polys as f64 / recast as f64 - 1.0;
        assert!(
            off.abs() <= BAND,
            "{mesh}, {partition}: {polys} polygons, Recast {recast} ({:+.0}%)",
            100.0 * off
        );
    }
}

/// The layers partition builds both meshes to a valid NavMesh; without the
/// min region area its regions cover every walkable span, each region one
/// span per column at most (Recast publishes no polygon count for layers, so
/// there is no band).
#[test]
fn layers_build_the_recast_meshes() {
    for mesh in ["nav_test.obj", "dungeon.obj"] {
        let Some(path) = recast_mesh(mesh) else {
            return;
        };
        let p = recast_params(&[
            ("passes", ParamValue::Text("stand".into())),
            ("reuse_tiles", ParamValue::Bool(false)),
            ("partition", ParamValue::Text("layers".into())),
            ("min_region_size", ParamValue::Int(0)),
        ]);
        let b = navscope_voxel::build(&load(&path), &p).unwrap();
        b.navmesh().validate().unwrap();
        assert!(!b.navmesh().nodes.is_empty(), "{mesh}");
        for t in &b.tiles {
            let (hf, part, flags) = (&t.heightfield, &t.partitions[0], &t.flags[0]);
            for c in 0..hf.cols.len() - 1 {
                let mut regions: Vec<u32> = hf
                    .range(c)
                    .map(|s| part.region[s])
                    .filter(|&r| r != 0)
                    .collect();
                let n = regions.len();
                regions.sort_unstable();
                regions.dedup();
                assert_eq!(regions.len(), n, "{mesh}: a layer twice in column {c}");
            }
            let walkable = (0..flags.flags.len())
                .filter(|&s| flags.walkable(s))
                .count();
            let covered = part.region.iter().filter(|&&r| r != 0).count();
            // Only layers below the min region area that reach no tile edge go.
            assert!(
                covered * 100 >= walkable * 99,
                "{mesh}: {covered} of {walkable}"
            );
        }
    }
}
