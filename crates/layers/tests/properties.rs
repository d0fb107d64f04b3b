//! Order independence, connectivity, the generated stacked floors and
//! degenerate input.

mod common;

use common::*;
use glam::DVec2;
use navscope_core::level::LayeredLevel;
use navscope_layers::verify::{check_clearances, edges_in_free_space};
use navscope_layers::{Axis, build, build_in_order, samples, settings};
use proptest::prelude::*;

const TOL: f64 = 0.025;

fn gap(a: &Axis, b: &Axis) -> f64 {
    let seg = |p: DVec2, s: DVec2, t: DVec2| {
        navscope_layers::sites::closest_on_segment(s, t, p).distance(p)
    };
    a.edges
        .iter()
        .flat_map(|e| e.points.iter().map(move |p| (e.layer, p.at)))
        .map(|(l, p)| {
            b.edges
                .iter()
                .filter(|e| e.layer == l)
                .flat_map(|e| e.points.windows(2).map(move |w| seg(p, w[0].at, w[1].at)))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max)
}

fn length(a: &Axis) -> f64 {
    a.edges.iter().map(|e| e.length()).sum()
}

fn same_axis(a: &Axis, b: &Axis, what: &str) {
    assert!(
        (length(a) - length(b)).abs() < 0.05,
        "{what}: lengths {} vs {}",
        length(a),
        length(b)
    );
    let (g1, g2) = (gap(a, b), gap(b, a));
    assert!(g1 < TOL && g2 < TOL, "{what}: gaps {g1} {g2}");
    assert_eq!(a.joins.len(), b.joins.len(), "{what}: joins");
}

#[test]
fn merged_axis_does_not_depend_on_the_opening_order() {
    let set = settings(0.001, 0.01);
    for (name, level) in [
        ("figure5", samples::figure5()),
        ("figure7(8)", samples::figure7(8)),
        ("two storeys", samples::two_storeys()),
        ("bridge", samples::bridge()),
    ] {
        let n = level.connections.len();
        let forward: Vec<usize> = (0..n).collect();
        let backward: Vec<usize> = (0..n).rev().collect();
        let mixed: Vec<usize> = (0..n).map(|i| (i * 5 + 3) % n).collect();
        let mut mixed_sorted = mixed.clone();
        mixed_sorted.sort_unstable();
        mixed_sorted.dedup();
        let mixed = if mixed_sorted.len() == n {
            mixed
        } else {
            backward.clone()
        };
        let a = build_in_order(&level, &set, &forward).unwrap();
        for order in [backward, mixed] {
            let b = build_in_order(&level, &set, &order).unwrap();
            same_axis(&a.merged, &b.merged, &format!("{name} {order:?}"));
        }
    }
}

#[test]
fn opening_orders_are_numbered_permutations() {
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..24 {
        let o = navscope_layers::opening_order(4, k);
        let mut sorted = o.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3], "order {k}: {o:?}");
        seen.insert(o);
    }
    assert_eq!(seen.len(), 24);
    assert_eq!(navscope_layers::opening_order(4, 0), [0, 1, 2, 3]);
    assert_eq!(navscope_layers::opening_order(4, 24), [0, 1, 2, 3]);
    assert!(navscope_layers::opening_order(0, 5).is_empty());
}

/// The `opening_order` parameter reaches the stage: the openings come in
/// that order, and the merged axis is the same as in index order.
#[test]
fn the_opening_order_parameter_orders_the_openings() {
    use navscope_core::level::{Level, LevelData};
    use navscope_core::{Artifact, ParamValue, Runner};
    let level = samples::two_storeys();
    let n = level.connections.len();
    let merged = |k: i64| {
        let mut r = Runner::new(
            std::sync::Arc::new(navscope_layers::pipeline()),
            std::sync::Arc::new(Level {
                source: "two_storeys".into(),
                data: LevelData::Layers(level.clone()),
            }),
        );
        r.set_param("opening_order", ParamValue::Int(k)).unwrap();
        let i = r.pipeline().stage_index("open-connections").unwrap();
        r.run_to(i, &Default::default(), &mut |_| {});
        let a: std::sync::Arc<dyn Artifact> = r.result(i).unwrap().outcome.clone().unwrap();
        let any: &dyn std::any::Any = a.as_ref();
        let m = any
            .downcast_ref::<navscope_layers::stages::Merged>()
            .unwrap();
        (
            m.openings.iter().map(|o| o.connection).collect::<Vec<_>>(),
            m.axis.clone(),
        )
    };
    let (first, a) = merged(0);
    assert_eq!(first, (0..n).collect::<Vec<_>>());
    let (order, b) = merged(5);
    assert_eq!(order, navscope_layers::opening_order(n, 5));
    assert_ne!(order, first);
    same_axis(&a, &b, "two storeys, order 5");
}

