//! Detail surfaces (NavMesh version 2 `detail`): located points, snapped
//! points and the path's waypoints follow a node's detail triangles, not
//! its polygon's plane; broken detail degrades to something finite.

mod common;

use common::{path, positions, square, v};
use glam::DVec3;
use navscope_core::{LinkKind, NavMesh, Stance};
use navscope_path::{Locator, SearchOptions, Waypoint, find_path, funnel, path_length};
use proptest::prelude::*;

/// A pyramid of four triangles over a square polygon, apex `top` high over
/// its centre.
fn pyramid(poly: &[DVec3], top: f64) -> Vec<[DVec3; 3]> {
    let c = poly.iter().sum::<DVec3>() / poly.len() as f64;
    let apex = DVec3::new(c.x, top, c.z);
    (0..poly.len())
        .map(|i| [poly[i], poly[(i + 1) % poly.len()], apex])
        .collect()
}

/// Three 4 m squares in a row along +x; the middle one (node 1) has a 1 m
/// pyramid as detail, its polygon is flat at 0.
fn hill() -> NavMesh {
    let mut m = NavMesh::new("test", "hill");
    for i in 0..3 {
        let x = 4.0 * i as f64;
        m.add_node(v(x + 2.0, 2.0), Some(square(x, 0.0, 4.0)), Stance::Stand, 0);
    }
    m.nodes[1].detail = Some(pyramid(&square(4.0, 0.0, 4.0), 1.0));
    for i in 0..2u32 {
        let x = 4.0 * (i + 1) as f64;
        m.add_two_way(
            i,
            i + 1,
            LinkKind::Portal,
            4.0,
            Some([v(x, 0.0), v(x, 4.0)]),
        );
    }
    assert!(m.validate().is_ok());
    m
}

/// The hill's surface: the pyramid over `x` in `[4, 8]`, flat elsewhere.
fn hill_height(x: f64, z: f64) -> f64 {
    if (4.0..=8.0).contains(&x) {
        1.0 - (x - 6.0).abs().max((z - 2.0).abs()) / 2.0
    } else {
        0.0
    }
}

/// Asserts every waypoint, and points all along every leg between them,
/// lie on `surface` to 1e-6.
fn assert_on_surface(w: &[Waypoint], surface: impl Fn(f64, f64) -> f64) {
    for p in positions(w) {
        let h = surface(p.x, p.z);
        assert!(
            (p.y - h).abs() < 1e-6,
            "waypoint {p} is off the surface ({h})"
        );
    }
    for leg in w.windows(2) {
        for k in 1..16 {
            let p = leg[0].position.lerp(leg[1].position, k as f64 / 16.0);
            let h = surface(p.x, p.z);
            assert!(
                (p.y - h).abs() < 1e-6,
                "{p} on a leg cuts the surface ({h})"
            );
        }
    }
}

#[test]
fn located_and_snapped_points_take_the_detail_height_not_the_plane() {
    let m = hill();
    let loc = Locator::new(&m);
    // The apex: the polygon's plane would say 0.
    let a = loc.locate(DVec3::new(6.0, 3.0, 2.0)).unwrap();
    assert_eq!((a.node, a.inside), (1, true));
    assert_eq!(a.point, DVec3::new(6.0, 1.0, 2.0));
    assert!((a.distance - 2.0).abs() < 1e-12);
    // On a face, and on an edge between two faces (boundary included).
    for (x, z) in [(5.0, 2.5), (5.0, 1.0), (7.5, 3.9), (6.0, 4.0), (6.3, 0.2)] {
        let l = loc.locate(DVec3::new(x, 0.0, z)).unwrap();
        assert_eq!(l.node, 1);
        assert!((l.point.y - hill_height(x, z)).abs() < 1e-12, "{l:?}");
        assert!((l.distance - hill_height(x, z)).abs() < 1e-12);
    }
    // A point 1.5 m above the flat polygon but 0.1 m above the hilltop is
    // on the hill, not off the mesh or on a neighbour.
    let l = loc.locate(DVec3::new(6.0, 1.1, 2.0)).unwrap();
    assert!((l.distance - 0.1).abs() < 1e-12);
    // High over the hill: out of the locator's reach of the plane (2 m)
    // but within reach of the hilltop.
    assert!(loc.locate(DVec3::new(6.0, 2.9, 2.0)).is_some());
    // Outside every polygon: the closest boundary point, on the surface.
    let o = loc.locate(DVec3::new(6.0, 0.0, -0.5)).unwrap();
    assert_eq!((o.node, o.inside, o.point), (1, false, v(6.0, 0.0)));
}

