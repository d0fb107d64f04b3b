//! The pipeline through the stage runner.

use std::sync::Arc;

use navscope_core::geom::world_to_plan;
use navscope_core::level::{FloorPlan, LayerPlane, Level, LevelData};
use navscope_core::{LinkKind, ParamValue, Runner, StageError};
use navscope_layers::{pipeline, samples};

fn runner(data: LevelData) -> Runner {
    Runner::new(
        Arc::new(pipeline()),
        Arc::new(Level {
            source: "test.ron".into(),
            data,
        }),
    )
}

#[test]
fn pipeline_is_consistent() {
    let p = pipeline();
    p.check().unwrap();
    assert_eq!(p.id, "layers");
    let ids: Vec<_> = p.stages.iter().map(|s| s.info.id).collect();
    assert_eq!(
        ids,
        [
            "layer-axes",
            "influence-zones",
            "connection-scenes",
            "open-connections",
            "corridor-map",
            "navmesh",
            "paths"
        ]
    );
}

#[test]
fn every_stage_runs_draws_and_ends_in_a_valid_navmesh() {
    let mut r = runner(LevelData::Layers(samples::figure5()));
    assert_eq!(r.run_all(), 7);
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    for i in 0..7 {
        let a = r.result(i).unwrap().outcome.as_ref().unwrap().clone();
        assert!(!a.primitives().is_empty(), "stage {i} draws something");
    }
    let zones = r.result(1).unwrap().outcome.as_ref().unwrap().primitives();
    assert!(
        zones.iter().filter(|p| p.kind == "influence-zone").count() >= 16,
        "two shaded sides per connection"
    );
    let open = r.result(3).unwrap().outcome.as_ref().unwrap().clone();
    assert_eq!(
        open.substeps().len(),
        9,
        "one sub-step per connection, then the merged axis"
    );
    assert!(
        open.substeps()[..8]
            .iter()
            .all(|s| s.highlights.iter().any(|p| p.kind == "scene/obstacle"))
    );
    let corridor = r.result(4).unwrap().outcome.as_ref().unwrap().primitives();
    for kind in [
        "corridor/area",
        "corridor/disk",
        "corridor/closest",
        "axis/edge",
        "axis/vertex",
    ] {
        assert!(corridor.iter().any(|p| p.kind == kind), "{kind}");
    }
    // Floors are drawn at their heights, stair flights between them.
    let heights: Vec<f32> = corridor
        .iter()
        .filter(|p| p.kind == "axis/vertex")
        .flat_map(|p| p.shape.points())
        .map(|p| p.y)
        .collect();
    for h in [0.0, 3.0, 6.0] {
        assert!(heights.contains(&h), "a vertex at height {h}");
    }
    for (lo, hi) in [(0.0, 3.0), (3.0, 6.0)] {
        assert!(
            heights.iter().any(|&h| h > lo + 0.1 && h < hi - 0.1),
            "a stair vertex between {lo} and {hi}"
        );
    }
    let mesh = r.navmesh().unwrap();
    mesh.validate().unwrap();
    assert_eq!(mesh.pipeline, "layers");
    assert!(mesh.links.iter().any(|l| l.kind == LinkKind::Connection));
    let layers: std::collections::BTreeSet<u32> = mesh.nodes.iter().map(|n| n.layer).collect();
    assert_eq!(layers.len(), 7, "nodes on every layer");
    for l in mesh.links.iter().filter(|l| l.kind == LinkKind::Connection) {
        assert_ne!(
            mesh.nodes[l.from as usize].layer,
            mesh.nodes[l.to as usize].layer
        );
    }
}

#[test]
fn changing_the_tolerance_reruns_from_the_first_stage() {
    let mut r = runner(LevelData::Layers(samples::two_storeys()));
    r.run_all();
    assert_eq!(
        r.set_param("arc_tolerance", ParamValue::Float(0.05))
            .unwrap(),
        Some(0)
    );
    assert_eq!(r.run_all(), 7);
    assert!(r.first_error().is_none());
}

