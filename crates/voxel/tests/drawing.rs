//! What the voxel stages draw: one `VoxelColumn` per flagged span and pass
//! (the one voxel over the span's floor; the passes that leave a span
//! non-walkable share one, over their sub-steps), per solid span and per
//! wet span.

mod common;

use common::*;
use navscope_core::level::{Level, LevelData};
use navscope_core::{Shape, Stance};
use navscope_voxel::stages::{FlagArtifact, VoxelArtifact};

fn pool_level() -> Level {
    Level {
        source: "pool".into(),
        data: LevelData::Mesh(navscope_voxel::samples::pool().level()),
    }
}

#[test]
fn flag_draws_one_voxel_column_per_flagged_span() {
    let p = params(&[]);
    let s = navscope_voxel::Settings::from_params(&p).unwrap();
    let r = run(pool_level(), p);
    let flag = r
        .result(r.pipeline().stage_index("flag").unwrap())
        .unwrap()
        .outcome
        .as_ref()
        .unwrap();
    let any: &dyn std::any::Any = flag.as_ref();
    let f = any.downcast_ref::<FlagArtifact>().unwrap();
    let prims = flag.primitives();
    for (k, pass) in s.passes.iter().enumerate() {
        let flag_kinds = ["voxel/walkable", "voxel/border", "voxel/non-walkable"];
        // What shows at the pass's sub-step.
        let k32 = k as u32;
        let mine: Vec<_> = prims
            .iter()
            .filter(|q| {
                q.first_step <= k32 && k32 <= q.last_step && flag_kinds.contains(&q.kind.as_ref())
            })
            .collect();
        let [w, b, n] = f.pass_counts(k);
        let count = |kind: &str| mine.iter().filter(|q| q.kind == kind).count() as u64;
        assert_eq!(
            [
                count("voxel/walkable"),
                count("voxel/border"),
                count("voxel/non-walkable")
            ],
            [w, b, n],
            "pass {k} ({:?})",
            pass.stance
        );
        for q in &mine {
            if q.kind == "voxel/non-walkable" {
                // One run over the passes that leave the span non-walkable.
                assert!(q.last_step < s.passes.len() as u32, "{q:?}");
            } else {
                assert_eq!((q.first_step, q.last_step), (k32, k32), "{q:?}");
            }
            match q.shape {
                Shape::VoxelColumn { cell, y0, y1, .. } => {
                    assert!((cell as f64 - s.cell_size).abs() < 1e-6);
                    assert!(((y1 - y0) as f64 - s.cell_height).abs() < 1e-5);
                }
                ref other => panic!("{other:?} is not a voxel column"),
            }
        }
    }
    // The deep pool's floor is walkable for swimming: its voxels (the first
    // free voxel over each span's floor) sit 2 m down.
    let swim = s
        .passes
        .iter()
        .position(|p| p.stance == Stance::Swim)
        .unwrap();
    assert!(prims.iter().any(|q| q.first_step == swim as u32
        && q.kind == "voxel/walkable"
        && matches!(q.shape, Shape::VoxelColumn { y0, .. } if (y0 + 2.0).abs() < 0.06)));
}

#[test]
fn voxelize_draws_every_solid_and_wet_span_as_a_column() {
    let r = run(pool_level(), params(&[]));
    let v = r.result(1).unwrap();
    let prims = v.outcome.as_ref().unwrap().primitives();
    let any: &dyn std::any::Any = v.outcome.as_ref().unwrap().as_ref();
    let va = any.downcast_ref::<VoxelArtifact>().unwrap();
    let (mut spans, mut wet) = (0, 0);
    for hf in &va.tiles {
        for c in 0..hf.cols.len() - 1 {
            let (x, z) = hf.cell(c);
            if hf.rect.in_core(x, z) {
                spans += hf.range(c).len();
                wet += hf.range(c).filter(|&s| !hf.spans[s].water.is_nan()).count();
            }
        }
    }
    let solid = prims.iter().filter(|q| q.kind == "voxel/solid").count();
    let water = prims.iter().filter(|q| q.kind == "voxel/water").count();
    assert_eq!(solid, spans);
    assert_eq!(water, wet);
    // 6 x 4 m of pool at 0.1 m cells (the deck's side faces on the cell
    // lines x = 4 and z = 3 fill the first row and column of it).
    assert!((59 * 39..=60 * 40).contains(&wet), "{wet}");
    for q in prims.iter().filter(|q| q.kind == "voxel/water") {
        let Shape::VoxelColumn { x, z, y0, y1, .. } = q.shape else {
            panic!("{:?}", q.shape)
        };
        assert!(
            (4.0..10.0).contains(&x) && (3.0..7.0).contains(&z),
            "{x} {z}"
        );
        assert!(
            (y0 + 2.0).abs() < 0.06 && (y1 + 0.1).abs() < 1e-6,
            "{y0} {y1}"
        );
    }
}