#[test]
fn a_path_across_the_hill_follows_its_surface() {
    let m = hill();
    let (from, to) = (v(1.0, 1.0), v(11.0, 3.5));
    let r = path(&m, from, to, &SearchOptions::default());
    assert_eq!(r.search.nodes, Some(vec![0, 1, 2]));
    assert_on_surface(&r.waypoints, hill_height);
    // Up the west face to its crossing with the north face (x = 5.8), over
    // to the east face (x = 6.33...), down to the portal at x = 8.
    let xs: Vec<f64> = r.waypoints.iter().map(|w| w.position.x).collect();
    assert_eq!(xs.len(), 6, "{xs:?}");
    for (got, want) in xs.iter().zip([1.0, 4.0, 5.8, 19.0 / 3.0, 8.0, 11.0]) {
        assert!((got - want).abs() < 1e-9, "{xs:?}");
    }
    let top = r.waypoints.iter().map(|w| w.position.y).fold(0.0, f64::max);
    assert!((top - 0.9).abs() < 1e-9);
    // The length is walked on the surface: longer than seen from above.
    let flat = (10.0f64).hypot(2.5);
    assert!(r.length > flat + 0.1, "{} vs {flat}", r.length);
    assert!((r.length - path_length(&r.waypoints)).abs() < 1e-12);
    // The public funnel, preparing the detail itself, agrees.
    let nodes = r.search.nodes.clone().unwrap();
    let w = funnel(&m, &nodes, &r.search.links, from, to, 0.0);
    assert_eq!(w, r.waypoints);
    // With a radius the corridor is wide enough: the same path.
    let wide = SearchOptions {
        agent_radius: 0.5,
        ..SearchOptions::default()
    };
    assert_on_surface(&path(&m, from, to, &wide).waypoints, hill_height);
}

#[test]
fn a_hill_split_between_two_nodes_is_climbed_over_their_shared_edge() {
    // The same hill cut along x = 6 into two 2 m wide nodes, each with its
    // half of the pyramid: the portal between them is flat at 0 but its
    // crossing takes the hill's height from the detail on both sides.
    let mut m = NavMesh::new("test", "split hill");
    let apex = DVec3::new(6.0, 1.0, 2.0);
    for (x0, x1) in [(0.0, 4.0), (4.0, 6.0), (6.0, 8.0), (8.0, 12.0)] {
        let poly = vec![v(x0, 4.0), v(x1, 4.0), v(x1, 0.0), v(x0, 0.0)];
        m.add_node(v((x0 + x1) / 2.0, 2.0), Some(poly), Stance::Stand, 0);
    }
    m.nodes[1].detail = Some(vec![
        [v(4.0, 0.0), v(4.0, 4.0), apex],
        [v(4.0, 4.0), v(6.0, 4.0), apex],
        [v(6.0, 0.0), v(4.0, 0.0), apex],
    ]);
    m.nodes[2].detail = Some(vec![
        [v(8.0, 4.0), v(8.0, 0.0), apex],
        [v(6.0, 4.0), v(8.0, 4.0), apex],
        [v(8.0, 0.0), v(6.0, 0.0), apex],
    ]);
    for (i, x) in [(0u32, 4.0), (1, 6.0), (2, 8.0)] {
        m.add_two_way(
            i,
            i + 1,
            LinkKind::Portal,
            2.0,
            Some([v(x, 0.0), v(x, 4.0)]),
        );
    }
    let r = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
    assert_eq!(r.search.nodes, Some(vec![0, 1, 2, 3]));
    assert_on_surface(&r.waypoints, hill_height);
    // The same waypoints as over the uncut hill: the crossing at x = 6
    // (height 0.875, inside the north face) lies straight on a leg.
    let whole = path(
        &hill(),
        v(1.0, 1.0),
        v(11.0, 3.5),
        &SearchOptions::default(),
    );
    let (a, b) = (positions(&r.waypoints), positions(&whole.waypoints));
    assert_eq!(a.len(), b.len());
    assert!(
        a.iter().zip(&b).all(|(p, q)| p.distance(*q) < 1e-9),
        "{a:?}"
    );
}