#[test]
fn wrong_level_kind_and_empty_level_are_errors() {
    let mut r = runner(LevelData::FloorPlan(FloorPlan::default()));
    r.run_all();
    match &r.result(0).unwrap().outcome {
        Err(StageError::Failed(m)) => {
            assert!(m.contains("test.ron") && m.contains("multi-layer"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    let mut r = runner(LevelData::Layers(Default::default()));
    r.run_all();
    assert_eq!(
        r.first_error().unwrap().1,
        &StageError::Failed("test.ron: the level has no layers".into())
    );
}

/// Every primitive (and sub-step highlight) of every stage on the Figure 5
/// sample, with its stage index.
fn all_primitives(r: &Runner) -> Vec<(usize, navscope_core::draw::Primitive)> {
    let mut out = Vec::new();
    for i in 0..7 {
        let a = r.result(i).unwrap().outcome.as_ref().unwrap().clone();
        out.extend(a.primitives().into_iter().map(|p| (i, p)));
        for s in a.substeps() {
            out.extend(s.highlights.into_iter().map(|p| (i, p)));
        }
    }
    out
}

#[test]
fn every_primitive_on_one_layer_names_it_and_lies_on_its_plane() {
    let level = samples::figure5();
    let planes: Vec<LayerPlane> = level.layers.iter().map(|l| l.plane()).collect();
    let mut r = runner(LevelData::Layers(level));
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    // Only what joins two layers may stay untagged.
    let across = [
        "axis/join",
        "link/connection",
        "path/backbone/across",
        "path/short/across",
    ];
    let mut tagged = 0;
    for (stage, p) in all_primitives(&r) {
        match p.layer {
            Some(l) => {
                assert!((l as usize) < planes.len(), "stage {stage} {p:?}");
                for q in p.shape.points() {
                    let h = planes[l as usize].height_at(world_to_plan(q.as_dvec3())) as f32;
                    assert!(
                        (q.y - h).abs() < 1e-4,
                        "stage {stage}: {} at height {} but on layer {l} ({h})",
                        p.kind,
                        q.y
                    );
                }
                tagged += 1;
            }
            None => assert!(
                across.contains(&p.kind.as_ref()),
                "stage {stage}: untagged {}",
                p.kind
            ),
        }
    }
    assert!(tagged > 1000, "{tagged}");
}

#[test]
fn axis_edges_carry_their_clearance_measured_by_brute_force() {
    use glam::DVec3;
    use navscope_core::geom::world_to_plan;
    use navscope_layers::verify::nearest_obstacle;
    let level = samples::figure5();
    let built = navscope_layers::build(&level, &navscope_layers::settings(0.001, 0.01)).unwrap();
    let all: Vec<usize> = (0..level.connections.len()).collect();
    let mut r = runner(LevelData::Layers(level));
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    // Layer axes: every connection closed; corridor map: every one open.
    for (stage, opened) in [(0, &[][..]), (4, &all[..])] {
        let prims = r
            .result(stage)
            .unwrap()
            .outcome
            .as_ref()
            .unwrap()
            .primitives();
        let edges: Vec<_> = prims.iter().filter(|p| p.kind == "axis/edge").collect();
        assert!(edges.len() > 100, "{}", edges.len());
        for p in edges {
            let navscope_core::draw::Shape::Segment(a, b) = p.shape else {
                panic!("axis edges are drawn as chords: {p:?}");
            };
            let v = p.value.expect("an axis edge carries its clearance");
            assert!(v.is_finite() && v >= 0.0, "{v}");
            let mid = world_to_plan(DVec3::from((a + b) * 0.5));
            let layer = p.layer.expect("an axis edge lies on a layer") as usize;
            let n = nearest_obstacle(&built.sites, opened, layer, mid);
            assert!(
                (n - v as f64).abs() < 0.025,
                "stage {stage}, edge {} on layer {layer} at {mid:?}: value {v}, nearest obstacle {n}",
                p.element
            );
        }
    }
}

#[test]
fn the_paths_stage_answers_a_probe_between_clicked_points() {
    let mut r = runner(LevelData::Layers(samples::figure5()));
    let n = r.pipeline().stages.len();
    r.run_to(n - 1, &Default::default(), &mut |_| {});
    let artifact = r.result(n - 1).unwrap().outcome.as_ref().unwrap().clone();
    // Plan (2, 2) on the ground floor to plan (38, 10) on the top floor, as
    // clicks give them: world z = -plan y.
    let (from, to) = (
        glam::Vec3::new(2.0, 0.0, -2.0),
        glam::Vec3::new(38.0, 6.0, -10.0),
    );
    let answer = artifact
        .path_between(from, to)
        .expect("the paths stage answers")
        .unwrap();
    let (first, last) = (answer.waypoints[0], *answer.waypoints.last().unwrap());
    assert!(first.distance(from) < 1e-4 && last.distance(to) < 1e-4);
    let polyline: f64 = answer
        .waypoints
        .windows(2)
        .map(|w| w[0].distance(w[1]) as f64)
        .sum();
    assert!(answer.length >= from.distance(to) as f64 - 1e-6);
    assert!(polyline >= from.distance(to) as f64 - 1e-4);
    let kinds: std::collections::BTreeSet<&str> =
        answer.primitives.iter().map(|p| p.kind.as_ref()).collect();
    assert!(
        kinds.contains("path/corridor") && kinds.contains("path/short"),
        "{kinds:?}"
    );
    // A click between the floors' heights goes to the nearest layer; a click
    // outside every layer is an error naming the end.
    let mid = artifact
        .path_between(glam::Vec3::new(2.0, 1.0, -2.0), to)
        .unwrap()
        .unwrap();
    assert!(
        mid.waypoints[0].y.abs() < 1e-6,
        "1 m is nearest the ground floor"
    );
    let err = artifact
        .path_between(glam::Vec3::new(-50.0, 0.0, 5.0), to)
        .unwrap()
        .unwrap_err();
    assert!(err.contains("start") && err.contains("free space"), "{err}");
    // The other stages leave path queries to the NavMesh.
    for i in 0..n - 1 {
        let a = r.result(i).unwrap().outcome.as_ref().unwrap();
        assert!(a.path_between(from, to).is_none());
    }
}

/// The paths stage steps through retraction, A* on the backbone, the
/// corridor and the pull, each adding its part of the drawing.
#[test]
fn the_paths_stage_steps_through_retraction_search_corridor_and_pull() {
    let mut r = runner(LevelData::Layers(samples::figure5()));
    let n = r.pipeline().stages.len();
    r.run_to(n - 1, &Default::default(), &mut |_| {});
    let a = r.result(n - 1).unwrap().outcome.as_ref().unwrap().clone();
    let steps = a.substeps();
    let titles: Vec<&str> = steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        ["retraction", "A* on the backbone", "corridor", "pull"]
    );
    let prims = a.primitives();
    for (kind, step) in [
        ("path/retraction", 0),
        ("path/backbone", 1),
        ("path/corridor", 2),
        ("path/short", 3),
    ] {
        let of: Vec<_> = prims.iter().filter(|p| p.kind == kind).collect();
        assert!(!of.is_empty(), "{kind}");
        for p in of {
            assert!(p.visible_at(step) && p.visible_at(u32::MAX), "{kind}");
            assert!(step == 0 || !p.visible_at(step - 1), "{kind}");
        }
    }
}

/// Stepping the openings shows the axis as it was before each one: it
/// starts as the layer axes, every edge an opening removes is in it, and
/// after the last opening it is the merged axis.
#[test]
fn each_opening_step_shows_the_axis_it_was_opened_on() {
    use navscope_layers::stages::Merged;
    for data in [
        samples::figure5(),
        samples::two_storeys(),
        samples::figure7(3),
    ] {
        let mut r = runner(LevelData::Layers(data));
        let i = r.pipeline().stage_index("open-connections").unwrap();
        r.run_to(i, &Default::default(), &mut |_| {});
        let a = r.result(i).unwrap().outcome.as_ref().unwrap().clone();
        let any: &dyn std::any::Any = a.as_ref();
        let m = any.downcast_ref::<Merged>().unwrap();
        let n = m.openings.len();
        let key = |e: &(usize, Vec<glam::DVec2>)| format!("{e:?}");
        let sorted = |v: &[(usize, Vec<glam::DVec2>)]| {
            let mut k: Vec<String> = v.iter().map(key).collect();
            k.sort();
            k
        };
        assert!(
            sorted(&m.axis_before(0)) == sorted(&m.initial),
            "before opening 0: the layer axes"
        );
        for (k, o) in m.openings.iter().enumerate() {
            let before: Vec<String> = m.axis_before(k).iter().map(key).collect();
            for e in &o.removed {
                assert!(
                    before.contains(&key(e)),
                    "opening {k} removes an edge not in the axis before it"
                );
            }
        }
        let len = |edges: &[(usize, Vec<glam::DVec2>)]| -> f64 {
            edges
                .iter()
                .flat_map(|(_, p)| p.windows(2).map(|w| w[0].distance(w[1])))
                .sum()
        };
        let fin: Vec<(usize, Vec<glam::DVec2>)> = m
            .axis
            .edges
            .iter()
            .map(|e| (e.layer, e.points.iter().map(|p| p.at).collect()))
            .collect();
        assert_eq!(m.axis_before(n).len(), fin.len());
        assert!((len(&m.axis_before(n)) - len(&fin)).abs() < 1e-9);
        let steps = a.substeps();
        assert_eq!(steps.len(), n + 1);
        for (k, st) in steps[..n].iter().enumerate() {
            let before = st
                .highlights
                .iter()
                .filter(|h| h.kind == "axis/before")
                .count();
            assert_eq!(before, m.axis_before(k).len());
        }
        assert!(
            a.primitives()
                .iter()
                .all(|p| p.visible_at(n as u32) && !p.visible_at(n as u32 - 1))
        );
    }
}
