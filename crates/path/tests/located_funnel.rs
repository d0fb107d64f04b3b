//! The funnel as `find_path` runs it, with what the `Locator` prepares
//! once per mesh (each link's oriented crossing segment and the detail
//! that holds it, per way across the link), gives exactly the waypoints
//! of the public `funnel`, which finds both afresh on every call. Random
//! grids whose cells carry sloped detail fans, some cells raised a step
//! above their neighbours (the lip held by one side only), some shared
//! sides left without a segment (the funnel then finds the shared edge
//! itself), and extra jump links with no segment or one between the two
//! positions.

use glam::DVec3;
use navscope_core::{Link, LinkKind, NavMesh};
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, SearchOptions, find_path, funnel};
use proptest::prelude::*;

/// Grid side, in cells.
const SIDE: usize = 5;

/// How far a raised cell stands above the others, metres.
const STEP: f64 = 0.3;

/// Each open cell's detail: four triangles fanning from its corners to
/// the centre raised by `lift` (the corners stay on the polygon).
fn with_detail(mut m: NavMesh, lifts: &[f64]) -> NavMesh {
    for (n, lift) in m.nodes.iter_mut().zip(lifts.iter().cycle()) {
        let Some(poly) = n.polygon.clone() else {
            continue;
        };
        let centre = n.position + DVec3::Y * *lift;
        let fan = (0..poly.len())
            .map(|i| [poly[i], poly[(i + 1) % poly.len()], centre])
            .collect();
        n.detail = Some(fan);
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prepared_crossings_give_the_fresh_funnel_s_waypoints(
        blocked in proptest::collection::vec(prop::bool::weighted(0.2), SIDE * SIDE),
        lifts in proptest::collection::vec(prop_oneof![Just(0.0), -0.4f64..0.4], 1..6),
        bare in proptest::collection::vec(any::<bool>(), 1..8),
        raised in proptest::collection::vec(prop::bool::weighted(0.3), 1..6),
        jumps in proptest::collection::vec((any::<usize>(), any::<usize>(), 0u8..2), 0..3),
        ends in (any::<usize>(), any::<usize>()),
        at in (0.05f64..0.95, 0.05f64..0.95, 0.05f64..0.95, 0.05f64..0.95),
        radius in prop_oneof![Just(0.0), Just(0.2)],
    ) {
        let mut m = grid_mesh(SIDE, SIDE, |i, j| blocked[j * SIDE + i]);
        if m.nodes.len() < 2 {
            return Err(TestCaseError::reject("too few open cells"));
        }
        for (l, b) in m.links.iter_mut().zip(bare.iter().cycle()) {
            if *b {
                l.segment = None;
            }
        }
        let n = m.nodes.len();
        for (a, b, seg) in jumps {
            let (a, b) = ((a % n) as u32, (b % n) as u32);
            if a == b {
                continue;
            }
            let (pa, pb) = (m.nodes[a as usize].position, m.nodes[b as usize].position);
            m.links.push(Link {
                from: a,
                to: b,
                kind: LinkKind::Jump,
                cost: pa.distance(pb) + 1.0,
                segment: (seg == 1).then(|| Box::new([pa, pb])),
            });
        }
        // Raised cells keep their sides' segments on the ground: a step
        // whose lip only the lower cell's detail holds.
        for (node, up) in m.nodes.iter_mut().zip(raised.iter().cycle()) {
            if *up {
                node.position.y += STEP;
                node.polygon.iter_mut().flatten().for_each(|p| p.y += STEP);
            }
        }
        let m = with_detail(m, &lifts);
        let cell = |k: usize| m.nodes[k % n].polygon.as_ref().unwrap()[3];
        let (s0, t0) = (cell(ends.0), cell(ends.1));
        let s = s0 + DVec3::new(at.0, 0.0, at.1);
        let t = t0 + DVec3::new(at.2, 0.0, at.3);
        let opts = SearchOptions { agent_radius: radius, ..SearchOptions::default() };
        let locator = Locator::new(&m);
        let Ok(r) = find_path(&m, &locator, s, t, &opts) else {
            return Ok(());
        };
        let nodes = r.search.nodes.as_deref().unwrap();
        let (start, goal) = (r.waypoints[0].position, r.waypoints[r.waypoints.len() - 1].position);
        let fresh = funnel(&m, nodes, &r.search.links, start, goal, radius);
        prop_assert_eq!(&fresh, &r.waypoints);
    }
}