#[test]
fn without_detail_the_path_is_flat_and_unchanged() {
    let mut m = hill();
    m.nodes[1].detail = None;
    let r = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
    assert_eq!(positions(&r.waypoints), vec![v(1.0, 1.0), v(11.0, 3.5)]);
    // Empty detail and detail of zero-area triangles are no detail.
    for detail in [
        vec![],
        vec![[v(4.0, 0.0), DVec3::new(6.0, 5.0, 2.0), v(8.0, 4.0)]; 3],
        vec![[DVec3::new(5.0, 9.0, 1.0); 3]],
    ] {
        m.nodes[1].detail = Some(detail);
        let again = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
        assert_eq!(again, r);
        let l = Locator::new(&m).locate(DVec3::new(5.0, 1.0, 1.0)).unwrap();
        assert_eq!(l.point, v(5.0, 1.0));
    }
}

#[test]
fn zero_area_and_non_finite_triangles_are_ignored_beside_good_ones() {
    let mut m = hill();
    let mut detail = vec![
        [v(4.0, 0.0), DVec3::new(6.0, 7.0, 2.0), v(8.0, 4.0)],
        [DVec3::new(f64::NAN, 0.0, 0.0), v(4.0, 0.0), v(8.0, 0.0)],
        [
            DVec3::new(5.0, f64::INFINITY, 0.0),
            v(4.0, 0.0),
            v(8.0, 4.0),
        ],
    ];
    detail.extend(pyramid(&square(4.0, 0.0, 4.0), 1.0));
    m.nodes[1].detail = Some(detail);
    let loc = Locator::new(&m);
    assert_eq!(loc.len(), 3);
    let l = loc.locate(DVec3::new(6.0, 0.0, 2.0)).unwrap();
    assert_eq!(l.point, DVec3::new(6.0, 1.0, 2.0));
    let r = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
    assert_on_surface(&r.waypoints, hill_height);
}

#[test]
fn detail_short_of_the_polygon_stays_continuous_and_finite() {
    // Only the west half of the hill square has detail: a ramp from 0 at
    // x = 4 up to 1 at x = 6. East of it the nearest triangle's edge (x = 6,
    // height 1) gives the height, not the plane's 0 and not the ramp's
    // plane extended (which would climb to 3 at x = 8).
    let mut m = hill();
    let (a, b) = (v(4.0, 0.0), v(4.0, 4.0));
    let (c, d) = (DVec3::new(6.0, 1.0, 4.0), DVec3::new(6.0, 1.0, 0.0));
    m.nodes[1].detail = Some(vec![[a, b, c], [a, c, d]]);
    let surface = |x: f64, _z: f64| ((x - 4.0) / 2.0).clamp(0.0, 1.0);
    let loc = Locator::new(&m);
    for x in [4.5, 5.0, 6.0, 7.0, 7.99] {
        let l = loc.locate(DVec3::new(x, 0.0, 1.0)).unwrap();
        assert_eq!(l.node, 1);
        assert!((l.point.y - surface(x, 1.0)).abs() < 1e-12, "{l:?}");
    }
    // The path's leg through node 1 ends on the far portal (x = 8), which
    // lies beside the detail: the leg is off the surface and stays
    // straight, as without detail.
    let r = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
    assert_eq!(positions(&r.waypoints), vec![v(1.0, 1.0), v(11.0, 3.5)]);
    assert!(r.length.is_finite());
}

#[test]
fn portals_off_the_detail_surface_keep_their_heights() {
    // Both portals of the hill node lifted 0.5 m (as the voxel pipeline
    // lifts swim portals to the water over a pool-floor detail): their
    // segments are not on the hill's surface, so the path keeps their
    // heights and goes straight between them, with detail as without.
    let mut m = hill();
    for l in &mut m.links {
        l.segment
            .as_mut()
            .unwrap()
            .iter_mut()
            .for_each(|p| p.y = 0.5);
    }
    let with = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
    m.nodes[1].detail = None;
    let without = path(&m, v(1.0, 1.0), v(11.0, 3.5), &SearchOptions::default());
    assert_eq!(with.waypoints, without.waypoints);
    assert_eq!(with.waypoints.len(), 4);
    assert_eq!(with.waypoints[1].position, DVec3::new(4.0, 0.5, 1.75));
}

