//! Swim entry and exit links (§32.4.2, `navscope_voxel::swim`): a swimmer
//! gets from the deck into the deep pool and out again, no link spans more
//! than the documented gap, and links appear only where water meets ground
//! the agent can climb onto.

mod common;

use common::*;
use glam::{DVec2, DVec3};
use navscope_core::level::{Level, LevelData, MeshLevel};
use navscope_core::{LinkKind, NavMesh, Runner, Stance};
use navscope_path::{Locator, SearchOptions, find_path};
use navscope_voxel::Settings;
use navscope_voxel::graph::LinkClass;
use navscope_voxel::samples::MeshBuilder;
use navscope_voxel::stages::GraphArtifact;
use navscope_voxel::swim::max_gap;

fn level_of(m: MeshLevel) -> Level {
    Level {
        source: "swim test".into(),
        data: LevelData::Mesh(m),
    }
}

fn graph(r: &Runner) -> &GraphArtifact {
    let at = r.pipeline().stage_index("graph").unwrap();
    let a: &dyn std::any::Any = r.result(at).unwrap().outcome.as_ref().unwrap().as_ref();
    a.downcast_ref::<GraphArtifact>().unwrap()
}

/// The swim links of a run as (swim node, other node, link index), once each.
fn swim_links(r: &Runner) -> Vec<(u32, u32, usize)> {
    let g = &graph(r).graph;
    g.navmesh
        .links
        .iter()
        .zip(&g.link_class)
        .enumerate()
        .filter(|(_, (l, c))| {
            **c == LinkClass::Swim && g.navmesh.nodes[l.from as usize].stance == Stance::Swim
        })
        .map(|(i, (l, _))| (l.from, l.to, i))
        .collect()
}

/// The pool sample with its floor, water surface and rim changed: a 14 x
/// 10 m deck at height 0 around a 6 x 4 m pool, optionally walled.
fn pool(floor: f32, surface: f32, rim_wall: bool) -> MeshLevel {
    let mut b = MeshBuilder::new();
    let base = floor - 0.2;
    b.solid("pool_floor", [4., base, 3.], [10., floor, 7.]);
    b.solid("deck_south", [0., base, 0.], [14., 0., 3.]);
    b.solid("deck_north", [0., base, 7.], [14., 0., 10.]);
    b.solid("deck_west", [0., base, 3.], [4., 0., 7.]);
    b.solid("deck_east", [10., base, 3.], [14., 0., 7.]);
    if rim_wall {
        b.solid("rim_south", [3.8, 0., 2.8], [10.2, 2.5, 3.]);
        b.solid("rim_north", [3.8, 0., 7.], [10.2, 2.5, 7.2]);
        b.solid("rim_west", [3.8, 0., 3.], [4., 2.5, 7.]);
        b.solid("rim_east", [10., 0., 3.], [10.2, 2.5, 7.]);
    }
    b.water([4., floor, 3.], [10., surface, 7.]);
    b.level()
}

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Plan distance between two nodes' polygons that do not overlap.
fn gap(m: &NavMesh, a: u32, b: u32) -> f64 {
    let ta = m.nodes[a as usize].polygon.as_ref().unwrap();
    let tb = m.nodes[b as usize].polygon.as_ref().unwrap();
    let mut d = f64::INFINITY;
    for (s, t) in [(ta, tb), (tb, ta)] {
        for p in s {
            for i in 0..t.len() {
                d = d.min(point_segment(
                    plan(*p),
                    plan(t[i]),
                    plan(t[(i + 1) % t.len()]),
                ));
            }
        }
    }
    d
}

