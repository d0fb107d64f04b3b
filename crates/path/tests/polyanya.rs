//! Polyanya against a brute-force visibility graph, A* with the funnel and
//! the straight line, on random grids of blocked cells (floor plans with
//! holes, full of collinear edges and vertices), and its degenerate cases.

mod support;

use glam::{DVec2, DVec3};
use navscope_core::{Link, LinkKind, NavMesh, Stance};
use navscope_path::sample::grid_mesh;
use navscope_path::{Method, PathError, PathFinder, SearchOptions};
use proptest::prelude::*;
use support::visibility::Grid;

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

fn mesh_of(grid: &Grid) -> NavMesh {
    grid_mesh(grid.w, grid.h, |i, j| grid.is_blocked(i, j))
}

/// Plan length of a path's waypoints.
fn plan_length(w: &[navscope_path::Waypoint]) -> f64 {
    w.windows(2)
        .map(|p| plan(p[0].position).distance(plan(p[1].position)))
        .sum()
}

/// A point in free cell `(i, j)`: its corner, an edge's middle or inside.
fn point_in(i: usize, j: usize, kind: u8, fx: f64, fz: f64) -> DVec3 {
    let (x, z) = (i as f64, j as f64);
    match kind {
        0 => DVec3::new(x, 0.0, z),
        1 => DVec3::new(x + 0.5, 0.0, z),
        2 => DVec3::new(x, 0.0, z + fz),
        _ => DVec3::new(x + fx, 0.0, z + fz),
    }
}