/// A square node of side `size` whose detail is a `n x n` grid of cells,
/// each split along a diagonal chosen by `flip`, at heights `ys` (row by
/// row, `(n + 1)^2` of them); the polygon itself is flat at 0.
fn random_node(size: f64, n: usize, ys: &[f64], flip: &[bool]) -> NavMesh {
    let mut m = NavMesh::new("test", "random detail");
    let poly = square(0.0, 0.0, size);
    m.add_node(v(size / 2.0, size / 2.0), Some(poly), Stance::Stand, 0);
    let h = size / n as f64;
    let p = |i: usize, j: usize| DVec3::new(i as f64 * h, ys[j * (n + 1) + i], j as f64 * h);
    let mut tris = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (p(i, j), p(i + 1, j), p(i + 1, j + 1), p(i, j + 1));
            if flip[j * n + i] {
                tris.extend([[a, b, c], [a, c, d]]);
            } else {
                tris.extend([[a, b, d], [b, c, d]]);
            }
        }
    }
    m.nodes[0].detail = Some(tris);
    m
}

/// Heights of the triangles of `m`'s node 0 that contain `(x, z)` seen
/// from above (barycentric coordinates at least `-1e-9`).
fn containing_heights(m: &NavMesh, x: f64, z: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for [a, b, c] in m.nodes[0].detail.as_ref().unwrap() {
        let den = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
        let u = ((x - a.x) * (c.z - a.z) - (c.x - a.x) * (z - a.z)) / den;
        let w = ((b.x - a.x) * (z - a.z) - (x - a.x) * (b.z - a.z)) / den;
        if u >= -1e-9 && w >= -1e-9 && 1.0 - u - w >= -1e-9 {
            out.push(a.y + u * (b.y - a.y) + w * (c.y - a.y));
        }
    }
    out
}

proptest! {
    /// A random point inside a node with random detail heights is located
    /// on the detail triangle containing it (the barycentric combination of
    /// that triangle's corner heights), within the range of the detail's
    /// heights; a path between two such points stays on the surface.
    #[test]
    fn located_heights_lie_on_the_containing_detail_triangle(
        size in 1.0f64..20.0,
        n in 1usize..5,
        ys in prop::collection::vec(-3.0f64..3.0, 25),
        flip in prop::collection::vec(any::<bool>(), 16),
        a in (0.0f64..=1.0, 0.0f64..=1.0),
        b in (0.0f64..=1.0, 0.0f64..=1.0),
    ) {
        let m = random_node(size, n, &ys, &flip);
        let used = &ys[..(n + 1) * (n + 1)];
        let (lo, hi) = used.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), y| {
            (l.min(*y), h.max(*y))
        });
        let loc = Locator::new(&m).with_max_distance(10.0);
        for (s, t) in [a, b] {
            let (x, z) = (s * size, t * size);
            let l = loc.locate(DVec3::new(x, 0.5, z)).unwrap();
            prop_assert!(l.inside);
            prop_assert_eq!((l.point.x, l.point.z), (x, z));
            let y = l.point.y;
            prop_assert!(y >= lo && y <= hi, "{} outside [{}, {}]", y, lo, hi);
            let on = containing_heights(&m, x, z);
            prop_assert!(!on.is_empty());
            prop_assert!(
                on.iter().any(|h| (h - y).abs() < 1e-9 * (1.0 + size)),
                "{} is on none of {:?}", y, on
            );
        }
        let from = DVec3::new(a.0 * size, 0.0, a.1 * size);
        let to = DVec3::new(b.0 * size, 0.0, b.1 * size);
        let r = find_path(&m, &loc, from, to, &SearchOptions::default()).unwrap();
        for w in r.waypoints.windows(2) {
            for k in 0..=8 {
                let p = w[0].position.lerp(w[1].position, k as f64 / 8.0);
                let on = containing_heights(&m, p.x, p.z);
                prop_assert!(!on.is_empty());
                prop_assert!((p.y - on[0]).abs() < 1e-6, "{} vs {}", p, on[0]);
            }
        }
    }
}