#[test]
fn generated_stacked_floors_build_and_match_brute_force() {
    let set = settings(0.001, 0.01);
    for (seed, floors) in [(1, 2), (7, 4), (42, 3)] {
        let level = navscope_levels::generate::stacked_floors(seed, floors);
        let b = build(&level, &set).unwrap();
        let opened: Vec<usize> = (0..level.connections.len()).collect();
        check_clearances(&b.merged, &b.sites, &opened, TOL).unwrap();
        edges_in_free_space(&b.merged, &b.sites).unwrap();
        // The reversed pair of each stair is the same join: opened once.
        assert_eq!(
            b.openings.iter().filter(|o| o.same_as.is_some()).count(),
            floors - 1
        );
        let comps = b.merged.components();
        assert!(comps.iter().all(|&c| c == comps[0]));
        assert!(b.merged.joins.iter().all(|j| {
            let [u, v] = j.vertices;
            b.merged.vertices[u as usize].layer != b.merged.vertices[v as usize].layer
        }));
    }
}

/// `n` stacked 10 x 10 m floors with a stair connection between floor `i`
/// and `i + 1` wherever `links[i]`.
fn chain(links: &[bool]) -> LayeredLevel {
    let n = links.len() + 1;
    let layers = (0..n)
        .map(|i| {
            layer(
                &format!("f{i}"),
                3.0 * i as f64,
                rect(0.0, 0.0, 10.0, 10.0),
                vec![rect(2.0, 2.0, 3.0, 3.0 + i as f64 * 0.5)],
            )
        })
        .collect();
    let mut connections = Vec::new();
    for (i, &l) in links.iter().enumerate() {
        if l {
            let y = if i % 2 == 0 { 6.0 } else { 8.0 };
            connections.push(conn((8.0, y), (5.0, y), i, i + 1));
        }
    }
    LayeredLevel {
        layers,
        connections,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn merged_axis_is_connected_exactly_when_the_environment_is(links in proptest::collection::vec(any::<bool>(), 1..4)) {
        let level = chain(&links);
        let b = build(&level, &settings(0.001, 0.01)).unwrap();
        let comps = b.merged.components();
        let mut distinct = comps.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let env_components = 1 + links.iter().filter(|l| !**l).count();
        prop_assert_eq!(distinct.len(), env_components);
    }

    #[test]
    fn vertex_clearance_is_the_distance_to_the_nearest_obstacle(
        w in 4.0f64..30.0, h in 4.0f64..30.0, hx in 0.2f64..0.8, hy in 0.2f64..0.8, cut in 0.3f64..0.7,
    ) {
        // A rectangle with one square pillar, split into two coplanar layers
        // along x = cut * w by one connection.
        let x = cut * w;
        let (px, py) = (hx * w, hy * h);
        let s = 0.1 * w.min(h);
        let pillar = rect(px - s / 2.0, py - s / 2.0, px + s / 2.0, py + s / 2.0);
        let pillar_west = px + s / 2.0 < x - 0.05;
        let pillar_east = px - s / 2.0 > x + 0.05;
        prop_assume!(pillar_west || pillar_east);
        let (hw, he) = if pillar_west { (vec![pillar], vec![]) } else { (vec![], vec![pillar]) };
        let level = LayeredLevel {
            layers: vec![layer("w", 0.0, rect(0.0, 0.0, x, h), hw), layer("e", 0.0, rect(x, 0.0, w, h), he)],
            connections: vec![conn((x, 0.0), (x, h), 0, 1)],
        };
        let b = build(&level, &settings(0.001, 0.01)).unwrap();
        prop_assert!(b.openings.iter().all(|o| o.unmatched == 0));
        prop_assert_eq!(check_clearances(&b.merged, &b.sites, &[0], TOL), Ok(()));
        prop_assert_eq!(edges_in_free_space(&b.merged, &b.sites), Ok(()));
    }
}

#[test]
fn empty_level_is_a_named_error() {
    let e = build(&LayeredLevel::default(), &settings(0.001, 0.01)).unwrap_err();
    assert_eq!(e, "the level has no layers");
}

#[test]
fn bad_connections_are_named_errors() {
    let set = settings(0.001, 0.01);
    let two = |c| LayeredLevel {
        layers: vec![
            layer("a", 0.0, rect(0.0, 0.0, 10.0, 10.0), vec![]),
            layer("b", 3.0, rect(0.0, 0.0, 10.0, 10.0), vec![]),
        ],
        connections: vec![c],
    };
    let cases = [
        (
            conn((1.0, 1.0), (2.0, 1.0), 0, 5),
            "connection 0: joins layers 0 and 5 but there are 2 layers",
        ),
        (
            conn((1.0, 1.0), (2.0, 1.0), 1, 1),
            "connection 0: joins layer 1 to itself",
        ),
        (
            conn((1.0, 1.0), (1.0, 1.0), 0, 1),
            "connection 0: has zero length",
        ),
        (
            conn((5.0, 5.0), (15.0, 5.0), 0, 1),
            "connection 0: leaves the free space of layer 0 ('a')",
        ),
        // Along the south wall running west: its left (access) side is outside.
        (
            conn((8.0, 0.0), (2.0, 0.0), 0, 1),
            "connection 0: its access side (left of a -> b) is not free space on layer 0 ('a')",
        ),
    ];
    for (c, msg) in cases {
        let e = build(&two(c), &set).unwrap_err();
        assert!(e.starts_with(msg), "{e}");
    }
    let mut huge = two(conn((1.0, 1.0), (2.0, 1.0), 0, 1));
    huge.layers[0].area.outer.points[2] = DVec2::new(1e12, 10.0);
    assert!(build(&huge, &set).unwrap_err().contains("too far out"));
}

#[test]
fn collinear_vertices_and_a_connection_on_a_boundary() {
    // Extra collinear vertices on every side; the connection covers part of
    // the east wall of "a" (which is inside "b", a larger floor above).
    let mut outer = rect(0.0, 0.0, 10.0, 10.0);
    outer.points = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(5.0, 0.0),
        DVec2::new(10.0, 0.0),
        DVec2::new(10.0, 2.5),
        DVec2::new(10.0, 5.0),
        DVec2::new(10.0, 10.0),
        DVec2::new(3.0, 10.0),
        DVec2::new(0.0, 10.0),
        DVec2::new(0.0, 4.0),
    ];
    let level = LayeredLevel {
        layers: vec![
            layer("a", 0.0, outer, vec![rect(4.0, 4.0, 6.0, 6.0)]),
            layer("b", 1.0, rect(10.0, -5.0, 20.0, 15.0), vec![]),
        ],
        connections: vec![conn((10.0, 1.0), (10.0, 7.0), 0, 1)],
    };
    // West of a -> b (northwards) is "a": access side ok; east is "b".
    let b = build(&level, &settings(0.001, 0.01)).unwrap();
    assert!(b.openings.iter().all(|o| o.unmatched == 0));
    check_clearances(&b.merged, &b.sites, &[0], TOL).unwrap();
    edges_in_free_space(&b.merged, &b.sites).unwrap();
    let comps = b.merged.components();
    assert!(comps.iter().all(|&c| c == comps[0]));
}

