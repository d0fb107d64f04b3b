//! Gates: a link whose crossing segment lies, in plan, on an edge of its
//! source polygon with the target beyond it (a door, or the lip up to a
//! ledge on another floor). Polyanya crosses it anywhere along the
//! segment, as the funnel crosses a portal; other segments both methods
//! take at fixed points (module `crossing` of the crate).

use glam::{DVec2, DVec3};
use navscope_core::{Link, LinkKind, NavMesh, Stance};
use navscope_path::{Method, PathFinder, SearchOptions, Waypoint};

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

fn plan_length(w: &[Waypoint]) -> f64 {
    w.windows(2)
        .map(|p| plan(p[0].position).distance(plan(p[1].position)))
        .sum()
}

/// A rectangle at height `y`, counter-clockwise seen from above in plan.
fn rect(x0: f64, z0: f64, x1: f64, z1: f64, y: f64) -> Option<Vec<DVec3>> {
    Some(vec![
        DVec3::new(x0, y, z1),
        DVec3::new(x1, y, z1),
        DVec3::new(x1, y, z0),
        DVec3::new(x0, y, z0),
    ])
}

/// A floor `x` in 0..1, `z` in 0..3 and a ledge half a metre up, `x` in
/// 1..4, `z` in 0..`ledge_depth`, joined only by a jump up (and a drop
/// back) whose segment is the lip, `x` = 1, `z` in 0..3: the floor's
/// whole edge and part of (or all of) the ledge's.
fn ledge(ledge_depth: f64) -> NavMesh {
    let mut m = NavMesh::new("ledge", "test");
    m.add_node(
        DVec3::new(0.5, 0.0, 1.5),
        rect(0.0, 0.0, 1.0, 3.0, 0.0),
        Stance::Stand,
        0,
    );
    m.add_node(
        DVec3::new(2.5, 0.5, ledge_depth * 0.5),
        rect(1.0, 0.0, 4.0, ledge_depth, 0.5),
        Stance::Stand,
        1,
    );
    let lip = [DVec3::new(1.0, 0.5, 0.0), DVec3::new(1.0, 0.5, 3.0)];
    let (a, b) = (m.nodes[0].position, m.nodes[1].position);
    let cost = plan(a).distance(plan(b)) + 0.25;
    m.links
        .push(Link::new(0, 1, LinkKind::Jump, cost, Some(lip)));
    m.links.push(Link::new(
        1,
        0,
        LinkKind::Jump,
        cost,
        Some([lip[1], lip[0]]),
    ));
    m
}

#[test]
fn a_lip_up_to_a_ledge_is_crossed_where_the_straight_line_does() {
    let m = ledge(3.0);
    let (s, t) = (DVec3::new(0.5, 0.0, 0.2), DVec3::new(3.5, 0.5, 2.8));
    let opts = SearchOptions::default();
    let mut f = PathFinder::new(&m);
    let p = f.polyanya(&m, s, t, &opts, false).unwrap();
    let (cost, length, links) = (p.cost, p.length, p.links.to_vec());
    let w: Vec<Waypoint> = p.waypoints.to_vec();
    let straight = plan(s).distance(plan(t));
    // The old rule went through the lip's middle, (1, 1.5): 4.21 m.
    assert!(
        (plan_length(&w) - straight).abs() < 1e-9,
        "plan length {} (straight {straight}): {w:?}",
        plan_length(&w)
    );
    assert_eq!(links, vec![0]);
    // The jump's price above its walk seen from above: its cost less the
    // walk from node to node through the lip's middle.
    let (a, b) = (plan(m.nodes[0].position), plan(m.nodes[1].position));
    let mid = DVec2::new(1.0, 1.5);
    let price = (m.links[0].cost - a.distance(mid) - mid.distance(b)).max(0.0);
    assert!((cost - (straight + price)).abs() < 1e-9, "cost {cost}");
    // The crossing is two waypoints on the lip, where the straight line
    // meets it: on the floor, then straight above it on the ledge (module
    // `crossing` of the crate: a jump rises at the lip). The 3D length
    // counts the rise; A* with the funnel crosses the same way.
    assert_eq!(w.len(), 4, "{w:?}");
    let (x, y) = (w[1].position, w[2].position);
    let u = (1.0 - s.x) / (t.x - s.x);
    assert!((x.x - 1.0).abs() < 1e-12 && (x.z - (s.z + u * (t.z - s.z))).abs() < 1e-9);
    assert_eq!((x.y, y.y, (y.x, y.z)), (0.0, 0.5, (x.x, x.z)));
    assert_eq!((w[1].node, w[2].node), (0, 1));
    assert!((length - (straight + 0.5)).abs() < 1e-9, "length {length}");
    let astar = f.find(&m, Method::AStar, s, t, &opts).unwrap();
    assert!(length <= astar.length + 1e-9, "{length} > {}", astar.length);
    let rise = astar.waypoints.windows(2).any(|p| {
        let (a, b) = (p[0].position, p[1].position);
        plan(a) == plan(b) && (a.y, b.y) == (0.0, 0.5)
    });
    assert!(
        rise,
        "A*'s path does not rise at the lip: {:?}",
        astar.waypoints
    );
    // And back down the same way.
    let back = f.polyanya(&m, t, s, &opts, false).unwrap();
    assert!((plan_length(back.waypoints) - straight).abs() < 1e-9);
}