#[test]
fn a_swimmer_gets_from_the_deck_into_the_deep_pool_and_out() {
    let r = run(load(&sample_path("pool.obj")), params(&[]));
    let m = navmesh(&r);
    m.validate().unwrap();
    let loc = Locator::new(&m);
    let opts = SearchOptions::default();
    let south = DVec3::new(7.0, 0.0, 1.0);
    let middle = DVec3::new(7.0, -2.0, 5.0);
    let north = DVec3::new(7.0, 0.0, 9.0);
    for (from, to) in [(south, middle), (middle, north)] {
        let path = find_path(&m, &loc, from, to, &opts)
            .unwrap_or_else(|e| panic!("no path from {from} to {to}: {e}"));
        let nodes = path.search.nodes.as_ref().unwrap();
        let first = m.nodes[nodes[0] as usize].stance;
        let last = m.nodes[*nodes.last().unwrap() as usize].stance;
        assert!(
            (first == Stance::Swim) != (last == Stance::Swim),
            "one end on the deck, one in the water"
        );
        assert!(
            path.search
                .links
                .iter()
                .any(|&l| graph(&r).graph.link_class[l] == LinkClass::Swim),
            "the path crosses the gap on a swim link"
        );
        // The swimmer's waypoints in the pool are at the water surface (the
        // goal or start is the given point).
        let inner = &path.waypoints[1..path.waypoints.len() - 1];
        for w in inner {
            let over_pool = w.position.x > 5.0 && w.position.x < 9.0;
            if over_pool && w.position.z > 4.0 && w.position.z < 6.0 {
                assert!((w.position.y + 0.1).abs() < 0.05, "{:?}", w.position);
            }
        }
    }
    // Straight across: cheaper through the water than around the pool when
    // swimming costs what walking does.
    let across = find_path(
        &m,
        &loc,
        south,
        north,
        &opts.with_stance_cost(Stance::Swim, 1.0),
    )
    .unwrap();
    let nodes = across.search.nodes.unwrap();
    assert!(
        nodes
            .iter()
            .any(|&n| m.nodes[n as usize].stance == Stance::Swim),
        "deck to deck through the pool"
    );
    assert_eq!(m.nodes[nodes[0] as usize].stance, Stance::Stand);
    assert_eq!(
        m.nodes[*nodes.last().unwrap() as usize].stance,
        Stance::Stand
    );
}

#[test]
fn swim_links_span_no_more_than_the_documented_gap() {
    let p = params(&[]);
    let s = Settings::from_params(&p).unwrap();
    let r = run(level_of(navscope_voxel::samples::pool().level()), p);
    let m = &graph(&r).graph.navmesh;
    let links = swim_links(&r);
    assert!(links.len() >= 4, "{} links", links.len());
    let radius = |st: Stance| {
        s.passes
            .iter()
            .find(|p| p.stance == st)
            .unwrap()
            .agent
            .radius
    };
    for &(a, b, _) in &links {
        let other = m.nodes[b as usize].stance;
        assert_ne!(other, Stance::Swim);
        let g = gap(m, a, b);
        let bound = max_gap(
            radius(Stance::Swim),
            radius(other),
            s.cell_size,
            s.max_error,
        );
        assert!(g <= bound + 1e-9, "{a}-{b}: gap {g} over {bound}");
        // The agent areas stop about their radii from the rim.
        assert!(
            g >= radius(Stance::Swim) + radius(other) - 3.0 * s.cell_size - 2.0 * s.max_error,
            "{a}-{b} ({other:?}): gap {g}"
        );
    }
}

