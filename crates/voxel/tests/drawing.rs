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
        .result(room.pipeline().stage_index("regions").unwrap())
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
        .result(room.pipeline().stage_index("regions").unwrap())
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

/// The sub-steps of stage `id` of `r`.
fn substeps_of(r: &navscope_core::Runner, id: &str) -> Vec<navscope_core::draw::SubStep> {
    r.result(r.pipeline().stage_index(id).unwrap())
        .unwrap()
        .outcome
        .as_ref()
        .unwrap()
        .substeps()
}

/// The `(a, b)` ends of a sub-step's highlight segments, after checking
/// that each is a `highlight/pass` segment shown at sub-step `k` only.
fn outline_segments(
    step: &navscope_core::draw::SubStep,
    k: usize,
) -> Vec<(glam::Vec3, glam::Vec3)> {
    step.highlights
        .iter()
        .map(|q| {
            assert_eq!(q.kind, "highlight/pass", "{q:?}");
            assert_eq!((q.first_step, q.last_step), (k as u32, k as u32), "{q:?}");
            match q.shape {
                Shape::Segment(a, b) => {
                    // Along one grid axis, at one height.
                    assert!(a.y == b.y && (a.x == b.x) != (a.z == b.z), "{q:?}");
                    (a, b)
                }
                ref other => panic!("{other:?} is not a segment"),
            }
        })
        .collect()
}

/// Issue #15: every stage with passes highlights, at each pass's sub-step,
/// the outline of that pass's own spans. Under `table_room`'s table the
/// crouch pass's flag highlight is the crouch area's outline at the floor;
/// a pass that owns nothing highlights nothing; and the outline stays the
/// size of a perimeter (at most four sides per own span).
#[test]
fn pass_substeps_highlight_the_outline_of_the_passs_own_spans() {
    let p = params(&[]);
    let s = navscope_voxel::Settings::from_params(&p).unwrap();
    let r = run(load(&sample_path("table_room.obj")), p);
    let f = artifact::<FlagArtifact>(&r, "flag");
    let steps = substeps_of(&r, "flag");
    let crouch = s
        .passes
        .iter()
        .position(|p| p.stance == Stance::Crouch)
        .unwrap();
    // The crouch pass claims the floor under the table and the ring round
    // it that the standing pass's erosion left (under the table is an
    // obstacle to standing, so the ring is the standing radius wide, and
    // the crouch area borders the standing one there, §32.3.1): its
    // outline lies at the floor, inside the table's footprint grown by the
    // standing radius, give or take a cell, and spans the footprint.
    let under = outline_segments(&steps[crouch], crouch);
    assert!(!under.is_empty(), "the crouch pass's highlight is empty");
    let grow = (s.passes[0].agent.radius + s.cell_size) as f32;
    let (x0, x1, z0, z1) = (5.2 - grow, 6.8 + grow, 1.2 - grow, 8.8 + grow);
    let ends = || under.iter().flat_map(|&(a, b)| [a, b]);
    let lo = ends().fold(glam::Vec3::INFINITY, |m, q| m.min(q));
    let hi = ends().fold(glam::Vec3::NEG_INFINITY, |m, q| m.max(q));
    assert!(
        lo.x <= 5.2 && hi.x >= 6.8 && lo.z <= 1.2 && hi.z >= 8.8,
        "{lo} {hi}"
    );
    for &(a, b) in &under {
        for q in [a, b] {
            assert!(
                q.y > 0.0 && q.y < s.cell_height as f32 + 0.05,
                "{q}: not at the floor"
            );
            assert!(
                (x0..=x1).contains(&q.x) && (z0..=z1).contains(&q.z),
                "{q}: outside the table's footprint"
            );
        }
    }
    // Each pass: empty exactly when it owns nothing, else at most four
    // sides per own span; the detail text stays.
    let mut empty = 0;
    for (k, step) in steps.iter().enumerate() {
        let [w, b, _] = f.pass_counts(k);
        let segs = outline_segments(step, k);
        assert_eq!(
            segs.is_empty(),
            w + b == 0,
            "pass {k}: {} segments, {} spans",
            segs.len(),
            w + b
        );
        assert!(segs.len() as u64 <= 4 * (w + b), "pass {k}");
        assert!(!step.detail.is_empty());
        empty += segs.is_empty() as usize;
    }
    assert!(
        empty > 0,
        "no pass of the table room owns nothing (swim has no water)"
    );
    // The standing pass's outline is a perimeter, not an area: far fewer
    // segments than its spans.
    let [w, b, _] = f.pass_counts(0);
    let stand = outline_segments(&steps[0], 0).len() as u64;
    assert!(stand * 20 < w + b, "{stand} segments for {} spans", w + b);
    // Every stage with passes highlights each pass that has something.
    for id in [
        "compact",
        "regions",
        "contours",
        "simplify",
        "triangulate",
        "polymesh",
        "detail",
    ] {
        let steps = substeps_of(&r, id);
        assert_eq!(steps.len(), s.passes.len(), "{id}");
        for (k, step) in steps.iter().enumerate() {
            let segs = outline_segments(step, k);
            if k == 0 || k == crouch {
                assert!(!segs.is_empty(), "{id}: pass {k} highlights nothing");
            }
        }
    }
    // The crouch regions' outline (partition on) is the claimed area's or
    // inside it.
    for id in ["regions", "contours", "detail"] {
        for (a, b) in outline_segments(&substeps_of(&r, id)[crouch], crouch) {
            for q in [a, b] {
                assert!(
                    (x0..=x1).contains(&q.x) && (z0..=z1).contains(&q.z),
                    "{id}: {q}"
                );
            }
        }
    }
}

/// A flat walled square room in one tile: the standing pass's walkable
/// area is a square, highlighted as four segments at the flag and
/// partition stages, however many spans it holds.
#[test]
fn a_square_rooms_standing_outline_is_four_segments() {
    let mut b = navscope_voxel::samples::MeshBuilder::new();
    b.solid("floor", [0., -0.2, 0.], [6., 0., 6.]);
    for (lo, hi) in [
        ([-0.2, 0., -0.2], [6.2, 3., 0.]),
        ([-0.2, 0., 6.], [6.2, 3., 6.2]),
        ([-0.2, 0., 0.], [0., 3., 6.]),
        ([6., 0., 0.], [6.2, 3., 6.]),
    ] {
        b.solid("wall", lo, hi);
    }
    let p = params(&[
        ("tile_size", navscope_core::ParamValue::Int(0)),
        ("passes", navscope_core::ParamValue::Text("stand".into())),
    ]);
    let r = run(level_of(b.level()), p);
    for id in ["flag", "regions", "contours"] {
        let steps = substeps_of(&r, id);
        let segs = outline_segments(&steps[0], 0);
        assert_eq!(segs.len(), 4, "{id}: {segs:?}");
        let y = segs[0].0.y;
        assert!(segs.iter().all(|(a, b)| a.y == y && b.y == y), "{id}");
        assert!(y > 0.0 && y < 0.1, "{id}: {y}");
    }
}
