//! The medial axis against brute force, coplanar merging, order
//! independence and degenerate input.

mod common;

use common::*;
use glam::DVec2;
use navscope_layers::verify::{check_clearances, edges_in_free_space};
use navscope_layers::{build, settings};

const TOL: f64 = 0.025;

#[test]
fn single_rectangle_axis_is_the_classic_one() {
    let level = navscope_core::level::LayeredLevel {
        layers: vec![layer("r", 0.0, rect(0.0, 0.0, 20.0, 10.0), vec![])],
        connections: vec![],
    };
    let b = build(&level, &settings(0.001, 0.01)).unwrap();
    let len: f64 = b.merged.edges.iter().map(|e| e.length()).sum();
    let expect = 10.0 + 4.0 * 50f64.sqrt();
    assert!((len - expect).abs() < 1e-6, "{len} vs {expect}");
    check_clearances(&b.merged, &b.sites, &[], TOL).unwrap();
}

#[test]
fn coplanar_layers_joined_by_a_connection_give_the_single_polygon_axis() {
    let set = settings(0.001, 0.01);
    for holes in [
        vec![],
        vec![rect(3.0, 4.0, 5.0, 6.0), rect(14.0, 2.0, 15.0, 3.0)],
    ] {
        let (ha, hb): (Vec<_>, Vec<_>) = holes.iter().cloned().partition(|h| h.points[0].x < 10.0);
        let single = navscope_core::level::LayeredLevel {
            layers: vec![layer("one", 0.0, rect(0.0, 0.0, 20.0, 10.0), holes.clone())],
            connections: vec![],
        };
        let two = navscope_core::level::LayeredLevel {
            layers: vec![
                layer("west", 0.0, rect(0.0, 0.0, 10.0, 10.0), ha),
                layer("east", 0.0, rect(10.0, 0.0, 20.0, 10.0), hb),
            ],
            connections: vec![conn((10.0, 0.0), (10.0, 10.0), 0, 1)],
        };
        let a = build(&single, &set).unwrap();
        let b = build(&two, &set).unwrap();
        assert_eq!(b.openings[0].unmatched, 0);
        check_clearances(&b.merged, &b.sites, &[0], TOL).unwrap();
        // Same point set: every point of one lies on the other, same length.
        let la: f64 = a.merged.edges.iter().map(|e| e.length()).sum();
        let lb: f64 = b.merged.edges.iter().map(|e| e.length()).sum();
        assert!((la - lb).abs() < 0.05, "{la} vs {lb}");
        assert!(max_gap(&a.merged, &b.merged) < TOL && max_gap(&b.merged, &a.merged) < TOL);
        assert!(
            !b.merged.joins.is_empty(),
            "the axis crosses the connection"
        );
        let comps = b.merged.components();
        assert!(
            comps.iter().all(|&c| c == comps[0]),
            "merged axis is connected"
        );
    }
}

/// Largest distance from a point of `a` to the polylines of `b` (on any
/// layer: the single polygon has one layer, the split one two).
fn max_gap(a: &navscope_layers::Axis, b: &navscope_layers::Axis) -> f64 {
    let seg = |p: DVec2, s: DVec2, t: DVec2| {
        navscope_layers::sites::closest_on_segment(s, t, p).distance(p)
    };
    a.edges
        .iter()
        .flat_map(|e| e.points.iter().map(|p| p.at))
        .map(|p| {
            b.edges
                .iter()
                .flat_map(|e| e.points.windows(2).map(move |w| seg(p, w[0].at, w[1].at)))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

#[test]
fn two_storeys_axis_matches_brute_force() {
    let level = navscope_layers::samples::two_storeys();
    let b = build(&level, &settings(0.001, 0.01)).unwrap();
    for o in &b.openings {
        assert_eq!(o.unmatched, 0, "connection {}", o.connection);
    }
    check_clearances(&b.layer_axes, &b.sites, &[], TOL).unwrap();
    check_clearances(&b.merged, &b.sites, &[0, 1], TOL).unwrap();
    edges_in_free_space(&b.merged, &b.sites).unwrap();
    let comps = b.merged.components();
    assert!(
        comps.iter().all(|&c| c == comps[0]),
        "merged axis is connected"
    );
}

fn check_all(name: &str, level: &navscope_core::level::LayeredLevel) -> navscope_layers::Built {
    let b = build(level, &settings(0.001, 0.01)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let opened: Vec<usize> = (0..level.connections.len()).collect();
    for o in &b.openings {
        assert_eq!(o.unmatched, 0, "{name}: connection {}", o.connection);
    }
    check_clearances(&b.layer_axes, &b.sites, &[], TOL)
        .unwrap_or_else(|e| panic!("{name} layer axes: {e}"));
    check_clearances(&b.merged, &b.sites, &opened, TOL)
        .unwrap_or_else(|e| panic!("{name} merged: {e}"));
    edges_in_free_space(&b.merged, &b.sites).unwrap_or_else(|e| panic!("{name}: {e}"));
    let comps = b.merged.components();
    assert!(
        comps.iter().all(|&c| c == comps[0]),
        "{name}: merged axis is connected"
    );
    b
}

#[test]
fn sample_levels_match_brute_force() {
    use navscope_layers::samples::*;
    check_all("bridge", &bridge());
    check_all("figure5", &figure5());
    check_all("figure6", &figure6());
    for k in [1, 2, 3, 5, 8, 14, 20, 28] {
        check_all(&format!("figure7({k})"), &figure7(k));
    }
}
