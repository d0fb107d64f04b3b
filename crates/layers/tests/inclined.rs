//! Inclined layers: stairs and ramps lie on their own planes, so paths
//! climb them instead of jumping at each connection.

use std::sync::Arc;

use glam::{DVec2, DVec3};
use navscope_core::geom::world_to_plan;
use navscope_core::level::{LayerPlane, LayeredLevel, Level, LevelData};
use navscope_core::{ParamValue, Runner};
use navscope_layers::paths::{LayerPoint, find_path};
use navscope_layers::{build, pipeline, samples, settings};
use proptest::prelude::*;

/// The steepest layer of `level`, as rise per plan metre.
fn steepest(level: &LayeredLevel) -> f64 {
    level
        .layers
        .iter()
        .map(|l| l.slope.length())
        .fold(0.0, f64::max)
}

/// Lifts a path onto its layers and returns the largest height change
/// between consecutive points of the path resampled every `step` plan
/// metres, and the largest height change where the path changes layer.
fn height_jumps(level: &LayeredLevel, path: &[LayerPoint], step: f64) -> (f64, f64) {
    let lift = |q: &LayerPoint| level.layers[q.layer].plane().lift(q.at);
    let (mut sampled, mut across) = (0.0f64, 0.0f64);
    for w in path.windows(2) {
        let (a, b) = (lift(&w[0]), lift(&w[1]));
        if w[0].layer != w[1].layer {
            assert_eq!(w[0].at, w[1].at, "the path changes layer on a connection");
            across = across.max((a.y - b.y).abs());
            continue;
        }
        let n = ((w[0].at.distance(w[1].at) / step).ceil() as usize).max(1);
        for k in 0..n {
            let p = a.lerp(b, k as f64 / n as f64);
            let q = a.lerp(b, (k + 1) as f64 / n as f64);
            sampled = sampled.max((p.y - q.y).abs());
        }
    }
    (sampled, across)
}

#[test]
fn a_ramp_between_two_floors_gives_a_continuous_path() {
    for (name, level, start, goal) in [
        (
            "two_storeys",
            samples::two_storeys(),
            LayerPoint {
                layer: 0,
                at: DVec2::new(2.0, 6.0),
            },
            LayerPoint {
                layer: 2,
                at: DVec2::new(18.0, 3.0),
            },
        ),
        (
            "bridge",
            samples::bridge(),
            LayerPoint {
                layer: 0,
                at: DVec2::new(20.0, 0.5),
            },
            LayerPoint {
                layer: 2,
                at: DVec2::new(20.0, 10.0),
            },
        ),
        (
            "figure5",
            samples::figure5(),
            LayerPoint {
                layer: 0,
                at: DVec2::new(2.0, 2.0),
            },
            LayerPoint {
                layer: 2,
                at: DVec2::new(38.0, 10.0),
            },
        ),
    ] {
        let planes: Vec<LayerPlane> = level.layers.iter().map(|l| l.plane()).collect();
        let b = build(&level, &settings(0.001, 0.01)).unwrap();
        let p = find_path(&b.merged, &b.sites, &planes, start, goal, 0.3).unwrap();
        assert!(
            p.path.windows(2).any(|w| w[0].layer != w[1].layer),
            "{name}: the path changes layer"
        );
        let lifted: Vec<DVec3> = p.path.iter().map(|q| planes[q.layer].lift(q.at)).collect();
        let climb = lifted.last().unwrap().y - lifted[0].y;
        assert!(climb >= 2.9, "{name}: climbs {climb} m");
        // Resampled every 10 cm, no two consecutive points differ by more
        // than the steepest layer climbs in 10 cm; at connections the
        // layers meet at one height.
        let step = 0.1;
        let (sampled, across) = height_jumps(&level, &p.path, step);
        let bound = steepest(&level) * step + 1e-9;
        assert!(
            sampled <= bound,
            "{name}: {sampled} m in {step} m (bound {bound})"
        );
        assert!(sampled < 0.05, "{name}: {sampled} m");
        assert!(across < 1e-6, "{name}: {across} m at a connection");
        // The length is measured on the planes: at least the 3D chord.
        let chord: f64 = lifted.windows(2).map(|w| w[0].distance(w[1])).sum();
        assert!(
            (p.length - chord).abs() < 1e-9,
            "{name}: {} vs {chord}",
            p.length
        );
    }
}

#[test]
fn the_app_path_query_follows_the_ramps() {
    // What the probe answers (the `paths` artifact's `path_between`), in
    // world coordinates: from the ground south of the bridge to its deck.
    let level = samples::bridge();
    let mut r = Runner::new(
        Arc::new(pipeline()),
        Arc::new(Level {
            source: "bridge".into(),
            data: LevelData::Layers(level.clone()),
        }),
    );
    r.set_param("clearance", ParamValue::Float(0.3)).unwrap();
    r.run_all();
    assert!(r.first_error().is_none(), "{:?}", r.first_error());
    let axes = r.result(0).unwrap().outcome.as_ref().unwrap().counts();
    assert_eq!(axes["inclined layers"], 2, "the two ramps");
    let last = r.result(pipeline().stages.len() - 1).unwrap();
    let artifact = last.outcome.as_ref().unwrap();
    let from = glam::Vec3::new(20.0, 0.0, -0.5);
    let to = glam::Vec3::new(20.0, 3.0, -10.0);
    let answer = artifact.path_between(from, to).unwrap().unwrap();
    let w = &answer.waypoints;
    assert!((w.last().unwrap().y - 3.0).abs() < 1e-4, "ends on the deck");
    for pair in w.windows(2) {
        let run = world_to_plan(pair[0].as_dvec3()).distance(world_to_plan(pair[1].as_dvec3()));
        let rise = (pair[0].y - pair[1].y).abs() as f64;
        assert!(
            rise <= steepest(&level) * run + 1e-4,
            "{pair:?}: rises {rise} m over {run} m"
        );
    }
}