#[test]
fn touching_layers_without_a_connection_stay_apart() {
    // Two layers sharing an edge but not connected: two separate axes.
    let level = LayeredLevel {
        layers: vec![
            layer("a", 0.0, rect(0.0, 0.0, 5.0, 5.0), vec![]),
            layer("b", 0.0, rect(5.0, 0.0, 10.0, 5.0), vec![]),
        ],
        connections: vec![],
    };
    let b = build(&level, &settings(0.001, 0.01)).unwrap();
    let mut comps = b.merged.components();
    comps.sort_unstable();
    comps.dedup();
    assert_eq!(comps.len(), 2);
    check_clearances(&b.merged, &b.sites, &[], TOL).unwrap();
}

#[test]
fn far_from_the_origin_the_axis_is_the_same_translated() {
    let set = settings(0.001, 0.01);
    let level = samples::two_storeys();
    let shift = DVec2::new(100_000.0, -50_000.0);
    let mut moved = level.clone();
    for l in &mut moved.layers {
        for r in std::iter::once(&mut l.area.outer).chain(l.area.holes.iter_mut()) {
            r.points.iter_mut().for_each(|p| *p += shift);
        }
    }
    for c in &mut moved.connections {
        c.a += shift;
        c.b += shift;
    }
    let a = build(&level, &set).unwrap();
    let b = build(&moved, &set).unwrap();
    assert_eq!(a.merged.edges.len(), b.merged.edges.len());
    assert_eq!(a.merged.joins.len(), b.merged.joins.len());
    for x in &a.merged.vertices {
        let best = b
            .merged
            .vertices
            .iter()
            .filter(|y| y.layer == x.layer)
            .map(|y| (x.at + shift).distance(y.at))
            .fold(f64::INFINITY, f64::min);
        assert!(best < 1e-6, "vertex {:?} moved by {best}", x.at);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn generated_buildings_match_brute_force(seed in any::<u64>(), floors in 1usize..4) {
        let level = navscope_levels::generate::stacked_floors(seed, floors);
        let b = build(&level, &settings(0.001, 0.01)).unwrap();
        let opened: Vec<usize> = (0..level.connections.len()).collect();
        prop_assert!(b.openings.iter().all(|o| o.unmatched == 0));
        prop_assert_eq!(check_clearances(&b.merged, &b.sites, &opened, TOL), Ok(()));
        prop_assert_eq!(edges_in_free_space(&b.merged, &b.sites), Ok(()));
    }
}

#[test]
fn results_are_deterministic() {
    let set = settings(0.001, 0.01);
    let level = samples::figure5();
    let a = serde_json::to_string(&build(&level, &set).unwrap().merged).unwrap();
    for _ in 0..3 {
        assert_eq!(
            serde_json::to_string(&build(&level, &set).unwrap().merged).unwrap(),
            a
        );
    }
}

/// Table 1's edge and closest-point-pair columns: on Figure 7's
/// environment both grow linearly with the number of connections, as in
/// the paper (edges 15 to 119, pairs 42 to 382 for 1 to 28 connections).
/// Here edges are cut at every connection and wherever the nearest
/// obstacle changes, and every polyline point carries a pair, so the
/// counts are larger; the crate docs give the table.
#[test]
fn table1_edges_and_closest_point_pairs_grow_linearly_with_the_connections() {
    let set = settings(0.001, 0.01);
    let counts: Vec<(usize, usize, usize)> = [1, 2, 3, 5, 8, 14, 20, 28]
        .into_iter()
        .map(|k| {
            let m = build(&samples::figure7(k), &set).unwrap().merged;
            let pairs = m.edges.iter().map(|e| e.points.len()).sum();
            (k, m.edges.len(), pairs)
        })
        .collect();
    for w in counts.windows(2) {
        assert!(w[1].1 > w[0].1 && w[1].2 > w[0].2, "{counts:?}");
    }
    let (first, last) = (counts[0], counts[counts.len() - 1]);
    let per = |a: usize, b: usize| (b - a) as f64 / (last.0 - first.0) as f64;
    let (edges, pairs) = (per(first.1, last.1), per(first.2, last.2));
    // The paper: 3.9 edges and 12.6 pairs per added connection.
    assert!(
        (6.0..=10.0).contains(&edges),
        "{edges} edges per connection: {counts:?}"
    );
    assert!(
        (10.0..=20.0).contains(&pairs),
        "{pairs} pairs per connection: {counts:?}"
    );
    // Linear: every count within 15 % of the straight line through the ends.
    for &(k, e, p) in &counts {
        let line = |a: usize, slope: f64| a as f64 + slope * (k - first.0) as f64;
        assert!(
            (e as f64 - line(first.1, edges)).abs() <= 0.15 * e as f64,
            "{counts:?}"
        );
        assert!(
            (p as f64 - line(first.2, pairs)).abs() <= 0.15 * p as f64,
            "{counts:?}"
        );
    }
}