fn grids() -> impl Strategy<Value = Grid> {
    (2usize..7, 2usize..7).prop_flat_map(|(w, h)| {
        proptest::collection::vec(prop::bool::weighted(0.3), w * h).prop_map(move |blocked| Grid {
            w,
            h,
            blocked,
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lengths_are_optimal_and_paths_stay_on_the_mesh(
        grid in grids(),
        picks in (any::<usize>(), any::<usize>(), 0u8..4, 0u8..4),
        fr in (0.01f64..0.99, 0.01f64..0.99, 0.01f64..0.99, 0.01f64..0.99),
    ) {
        let free: Vec<(usize, usize)> = (0..grid.h)
            .flat_map(|j| (0..grid.w).map(move |i| (i, j)))
            .filter(|(i, j)| !grid.is_blocked(*i, *j))
            .collect();
        prop_assume!(!free.is_empty());
        let (a, b) = (free[picks.0 % free.len()], free[picks.1 % free.len()]);
        let s = point_in(a.0, a.1, picks.2, fr.0, fr.1);
        let t = point_in(b.0, b.1, picks.3, fr.2, fr.3);
        let mesh = mesh_of(&grid);
        let mut finder = PathFinder::new(&mesh);
        let opts = SearchOptions::default();
        let brute = grid.shortest(plan(s), plan(t));
        let astar = finder.find(&mesh, Method::AStar, s, t, &opts);
        match finder.polyanya(&mesh, s, t, &opts, false) {
            Ok(p) => {
                let len = plan_length(p.waypoints);
                let best = brute.expect("polyanya found a path the brute force did not");
                prop_assert!((len - best).abs() <= 1e-9 * (1.0 + best), "polyanya {} brute {}", len, best);
                prop_assert!((p.cost - len).abs() <= 1e-9 * (1.0 + len));
                prop_assert!(len >= plan(s).distance(plan(t)) - 1e-12);
                // A* follows links only, so it cannot pass where the free
                // space touches itself at a point; where it finds a path,
                // Polyanya's is never longer.
                if let Ok(a) = astar {
                    prop_assert!(len <= a.length + 1e-9, "polyanya {} astar {}", len, a.length);
                }
                prop_assert_eq!(p.waypoints[0].position, s);
                prop_assert_eq!(p.waypoints[p.waypoints.len() - 1].position, t);
                for w in p.waypoints.windows(2) {
                    prop_assert!(grid.segment_free(plan(w[0].position), plan(w[1].position)));
                }
            }
            Err(e) => {
                prop_assert!(matches!(e, PathError::NoConnection { .. }), "{}", e);
                prop_assert!(brute.is_none(), "brute force found {:?}", brute);
                prop_assert!(astar.is_err());
            }
        }
    }
}

#[test]
fn start_equal_to_goal_is_a_path_of_length_zero() {
    let mesh = grid_mesh(3, 3, |_, _| false);
    let mut f = PathFinder::new(&mesh);
    for p in [
        DVec3::new(1.5, 0.0, 1.5),
        DVec3::new(1.0, 0.0, 1.0),
        DVec3::new(1.0, 0.0, 1.5),
    ] {
        let r = f
            .polyanya(&mesh, p, p, &SearchOptions::default(), false)
            .unwrap();
        assert_eq!(r.length, 0.0);
        assert!(r.length.is_sign_positive(), "prints as 0, not -0");
        assert_eq!(r.waypoints.len(), 1);
    }
}

#[test]
fn ends_on_vertices_and_edges_go_straight_along_walls() {
    // A corridor 5 x 1: the path along its wall is straight.
    let mesh = grid_mesh(5, 1, |_, _| false);
    let mut f = PathFinder::new(&mesh);
    let r = f
        .polyanya(
            &mesh,
            DVec3::ZERO,
            DVec3::new(5.0, 0.0, 0.0),
            &SearchOptions::default(),
            false,
        )
        .unwrap();
    assert!((r.length - 5.0).abs() < 1e-12);
    assert_eq!(r.waypoints.len(), 2);
    let r = f
        .polyanya(
            &mesh,
            DVec3::new(0.5, 0.0, 1.0),
            DVec3::new(4.0, 0.0, 0.3),
            &SearchOptions::default(),
            false,
        )
        .unwrap();
    assert!((r.length - DVec2::new(3.5, 0.7).length()).abs() < 1e-12);
}

#[test]
fn a_path_bends_round_a_corner_and_an_unreachable_goal_says_so() {
    // An L: the path from one arm to the other bends at the inner corner.
    let mesh = grid_mesh(2, 2, |i, j| i == 1 && j == 1);
    let mut f = PathFinder::new(&mesh);
    let r = f
        .polyanya(
            &mesh,
            DVec3::new(1.8, 0.0, 0.5),
            DVec3::new(0.5, 0.0, 1.8),
            &SearchOptions::default(),
            true,
        )
        .unwrap();
    assert_eq!(r.waypoints.len(), 3);
    assert_eq!(r.waypoints[1].position, DVec3::new(1.0, 0.0, 1.0));
    assert!((r.length - 2.0 * 0.8f64.hypot(0.5)).abs() < 1e-12);
    let trace = r.trace.unwrap();
    assert_eq!(trace.len(), r.expansions);
    assert_eq!(
        trace.last().unwrap().kind,
        navscope_path::polyanya::StepKind::Goal
    );
    // Without recording, no trace.
    let r = f
        .polyanya(
            &mesh,
            DVec3::new(1.5, 0.0, 0.5),
            DVec3::new(0.5, 0.0, 1.5),
            &SearchOptions::default(),
            false,
        )
        .unwrap();
    assert!(r.trace.is_none());
    let split = grid_mesh(3, 1, |i, _| i == 1);
    let mut f = PathFinder::new(&split);
    let e = f
        .polyanya(
            &split,
            DVec3::new(0.5, 0.0, 0.5),
            DVec3::new(2.5, 0.0, 0.5),
            &SearchOptions::default(),
            false,
        )
        .unwrap_err();
    assert!(matches!(e, PathError::NoConnection { .. }));
}

/// Two floors over the same 3 x 1 strip, joined by a ladder at the far end.
fn two_floors(ladder_cost: f64) -> NavMesh {
    let mut m = grid_mesh(3, 1, |_, _| false);
    let n = m.nodes.len() as u32;
    let upper: Vec<_> = m.nodes.clone();
    for node in upper {
        let poly = node
            .polygon
            .unwrap()
            .into_iter()
            .map(|p| p + DVec3::Y * 3.0)
            .collect();
        m.add_node(node.position + DVec3::Y * 3.0, Some(poly), Stance::Stand, 1);
    }
    let links: Vec<Link> = m.links.clone();
    for l in links {
        m.links.push(Link::new(
            l.from + n,
            l.to + n,
            l.kind,
            l.cost,
            l.segment().map(|s| s.map(|p| p + DVec3::Y * 3.0)),
        ));
    }
    m.add_two_way(2, n + 2, LinkKind::Ladder, ladder_cost, None);
    m
}

#[test]
fn floors_over_each_other_are_joined_only_by_their_links() {
    let m = two_floors(4.0);
    let mut f = PathFinder::new(&m);
    let (s, t) = (DVec3::new(0.5, 0.0, 0.5), DVec3::new(0.5, 3.0, 0.5));
    let r = f
        .polyanya(&m, s, t, &SearchOptions::default(), false)
        .unwrap();
    // Walk 2 m to the ladder's node centre, climb (4), walk 2 m back.
    assert!((r.cost - 8.0).abs() < 1e-12, "{}", r.cost);
    assert_eq!(r.links.len(), 1);
    assert_eq!(m.links[r.links[0]].kind, LinkKind::Ladder);
    // Forbid ladders: the floors are apart.
    let no_ladder = SearchOptions::default().allow(LinkKind::Ladder, false);
    assert!(matches!(
        f.polyanya(&m, s, t, &no_ladder, false),
        Err(PathError::NoConnection { .. })
    ));
}

#[test]
fn a_cheap_teleport_beats_walking_and_forbidden_stances_are_avoided() {
    // 6 x 1 strip, a teleport of cost 0.5 from cell 0's centre to cell 5's.
    let mut m = grid_mesh(6, 1, |_, _| false);
    m.links.push(Link::new(0, 5, LinkKind::Teleport, 0.5, None));
    let mut f = PathFinder::new(&m);
    let r = f
        .polyanya(
            &m,
            DVec3::new(0.2, 0.0, 0.5),
            DVec3::new(5.5, 0.0, 0.5),
            &SearchOptions::default(),
            false,
        )
        .unwrap();
    assert!((r.cost - 0.8).abs() < 1e-12, "{}", r.cost);
    // A crouch strip across a 3 x 3 room: the length ignores its
    // multiplier (Polyanya measures length), an infinite one forbids it.
    let mut m = grid_mesh(3, 3, |_, _| false);
    for i in [1, 4, 7] {
        m.nodes[i].stance = Stance::Crouch;
    }
    let mut f = PathFinder::new(&m);
    let (s, t) = (DVec3::new(0.5, 0.0, 1.5), DVec3::new(2.5, 0.0, 1.5));
    let length = f
        .polyanya(&m, s, t, &SearchOptions::default(), false)
        .unwrap()
        .length;
    assert!((length - 2.0).abs() < 1e-12);
    let astar = f
        .find(&m, Method::AStar, s, t, &SearchOptions::default())
        .unwrap();
    assert!(astar.length >= length);
    let forbid = SearchOptions::default().with_stance_cost(Stance::Crouch, f64::INFINITY);
    assert!(matches!(
        f.polyanya(&m, s, t, &forbid, false),
        Err(PathError::NoConnection { .. })
    ));
}

#[test]
fn point_nodes_cannot_be_searched_by_polyanya() {
    let mut m = NavMesh::new("t", "t");
    m.add_node(DVec3::ZERO, None, Stance::Stand, 0);
    let mut f = PathFinder::new(&m);
    let e = f
        .polyanya(
            &m,
            DVec3::ZERO,
            DVec3::ZERO,
            &SearchOptions::default(),
            false,
        )
        .unwrap_err();
    assert_eq!(e, PathError::NotSearchable { node: 0 });
    let e = f
        .polyanya(
            &NavMesh::new("t", "t"),
            DVec3::ZERO,
            DVec3::ZERO,
            &SearchOptions::default(),
            false,
        )
        .unwrap_err();
    assert_eq!(e, PathError::EmptyMesh);
}

/// A start on a shared edge sees the polygon on either side; the estimate
/// from such a root must stay a lower bound (it once bent round the wrong
/// corner, 3.118 m instead of 2.914 m).
#[test]
fn a_start_on_a_shared_edge_finds_the_shortest_way() {
    let blocked = [
        false, false, false, false, false, false, true, false, false, true, false, false, false,
        true, true,
    ];
    let grid = Grid {
        w: 5,
        h: 3,
        blocked: blocked.to_vec(),
    };
    let mesh = mesh_of(&grid);
    let mut f = PathFinder::new(&mesh);
    let (s, t) = (DVec3::new(0.5, 0.0, 2.0), DVec3::new(3.0, 0.0, 1.0));
    let r = f
        .polyanya(&mesh, s, t, &SearchOptions::default(), false)
        .unwrap();
    assert!(
        (r.length - (1.5 + 2f64.sqrt())).abs() < 1e-12,
        "{}",
        r.length
    );
    assert_eq!(r.waypoints[1].position, DVec3::new(2.0, 0.0, 2.0));
}

#[test]
fn a_walking_link_without_a_shared_edge_costs_its_walk_once() {
    // Two cells a metre apart (the middle one blocked), joined by a walking
    // link whose cost is the distance between their centres, as pipelines
    // price walking links, and whose segment is the gap's middle point.
    let mut m = grid_mesh(3, 1, |i, _| i == 1);
    assert_eq!(m.nodes.len(), 2, "the blocked cell has no node");
    let (a, b) = (m.nodes[0].position, m.nodes[1].position);
    let mid = (a + b) * 0.5;
    m.add_two_way(0, 1, LinkKind::Walk, a.distance(b), Some([mid, mid]));
    let mut f = PathFinder::new(&m);
    let (cost, length) = f
        .polyanya(&m, a, b, &SearchOptions::default(), false)
        .map(|r| (r.cost, r.length))
        .unwrap();
    // Half a metre to the gap, the metre across it, half a metre on: the
    // walk is paid once, not again as the link's cost.
    assert!((cost - a.distance(b)).abs() < 1e-9, "{cost}");
    let astar = f
        .find(&m, Method::AStar, a, b, &SearchOptions::default())
        .unwrap();
    assert!(length <= astar.length + 1e-9, "{length} > {}", astar.length);
}

#[test]
fn a_jump_costs_what_it_asks_above_its_walk_in_both_methods() {
    // Two floors across a one-metre gap, a jump over it, and a walk round
    // the gap's end through a hall beside both. The jump's cost is its
    // walk from centre to centre through the gap's middle plus half a
    // metre (as pipelines price jumps): both methods should pay that half
    // metre on top of the walk, so both jump, and Polyanya is not longer.
    let mut m = NavMesh::new("gap", "test");
    let rect = |x0: f64, z0: f64, x1: f64, z1: f64| {
        vec![
            DVec3::new(x0, 0.0, z1),
            DVec3::new(x1, 0.0, z1),
            DVec3::new(x1, 0.0, z0),
            DVec3::new(x0, 0.0, z0),
        ]
    };
    let (a, b) = (DVec3::new(2.0, 0.0, 2.0), DVec3::new(2.0, 0.0, 7.0));
    m.add_node(a, Some(rect(0.0, 0.0, 4.0, 4.0)), Stance::Stand, 0);
    m.add_node(b, Some(rect(0.0, 5.0, 4.0, 9.0)), Stance::Stand, 0);
    m.add_node(
        DVec3::new(7.0, 0.0, 4.5),
        Some(rect(4.0, 0.0, 10.0, 9.0)),
        Stance::Stand,
        0,
    );
    let side = |z0: f64, z1: f64| Some([DVec3::new(4.0, 0.0, z0), DVec3::new(4.0, 0.0, z1)]);
    m.add_two_way(0, 2, LinkKind::Walk, 5.0, side(0.0, 4.0));
    m.add_two_way(1, 2, LinkKind::Walk, 5.0, side(5.0, 9.0));
    let (takeoff, landing) = (DVec3::new(2.0, 0.0, 4.0), DVec3::new(2.0, 0.0, 5.0));
    let walk = a.distance(b);
    m.links.push(Link::new(
        0,
        1,
        LinkKind::Jump,
        walk + 0.5,
        Some([takeoff, landing]),
    ));
    let mut f = PathFinder::new(&m);
    let p = f
        .polyanya(&m, a, b, &SearchOptions::default(), false)
        .map(|r| (r.cost, r.length, r.links.to_vec()))
        .unwrap();
    // Two metres to the takeoff, the metre across, two metres on, and the
    // half metre the jump asks: cheaper than the walk round (about 6.66).
    assert_eq!(p.2, vec![4], "Polyanya walked round");
    assert!((p.0 - (walk + 0.5)).abs() < 1e-9, "cost {}", p.0);
    let astar = f
        .find(&m, Method::AStar, a, b, &SearchOptions::default())
        .unwrap();
    assert!(p.1 <= astar.length + 1e-9, "{} > {}", p.1, astar.length);
    assert!((astar.length - walk).abs() < 1e-9, "A* walked round");
}

/// A pool and, over its far half, a floor it is swum up to (a swim link
/// both ways), with a second floor beside that one, over the pool's near
/// half: `lq_e0m5`'s cspace pattern. The floor's edges lie on the pool's
/// own edges' lines and run the same way (both polygons are on the same
/// side of them): they must not be taken for a shared edge.
fn pool_under_floors() -> NavMesh {
    let quad = |x0: f64, x1: f64, y: f64| {
        Some(vec![
            DVec3::new(x0, y, 1.5),
            DVec3::new(x1, y, 1.5),
            DVec3::new(x1, y, -1.5),
            DVec3::new(x0, y, -1.5),
        ])
    };
    let mut m = NavMesh::new("pool under floors", "test");
    m.add_node(
        DVec3::new(4.0, -6.0, 0.0),
        quad(0.0, 8.0, -6.0),
        Stance::Swim,
        0,
    );
    m.add_node(
        DVec3::new(6.0, 0.0, 0.0),
        quad(4.0, 8.0, 0.0),
        Stance::Stand,
        0,
    );
    m.add_node(
        DVec3::new(2.0, 0.0, 0.0),
        quad(0.0, 4.0, 0.0),
        Stance::Stand,
        0,
    );
    let swim = [DVec3::new(5.0, -6.0, 0.0), DVec3::new(6.0, 0.0, 0.0)];
    m.add_two_way(0, 1, LinkKind::Swim, 6.5, Some(swim));
    let edge = [DVec3::new(4.0, 0.0, -1.5), DVec3::new(4.0, 0.0, 1.5)];
    m.add_two_way(1, 2, LinkKind::Walk, 4.0, Some(edge));
    m
}

#[test]
fn a_swim_up_to_the_floor_over_the_pool_is_found_by_both_methods() {
    let m = pool_under_floors();
    let mut f = PathFinder::new(&m);
    let opts = SearchOptions::default();
    let (s, t) = (DVec3::new(1.0, -6.0, 0.0), DVec3::new(1.0, 0.0, 0.0));
    assert!(f.find(&m, Method::AStar, s, t, &opts).is_ok());
    let poly = f.polyanya(&m, s, t, &opts, false).unwrap();
    assert_eq!(poly.links.len(), 1, "{:?}", poly.waypoints);
    assert_eq!(m.links[poly.links[0]].kind, LinkKind::Swim);
    // Swim to the link's start (4 m in plan), along it up to its end at
    // the floor's centre (1 m), walk back 5 m; the swim asks 6.5 above its
    // 2 m walk from node to node seen from above.
    assert!(
        (plan_length(poly.waypoints) - 10.0).abs() < 1e-9,
        "{:?}",
        poly.waypoints
    );
    assert!((poly.cost - 14.5).abs() < 1e-9, "{}", poly.cost);
    // And back down: the floor to the pool.
    let back = f.polyanya(&m, t, s, &opts, false).unwrap();
    assert!((back.cost - 14.5).abs() < 1e-9, "{}", back.cost);
}
