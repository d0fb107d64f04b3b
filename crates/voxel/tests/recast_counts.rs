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
