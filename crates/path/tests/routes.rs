//! Hand-made meshes whose shortest paths are known.

mod common;

use common::{assert_close, cell, centre, path, positions, v};
use navscope_core::{Link, LinkKind, Stance};
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, NavMesh, SearchOptions, astar, find_path};

/// Each waypoint's x with the stance held from it.
fn x_stances(r: &navscope_path::PathResult) -> Vec<(f64, Stance)> {
    r.waypoints
        .iter()
        .map(|w| (w.position.x, w.stance))
        .collect()
}

#[test]
fn corridor_with_two_bends_turns_at_both_inner_corners() {
    // Row 0 to x = 3, up column 2, row 2 to x = 5.
    let m = grid_mesh(5, 3, |i, j| {
        !(j == 0 && i <= 2 || i == 2 || j == 2 && i >= 2)
    });
    let r = path(&m, centre(0, 0), centre(4, 2), &SearchOptions::default());
    assert_eq!(
        positions(&r.waypoints),
        vec![v(0.5, 0.5), v(2.0, 1.0), v(3.0, 2.0), v(4.5, 2.5)]
    );
    assert_close(r.length, 2.0 * 2.5f64.sqrt() + 2f64.sqrt());
    assert_close(r.centre_length, 6.0);
    assert_eq!(r.search.nodes.as_ref().unwrap().len(), 7);
}

#[test]
fn l_shape_cuts_the_corner() {
    // A 4 x 4 L: column 0 and row 3.
    let m = grid_mesh(4, 4, |i, j| i > 0 && j < 3);
    let r = path(&m, v(0.5, 0.2), v(3.8, 3.5), &SearchOptions::default());
    assert_eq!(
        positions(&r.waypoints),
        vec![v(0.5, 0.2), v(1.0, 3.0), v(3.8, 3.5)]
    );
    assert_close(
        r.length,
        (0.25f64 + 2.8 * 2.8).sqrt() + (2.8f64 * 2.8 + 0.25).sqrt(),
    );
}

#[test]
fn u_shape_goes_round_although_the_goal_looks_close() {
    // Two arms joined at the far end (j = 4); the goal is 2 m away in a
    // straight line but 8 m away on foot.
    let m = grid_mesh(3, 5, |i, j| i == 1 && j < 4);
    let opts = SearchOptions::default();
    let r = path(&m, centre(0, 0), centre(2, 0), &opts);
    assert_eq!(
        positions(&r.waypoints),
        vec![v(0.5, 0.5), v(1.0, 4.0), v(2.0, 4.0), v(2.5, 0.5)]
    );
    assert_close(r.length, 2.0 * 12.5f64.sqrt() + 1.0);
    // The heuristic pulls the search the wrong way first: it expands every
    // node of the U before the goal.
    assert_eq!(r.expansions, m.nodes.len());
    assert_close(r.search.cost, 10.0);
}

/// Row 0 has a gap at x = 2 spanned by a jump link; the walk goes round by row 2.
fn gap_with_jump() -> NavMesh {
    let mut m = grid_mesh(5, 3, |i, j| {
        (j == 0 && i == 2) || (j == 1 && i > 0 && i < 4)
    });
    let (a, b) = (cell(&m, 1, 0), cell(&m, 3, 0));
    m.add_two_way(a, b, LinkKind::Jump, 2.0, None);
    m
}

#[test]
fn jump_links_are_used_unless_filtered_out() {
    let m = gap_with_jump();
    let r = path(&m, centre(0, 0), centre(4, 0), &SearchOptions::default());
    let kinds: Vec<LinkKind> = r.search.links.iter().map(|l| m.links[*l].kind).collect();
    assert!(kinds.contains(&LinkKind::Jump));
    assert_eq!(positions(&r.waypoints), vec![v(0.5, 0.5), v(4.5, 0.5)]);
    assert_close(r.length, 4.0);

    let no_jump = SearchOptions::default().allow(LinkKind::Jump, false);
    let r = path(&m, centre(0, 0), centre(4, 0), &no_jump);
    assert!(
        r.search
            .links
            .iter()
            .all(|l| m.links[*l].kind != LinkKind::Jump)
    );
    assert!(r.search.nodes.as_ref().unwrap().contains(&cell(&m, 2, 2)));
    assert_eq!(
        positions(&r.waypoints),
        vec![v(0.5, 0.5), v(1.0, 2.0), v(4.0, 2.0), v(4.5, 0.5)]
    );
    assert_close(r.length, 2.0 * 2.5f64.sqrt() + 3.0);
}

#[test]
fn expensive_jump_loses_to_the_walk() {
    let mut m = gap_with_jump();
    for l in m.links.iter_mut().filter(|l| l.kind == LinkKind::Jump) {
        l.cost = 20.0;
    }
    let r = path(&m, centre(0, 0), centre(4, 0), &SearchOptions::default());
    assert!(
        r.search
            .links
            .iter()
            .all(|l| m.links[*l].kind != LinkKind::Jump)
    );
}

/// A room `w` x `h` with a crouch-only table over cells `x0..x1` x `z0..z1`.
fn room_with_table(w: usize, h: usize, x0: usize, x1: usize, z0: usize, z1: usize) -> NavMesh {
    let mut m = grid_mesh(w, h, |_, _| false);
    for n in &mut m.nodes {
        let (i, j) = (n.position.x as usize, n.position.z as usize);
        if (x0..x1).contains(&i) && (z0..z1).contains(&j) {
            n.stance = Stance::Crouch;
        }
    }
    m
}

