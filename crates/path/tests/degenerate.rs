//! Degenerate input: nothing panics, answers stay sensible.

mod common;

use common::{assert_close, centre, path, positions, square, v};
use glam::DVec3;
use navscope_core::{LinkKind, NavMesh, Stance};
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, PathError, SearchOptions, astar, find_path, funnel};

#[test]
fn start_equals_goal() {
    let m = grid_mesh(3, 3, |_, _| false);
    let r = path(&m, centre(1, 1), centre(1, 1), &SearchOptions::default());
    assert_eq!(positions(&r.waypoints), vec![centre(1, 1), centre(1, 1)]);
    assert_eq!(r.length, 0.0);
    assert_eq!(r.expansions, 1);
    assert_eq!(r.search.nodes, Some(vec![4]));
}

#[test]
fn start_on_a_vertex_shared_by_four_cells() {
    let m = grid_mesh(3, 3, |_, _| false);
    let r = path(&m, v(1.0, 1.0), v(2.5, 2.5), &SearchOptions::default());
    assert_eq!(r.waypoints.first().unwrap().position, v(1.0, 1.0));
    assert_eq!(r.waypoints.last().unwrap().position, v(2.5, 2.5));
    assert_close(r.length, 1.5f64.hypot(1.5));
    // On a vertex of a wall corner too: the start is the corner itself.
    let m = grid_mesh(3, 3, |i, j| i == 1 && j == 1);
    let r = path(&m, v(1.0, 1.0), v(2.5, 2.5), &SearchOptions::default());
    assert_eq!(r.waypoints.first().unwrap().position, v(1.0, 1.0));
    assert!(r.length >= 1.5f64.hypot(1.5) - 1e-9);
    assert!(r.length <= r.centre_length + 1e-9);
}

#[test]
fn zero_length_portal_is_passed_through_its_point() {
    // Two squares touching at one corner, linked through that corner.
    let mut m = NavMesh::new("t", "t");
    m.add_node(v(0.5, 0.5), Some(square(0., 0., 1.)), Stance::Stand, 0);
    m.add_node(v(1.5, 1.5), Some(square(1., 1., 1.)), Stance::Stand, 0);
    m.add_two_way(0, 1, LinkKind::Walk, 0.0, Some([v(1., 1.), v(1., 1.)]));
    let r = path(&m, v(0.2, 0.5), v(1.5, 1.8), &SearchOptions::default());
    assert_eq!(
        positions(&r.waypoints),
        vec![v(0.2, 0.5), v(1.0, 1.0), v(1.5, 1.8)]
    );
    // With a radius the point cannot shrink further: same path.
    let wide = SearchOptions {
        agent_radius: 0.3,
        ..SearchOptions::default()
    };
    let r2 = find_path(&m, &Locator::new(&m), v(0.2, 0.5), v(1.5, 1.8), &wide).unwrap();
    assert_eq!(r2.waypoints, r.waypoints);
}

#[test]
fn empty_mesh_is_an_error_not_a_panic() {
    let m = NavMesh::new("t", "t");
    let loc = Locator::new(&m);
    assert_eq!(
        find_path(&m, &loc, DVec3::ZERO, DVec3::ONE, &SearchOptions::default()),
        Err(PathError::EmptyMesh)
    );
    assert_eq!(
        astar(
            &m,
            0,
            0,
            DVec3::ZERO,
            DVec3::ZERO,
            &SearchOptions::default()
        )
        .nodes,
        None
    );
    assert!(funnel(&m, &[0], &[], DVec3::ZERO, DVec3::ZERO, 0.0).is_empty());
}

#[test]
fn non_finite_points_are_off_the_mesh() {
    let m = grid_mesh(2, 2, |_, _| false);
    let loc = Locator::new(&m);
    let e = find_path(
        &m,
        &loc,
        DVec3::new(f64::NAN, 0., 0.),
        centre(1, 1),
        &SearchOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, PathError::StartOffMesh { .. }));
    let e = find_path(
        &m,
        &loc,
        centre(0, 0),
        DVec3::splat(f64::INFINITY),
        &SearchOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, PathError::GoalOffMesh { .. }));
}

#[test]
fn huge_coordinates_keep_the_path_shape() {
    let off = 1e7;
    let mut m = grid_mesh(4, 4, |i, j| i > 0 && j < 3);
    for n in &mut m.nodes {
        n.position.x += off;
        n.polygon.iter_mut().flatten().for_each(|p| p.x += off);
    }
    for l in &mut m.links {
        l.segment
            .iter_mut()
            .flat_map(|s| s.iter_mut())
            .for_each(|p| p.x += off);
    }
    let r = path(
        &m,
        v(off + 0.5, 0.2),
        v(off + 3.8, 3.5),
        &SearchOptions::default(),
    );
    assert_eq!(
        positions(&r.waypoints),
        vec![v(off + 0.5, 0.2), v(off + 1.0, 3.0), v(off + 3.8, 3.5)]
    );
    assert!((r.length - 2.0 * (0.25f64 + 2.8 * 2.8).sqrt()).abs() < 1e-6);
}

#[test]
fn degenerate_polygons_and_self_links_do_not_panic() {
    let mut m = NavMesh::new("t", "t");
    // A zero-area (collinear) polygon, a normal square, a self-link.
    m.add_node(
        v(0.5, 0.0),
        Some(vec![v(0., 0.), v(0.5, 0.), v(1., 0.)]),
        Stance::Stand,
        0,
    );
    m.add_node(v(0.5, -0.5), Some(square(0., -1., 1.)), Stance::Stand, 0);
    m.add_two_way(0, 1, LinkKind::Walk, 1.0, Some([v(0., 0.), v(1., 0.)]));
    m.add_two_way(1, 1, LinkKind::Walk, 1.0, None);
    let loc = Locator::new(&m);
    let r = find_path(
        &m,
        &loc,
        v(0.5, 0.0),
        v(0.5, -0.8),
        &SearchOptions::default(),
    )
    .unwrap();
    assert_eq!(r.waypoints.last().unwrap().position, v(0.5, -0.8));
    assert!(r.length.is_finite());
}

#[test]
fn nan_inside_a_code_built_mesh_does_not_hang_or_panic() {
    let mut m = grid_mesh(4, 1, |_, _| false);
    m.nodes[2].position.x = f64::NAN;
    for l in &mut m.links {
        if l.from == 2 || l.to == 2 {
            l.segment = Some(Box::new([DVec3::NAN, DVec3::NAN]));
        }
    }
    let r = find_path(
        &m,
        &Locator::new(&m),
        centre(0, 0),
        centre(3, 0),
        &SearchOptions::default(),
    );
    // Whatever the answer, it comes back.
    if let Ok(r) = r {
        assert!(!r.waypoints.is_empty());
    }
}

#[test]
fn disconnected_layers_report_no_connection() {
    // Two floors over the same square, no link between them.
    let mut m = NavMesh::new("t", "t");
    m.add_node(v(0.5, 0.5), Some(square(0., 0., 1.)), Stance::Stand, 0);
    let top: Vec<DVec3> = square(0., 0., 1.)
        .into_iter()
        .map(|p| p + DVec3::Y * 3.0)
        .collect();
    m.add_node(DVec3::new(0.5, 3.0, 0.5), Some(top), Stance::Stand, 1);
    let e = find_path(
        &m,
        &Locator::new(&m),
        v(0.5, 0.5),
        DVec3::new(0.5, 3.0, 0.5),
        &SearchOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        PathError::NoConnection {
            start_node: 0,
            goal_node: 1,
            expansions: 1
        }
    );
}