#[test]
fn swim_links_appear_only_where_water_meets_ground_one_can_climb_onto() {
    // Along the rim of the pool, on all four sides, nowhere else: each
    // crossing's midpoint is within a metre of the pool's edge.
    let r = run(level_of(pool(-2.0, -0.1, false)), params(&[]));
    let g = &graph(&r).graph;
    let links = swim_links(&r);
    let mut sides = [false; 4];
    for &(a, b, i) in &links {
        let [mid, _] = g.navmesh.links[i].segment().unwrap();
        let to_rim = [mid.x - 4.0, 10.0 - mid.x, mid.z - 3.0, 7.0 - mid.z].map(f64::abs);
        let (side, d) = (0..4)
            .map(|k| (k, to_rim[k]))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap();
        sides[side] = true;
        assert!(d <= 1.0, "link {a}-{b} crosses at {mid}");
        // The water surface is 0.1 m below the deck: one voxel or more.
        assert!(
            matches!(g.navmesh.links[i].kind, LinkKind::StepUp | LinkKind::Walk),
            "{:?}",
            g.navmesh.links[i].kind
        );
    }
    assert_eq!(sides, [true; 4], "in and out on every side");
    // The swimmer can climb 0.4 m out of the water onto the deck (the
    // standing step is 0.5 m): step-up links, step-down back.
    let r = run(level_of(pool(-2.5, -0.4, false)), params(&[]));
    let links = swim_links(&r);
    assert!(!links.is_empty());
    let nav = &graph(&r).graph.navmesh;
    for &(a, b, i) in &links {
        assert_eq!(nav.links[i].kind, LinkKind::StepUp, "{a}-{b}");
        let back = nav.links.iter().find(|l| l.from == b && l.to == a).unwrap();
        assert_eq!(back.kind, LinkKind::StepDown);
    }
    // A deck 1 m above the water is too high to climb onto: no links.
    let r = run(level_of(pool(-3.0, -1.0, false)), params(&[]));
    let swim_nodes = graph(&r)
        .graph
        .navmesh
        .nodes
        .iter()
        .filter(|n| n.stance == Stance::Swim)
        .count();
    assert!(swim_nodes > 0, "the pool is still swimmable");
    assert!(swim_links(&r).is_empty());
    // A wall around the pool: no way out.
    let r = run(level_of(pool(-2.0, -0.1, true)), params(&[]));
    assert!(swim_links(&r).is_empty());
    // Levels without water have none.
    for (name, _, b) in navscope_voxel::samples::all() {
        if name == "pool.obj" {
            continue;
        }
        let r = run(level_of(b.level()), params(&[]));
        assert!(swim_links(&r).is_empty(), "{name}");
    }
}

#[test]
fn swim_links_cross_tile_seams_too() {
    // 32-cell tiles cut the pool and its deck into several tiles: the links
    // still reach the ground on every side and a swimmer gets across.
    let p = params(&[("tile_size", navscope_core::ParamValue::Int(32))]);
    let r = run(level_of(navscope_voxel::samples::pool().level()), p);
    assert!(tile_count_of(&r) > 4);
    let m = navmesh(&r);
    m.validate().unwrap();
    assert!(swim_links(&r).len() >= 4);
    let loc = Locator::new(&m);
    let opts = SearchOptions::default().with_stance_cost(Stance::Swim, 1.0);
    let path = find_path(
        &m,
        &loc,
        DVec3::new(7.0, 0.0, 1.0),
        DVec3::new(7.0, 0.0, 9.0),
        &opts,
    )
    .unwrap();
    let nodes = path.search.nodes.unwrap();
    assert!(
        nodes
            .iter()
            .any(|&n| m.nodes[n as usize].stance == Stance::Swim)
    );
}