fn crosses_table(m: &NavMesh, r: &navscope_path::PathResult) -> bool {
    r.search
        .nodes
        .as_ref()
        .unwrap()
        .iter()
        .any(|n| m.nodes[*n as usize].stance == Stance::Crouch)
}

#[test]
fn agents_walk_round_a_table_when_the_detour_is_cheap() {
    // A thin table (5 x 1) in a 7 x 3 room: round costs 8, under 1 + 5 * 1.5.
    let m = room_with_table(7, 3, 1, 6, 1, 2);
    let r = path(&m, centre(0, 1), centre(6, 1), &SearchOptions::default());
    assert!(!crosses_table(&m, &r));
    assert!(r.waypoints.iter().all(|w| w.stance == Stance::Stand));
    assert_close(r.search.cost, 8.0);
    // If crouching cost nothing extra, under the table is shorter.
    let free = SearchOptions::default().with_stance_cost(Stance::Crouch, 1.0);
    let r = path(&m, centre(0, 1), centre(6, 1), &free);
    assert!(crosses_table(&m, &r));
    assert_close(r.length, 6.0);
}

#[test]
fn agents_crawl_under_a_table_when_the_detour_is_long() {
    // A deep table (5 x 3) in a 7 x 5 room: round costs 10, under 8.5.
    let m = room_with_table(7, 5, 1, 6, 1, 4);
    let r = path(&m, centre(0, 2), centre(6, 2), &SearchOptions::default());
    assert!(crosses_table(&m, &r));
    assert_close(r.search.cost, 8.5);
    assert_close(r.length, 6.0);
    // Kirst §32.3.2: crouch while walking towards the first table node and
    // stay crouched up to the node after the last one (here the goal's).
    let st: Vec<(glam::DVec3, Stance)> =
        r.waypoints.iter().map(|w| (w.position, w.stance)).collect();
    assert_eq!(
        st,
        vec![
            (centre(0, 2), Stance::Stand),
            (centre(6, 2), Stance::Crouch)
        ]
    );
    // Making crouching dear enough sends the agent round after all.
    let dear = SearchOptions::default().with_stance_cost(Stance::Crouch, 3.0);
    let r = path(&m, centre(0, 2), centre(6, 2), &dear);
    assert!(!crosses_table(&m, &r));
    assert_close(r.search.cost, 10.0);
}

#[test]
fn stance_changes_at_node_vertices_on_a_long_leg() {
    // 9 cells in a row with a crouch-only stretch at 3..5: stand to the
    // middle of cell 2, crouch to the middle of cell 6, then stand.
    let m = room_with_table(9, 1, 3, 6, 0, 1);
    let r = path(&m, centre(0, 0), centre(8, 0), &SearchOptions::default());
    let st = x_stances(&r);
    assert_eq!(
        st,
        vec![
            (0.5, Stance::Stand),
            (2.5, Stance::Stand),
            (6.5, Stance::Crouch),
            (8.5, Stance::Stand)
        ]
    );
    assert_eq!(r.waypoints[1].node, cell(&m, 2, 0));
    assert_close(r.length, 8.0);
}

#[test]
fn prone_inside_crouch_keeps_the_most_restrictive_stance() {
    let mut m = grid_mesh(5, 1, |_, _| false);
    m.nodes[1].stance = Stance::Crouch;
    m.nodes[2].stance = Stance::Prone;
    m.nodes[3].stance = Stance::Crouch;
    let r = path(&m, centre(0, 0), centre(4, 0), &SearchOptions::default());
    let st = x_stances(&r);
    // Legs: v0-v1 crouch, v1-v2 prone, v2-v3 prone, v3-v4 crouch.
    assert_eq!(
        st,
        vec![
            (0.5, Stance::Stand),
            (1.5, Stance::Crouch),
            (3.5, Stance::Prone),
            (4.5, Stance::Crouch)
        ]
    );
}

#[test]
fn point_nodes_are_reached_through_their_positions() {
    // Two platforms joined by a ladder of point nodes (no polygons).
    let mut m = grid_mesh(1, 1, |_, _| false);
    let p1 = m.add_node(glam::DVec3::new(0.5, 1.0, 1.5), None, Stance::Stand, 0);
    let p2 = m.add_node(glam::DVec3::new(0.5, 3.0, 1.5), None, Stance::Stand, 1);
    m.add_two_way(0, p1, LinkKind::Walk, 0.0, None);
    m.add_two_way(p1, p2, LinkKind::Ladder, 2.0, None);
    m.links.push(Link {
        from: p2,
        to: 0,
        kind: LinkKind::Jump,
        cost: 0.0,
        segment: None,
    });
    let r = path(
        &m,
        centre(0, 0),
        glam::DVec3::new(0.5, 3.0, 1.5),
        &SearchOptions::default(),
    );
    assert_eq!(r.search.nodes, Some(vec![0, p1, p2]));
    assert_eq!(r.waypoints.last().unwrap().node, p2);
    assert_close(r.length, 1.0f64.hypot(1.0) + 2.0);
    let no_ladder = SearchOptions::default().allow(LinkKind::Ladder, false);
    let e = find_path(
        &m,
        &Locator::new(&m),
        centre(0, 0),
        glam::DVec3::new(0.5, 3.0, 1.5),
        &no_ladder,
    )
    .unwrap_err();
    assert!(matches!(e, navscope_path::PathError::NoConnection { .. }));
    // One-way links: from the top the jump leads straight down.
    let s = astar(
        &m,
        p2,
        0,
        glam::DVec3::new(0.5, 3.0, 1.5),
        centre(0, 0),
        &SearchOptions::default(),
    );
    assert_eq!(s.nodes, Some(vec![p2, 0]));
}