#[test]
fn a_vertical_or_too_steep_plane_is_refused_naming_the_file_and_layer() {
    let text = |plane: &str| {
        format!(
            r#"LayeredLevel(
                layers: [
                    (name: "ground", height: 0, outer: [(0, 0), (10, 0), (10, 8), (0, 8)]),
                    (name: "ramp", plane: {plane}, outer: [(2, 2), (6, 2), (6, 4), (2, 4)]),
                ],
            )"#
        )
    };
    let e = navscope_levels::load_bytes(
        "wall.ron",
        text("[(2, 0, 2), (2, 3, 2), (2, 0, 4)]").as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("wall.ron") && e.contains("layer \"ramp\"") && e.contains("vertical"),
        "{e}"
    );
    let e = navscope_levels::load_bytes(
        "cliff.ron",
        text("[(2, 0, 2), (3, 2, 2), (2, 0, 4)]").as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("cliff.ron") && e.contains("layer \"ramp\"") && e.contains("too steep"),
        "{e}"
    );
    // A ramp at 20° loads and lies on its plane.
    let ok = navscope_levels::load_bytes(
        "ramp.ron",
        text("[(2, 0, 2), (6, 1.456, 2), (2, 0, 4)]").as_bytes(),
    )
    .unwrap();
    let LevelData::Layers(l) = ok.data else {
        panic!("not layered")
    };
    assert!((l.layers[1].plane().incline_degrees() - 20.0).abs() < 0.01);
    // A level built in code with a too steep layer is refused by the
    // pipeline, naming the layer.
    let mut steep = samples::two_storeys();
    steep.layers[1].slope = DVec2::new(3.0, 0.0);
    let e = build(&steep, &settings(0.001, 0.01)).unwrap_err();
    assert!(e.contains("'stairs'") && e.contains("too steep"), "{e}");
}

#[test]
fn every_sample_stair_meets_its_floors_at_their_heights() {
    for level in [
        samples::two_storeys(),
        samples::bridge(),
        samples::figure5(),
        samples::figure6(),
    ] {
        for c in &level.connections {
            for end in [c.a, c.b] {
                let (f, t) = (level.layers[c.from].plane(), level.layers[c.to].plane());
                assert!(
                    (f.height_at(end) - t.height_at(end)).abs() < 1e-9,
                    "connection {c:?}"
                );
            }
        }
        assert!(level.layers.iter().any(|l| !l.plane().is_level()));
    }
}

/// A random walkable plane (at most 50° steep) through a random height.
fn plane() -> impl Strategy<Value = LayerPlane> {
    (-50.0..50.0f64, 0.0..50.0f64, 0.0..std::f64::consts::TAU).prop_map(|(h, deg, dir)| {
        LayerPlane {
            height: h,
            slope: DVec2::from_angle(dir) * deg.to_radians().tan(),
        }
    })
}

proptest! {
    #[test]
    fn points_on_an_inclined_layer_project_and_lift_back_exactly(
        plane in plane(),
        x in -1000.0..1000.0f64,
        y in -1000.0..1000.0f64,
    ) {
        let p = DVec2::new(x, y);
        let q = plane.lift(p);
        prop_assert_eq!(world_to_plan(q), p);
        prop_assert_eq!(plane.lift(world_to_plan(q)), q);
        prop_assert_eq!(q.y, plane.height_at(p));
    }

    #[test]
    fn the_plane_through_three_lifted_points_is_the_plane(
        plane in plane(),
        pts in proptest::array::uniform3((-100.0..100.0f64, -100.0..100.0f64)),
    ) {
        let pts = pts.map(|(x, y)| DVec2::new(x, y));
        let area = (pts[1] - pts[0]).perp_dot(pts[2] - pts[0]);
        prop_assume!(area.abs() > 1.0);
        let again = LayerPlane::through(pts.map(|p| plane.lift(p))).unwrap();
        for p in [DVec2::ZERO, DVec2::new(50.0, -30.0), pts[0]] {
            let d = (again.height_at(p) - plane.height_at(p)).abs();
            prop_assert!(d < 1e-7, "{} at {:?}", d, p);
        }
    }

    #[test]
    fn a_stair_path_point_lifts_onto_the_stairs(t in 0.0..1.0f64, s in 0.0..1.0f64) {
        // Every plan point of the sample flight lifts between its floors.
        let l = samples::two_storeys();
        let stairs = l.layers[1].plane();
        let p = DVec2::new(6.0 + 8.0 * t, 8.0 + 2.0 * s);
        let h = stairs.lift(p).y;
        prop_assert!((h - 3.0 * t).abs() < 1e-9);
        prop_assert_eq!(world_to_plan(stairs.lift(p)), p);
    }
}