fn tile_count_of(r: &Runner) -> u64 {
    r.result(0).unwrap().counts["tiles"]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 8, ..Default::default() })]

    /// Pools of random size, depth and water level: every swim link joins
    /// a swim node to a node of another stance at most the documented gap
    /// away, crossing within a metre of the pool's rim.
    #[test]
    fn swim_links_stay_within_the_gap_at_the_rim(
        (x0, z0) in (2.0f32..5.0, 2.0f32..4.0),
        (w, d) in (4.0f32..7.0, 3.5f32..5.0),
        depth in 2.0f32..3.0,
        below in 0.05f32..0.45,
    ) {
        let mut b = MeshBuilder::new();
        let (x1, z1) = (x0 + w, z0 + d);
        let (floor, base) = (-depth, -depth - 0.2);
        b.solid("pool_floor", [x0, base, z0], [x1, floor, z1]);
        b.solid("deck_south", [0., base, 0.], [x1 + 3., 0., z0]);
        b.solid("deck_north", [0., base, z1], [x1 + 3., 0., z1 + 3.]);
        b.solid("deck_west", [0., base, z0], [x0, 0., z1]);
        b.solid("deck_east", [x1, base, z0], [x1 + 3., 0., z1]);
        b.water([x0, floor, z0], [x1, -below, z1]);
        let p = params(&[]);
        let s = Settings::from_params(&p).unwrap();
        let r = run(level_of(b.level()), p);
        let g = &graph(&r).graph;
        let m = &g.navmesh;
        let links = swim_links(&r);
        proptest::prop_assert!(!links.is_empty());
        let radius = |st: Stance| s.passes.iter().find(|p| p.stance == st).unwrap().agent.radius;
        for &(a, b, i) in &links {
            let other = m.nodes[b as usize].stance;
            proptest::prop_assert_ne!(other, Stance::Swim);
            let bound = max_gap(radius(Stance::Swim), radius(other), s.cell_size, s.max_error);
            let gp = gap(m, a, b);
            proptest::prop_assert!(gp <= bound + 1e-9, "{a}-{b}: {gp} > {bound}");
            let [mid, _] = m.links[i].segment().unwrap();
            let to_rim = [mid.x - x0 as f64, x1 as f64 - mid.x, mid.z - z0 as f64, z1 as f64 - mid.z]
                .into_iter()
                .map(f64::abs)
                .fold(f64::INFINITY, f64::min);
            proptest::prop_assert!(to_rim <= 1.0, "{a}-{b} crosses at {mid}");
        }
    }
}

/// A 12 × 8 m pool 3 m deep (water up to 0) under a rock shelf from -0.6
/// to -0.3 m over its west 5 m, a deck around it: the swimmer swims under
/// the shelf (2.4 m of room over the pool floor), and no swim node nor
/// any point of a portal between swim nodes has the shelf within the
/// swimmer's height above it.
#[test]
fn swim_nodes_under_a_shelf_float_under_it_not_in_the_rock() {
    let mut b = MeshBuilder::new();
    b.solid("pool_floor", [2., -3.2, 2.], [14., -3., 10.]);
    b.solid("shelf", [2., -0.6, 2.], [7., -0.3, 10.]);
    b.solid("deck_south", [0., -3.2, 0.], [16., 0., 2.]);
    b.solid("deck_north", [0., -3.2, 10.], [16., 0., 12.]);
    b.solid("deck_west", [0., -3.2, 2.], [2., 0., 10.]);
    b.solid("deck_east", [14., -3.2, 2.], [16., 0., 10.]);
    b.water([2., -3., 2.], [14., 0., 10.]);
    let r = run(level_of(b.level()), params(&[]));
    let m = navmesh(&r);
    let height = navscope_voxel::settings::paper_defaults(Stance::Swim).height;
    let under_shelf = |x: f64, z: f64| (2.0..7.0).contains(&x) && (2.0..10.0).contains(&z);
    // The swimmer's body from `y` up meets the shelf's rock (a voxel of
    // rounding allowed).
    let in_rock = |p: DVec3| under_shelf(p.x, p.z) && p.y + height > -0.6 + 0.05 && p.y < -0.3;
    let swim = |n: u32| m.nodes[n as usize].stance == Stance::Swim;
    let mut below = 0;
    for n in m.nodes.iter().filter(|n| n.stance == Stance::Swim) {
        assert!(
            !in_rock(n.position),
            "swim node {} at {} is in the shelf",
            n.id,
            n.position
        );
        if under_shelf(n.position.x, n.position.z) {
            below += 1;
            assert!(n.position.y + height <= -0.6 + 0.05, "{}", n.position);
        }
    }
    assert!(below > 0, "swim nodes under the shelf");
    for l in m.links.iter().filter(|l| swim(l.from) && swim(l.to)) {
        for p in l.segment.iter().flat_map(|s| s.iter()) {
            assert!(
                !in_rock(*p),
                "portal point {p} of {} -> {} is in the shelf",
                l.from,
                l.to
            );
        }
    }
}