#[test]
fn compact_draws_each_passable_span_and_every_neighbour_connection_once() {
    let r = run(
        pool_level(),
        params(&[
            ("tile_size", navscope_core::ParamValue::Int(0)),
            (
                "passes",
                navscope_core::ParamValue::Text("stand,swim".into()),
            ),
        ]),
    );
    let at = |id: &str| r.pipeline().stage_index(id).unwrap();
    let c = r.result(at("compact")).unwrap();
    let prims = c.outcome.as_ref().unwrap().primitives();
    for (k, name) in ["stand", "swim"].into_iter().enumerate() {
        let step = |q: &&navscope_core::Primitive| q.first_step == k as u32;
        let spans = prims
            .iter()
            .filter(step)
            .filter(|q| q.kind == "voxel/compact" || q.kind == "voxel/area")
            .count() as u64;
        assert_eq!(spans, c.counts[&format!("{name} compact spans")], "{name}");
        assert!(spans > 1000, "{name}: {spans}");
        // One polyline per straight run: its segments are the connections,
        // each drawn once for its two directions (one tile: all in the core).
        let segments: u64 = prims
            .iter()
            .filter(step)
            .filter(|q| q.kind == "compact/neighbour")
            .map(|q| match &q.shape {
                Shape::Polyline { points, closed } => {
                    assert!(!closed && points.len() >= 2);
                    points.len() as u64 - 1
                }
                other => panic!("{other:?}"),
            })
            .sum();
        assert_eq!(
            2 * segments,
            c.counts[&format!("{name} span neighbours")],
            "{name}"
        );
    }
    // The table room has several regions: their connections are drawn.
    let room = run(
        Level {
            source: "room".into(),
            data: LevelData::Mesh(navscope_voxel::samples::table_room().level()),
        },
        params(&[]),
    );
    let part = room
        .result(room.pipeline().stage_index("partition").unwrap())
        .unwrap();
    let links = part
        .outcome
        .as_ref()
        .unwrap()
        .primitives()
        .into_iter()
        .filter(|q| q.kind == "voxel/region/connection")
        .count();
    assert!(links > 0);
}

#[test]
fn partition_regions_build_up_pass_by_pass_and_the_last_view_shows_every_pass() {
    let p = params(&[]);
    let s = navscope_voxel::Settings::from_params(&p).unwrap();
    let room = run(
        Level {
            source: "room".into(),
            data: LevelData::Mesh(navscope_voxel::samples::table_room().level()),
        },
        p,
    );
    let prims = room
        .result(room.pipeline().stage_index("partition").unwrap())
        .unwrap()
        .outcome
        .as_ref()
        .unwrap()
        .primitives();
    let last = s.passes.len() as u32 - 1;
    let shown_at = |step: u32| -> Vec<&navscope_core::Primitive> {
        prims
            .iter()
            .filter(|q| q.kind == "voxel/region" && q.first_step <= step && step <= q.last_step)
            .collect()
    };
    let passes_with_regions: Vec<u32> = (0..=last)
        .filter(|k| {
            prims
                .iter()
                .any(|q| q.kind == "voxel/region" && q.first_step == *k)
        })
        .collect();
    assert!(
        passes_with_regions.len() >= 2,
        "the table room has regions in several passes: {passes_with_regions:?}"
    );
    // The last view shows every pass's regions.
    for k in &passes_with_regions {
        assert!(
            shown_at(last).iter().any(|q| q.first_step == *k),
            "pass {k}'s regions are gone from the stage's last view"
        );
    }
    // Sub-step k shows passes 0..=k and nothing later.
    for k in 0..=last {
        assert!(shown_at(k).iter().all(|q| q.first_step <= k), "step {k}");
    }
}