#[test]
fn what_hides_behind_a_gates_end_is_reached_round_it() {
    // The ledge runs on past the lip (z up to 6): a goal at z = 5.5 is
    // reached by bending at the lip's end, (1, 3).
    let m = ledge(6.0);
    let (s, t) = (DVec3::new(0.5, 0.0, 0.5), DVec3::new(1.5, 0.5, 5.5));
    let opts = SearchOptions::default();
    let mut f = PathFinder::new(&m);
    let p = f.polyanya(&m, s, t, &opts, false).unwrap();
    let end = DVec2::new(1.0, 3.0);
    let expected = plan(s).distance(end) + end.distance(plan(t));
    let got = plan_length(p.waypoints);
    assert!(
        (got - expected).abs() < 1e-9,
        "{got} != {expected}: {:?}",
        p.waypoints
    );
    let length = p.length;
    let astar = f.find(&m, Method::AStar, s, t, &opts).unwrap();
    assert!(length <= astar.length + 1e-9, "{length} > {}", astar.length);
}

#[test]
fn a_start_on_the_gate_crosses_where_it_stands() {
    // Starting on the lip itself (the floor's edge): the gate is seen
    // edge-on and crossed at the start's own place.
    let m = ledge(3.0);
    let (s, t) = (DVec3::new(1.0, 0.0, 2.0), DVec3::new(3.0, 0.5, 0.5));
    let mut f = PathFinder::new(&m);
    let p = f
        .polyanya(&m, s, t, &SearchOptions::default(), false)
        .unwrap();
    let straight = plan(s).distance(plan(t));
    assert!(
        (plan_length(p.waypoints) - straight).abs() < 1e-9,
        "{:?}",
        p.waypoints
    );
}

#[test]
fn a_segment_from_one_polygon_into_the_other_is_taken_at_its_ends() {
    // The same floors, the jump's segment from a takeoff inside the floor
    // to a landing inside the ledge: it lies on no edge, so both methods
    // take it at its ends (module `crossing`, rule 3), whichever end the
    // segment lists first; crossed anywhere along it, as a portal, the
    // path would leave the floor beyond the takeoff.
    for flip in [false, true] {
        let mut m = ledge(3.0);
        let mut way = [DVec3::new(0.5, 0.0, 0.5), DVec3::new(2.0, 0.5, 2.5)];
        if flip {
            way.reverse();
        }
        m.links[0] = Link::new(0, 1, LinkKind::Jump, m.links[0].cost, Some(way));
        let (s, t) = (DVec3::new(0.2, 0.0, 2.8), DVec3::new(3.5, 0.5, 0.2));
        let (takeoff, landing) = (DVec2::new(0.5, 0.5), DVec2::new(2.0, 2.5));
        let expected =
            plan(s).distance(takeoff) + takeoff.distance(landing) + landing.distance(plan(t));
        let mut f = PathFinder::new(&m);
        for method in [Method::Polyanya, Method::AStar] {
            let p = f.find(&m, method, s, t, &SearchOptions::default()).unwrap();
            assert!(
                (plan_length(&p.waypoints) - expected).abs() < 1e-9,
                "{method:?} {:?}",
                p.waypoints
            );
        }
    }
}
