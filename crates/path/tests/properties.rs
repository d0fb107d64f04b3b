//! Property tests on random grids of squares with random blocked cells.

mod common;

use std::collections::{BinaryHeap, VecDeque};

use glam::DVec3;
use navscope_core::Stance;
use navscope_core::heap::MinCost;
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, NavMesh, PathError, SearchOptions, find_path};
use proptest::prelude::*;

/// A random grid: size, blocked cells, stances of the open cells.
#[derive(Clone, Debug)]
struct Grid {
    w: usize,
    h: usize,
    blocked: Vec<bool>,
    stances: Vec<u8>,
}

impl Grid {
    fn mesh(&self) -> NavMesh {
        let mut m = grid_mesh(self.w, self.h, |i, j| self.blocked[j * self.w + i]);
        for (k, n) in m.nodes.iter_mut().enumerate() {
            n.stance = [
                Stance::Stand,
                Stance::Stand,
                Stance::Crouch,
                Stance::Prone,
                Stance::Swim,
            ][self.stances[k % self.stances.len()] as usize];
        }
        m
    }

    fn open_cells(&self) -> Vec<(usize, usize)> {
        (0..self.h)
            .flat_map(|j| (0..self.w).map(move |i| (i, j)))
            .filter(|(i, j)| !self.blocked[j * self.w + i])
            .collect()
    }

    /// True when `p` lies in (or on the boundary of) an open cell.
    fn covers(&self, p: DVec3) -> bool {
        let eps = 1e-9;
        let (lo_i, hi_i) = ((p.x - eps).floor(), (p.x + eps).floor());
        let (lo_j, hi_j) = ((p.z - eps).floor(), (p.z + eps).floor());
        [(lo_i, lo_j), (lo_i, hi_j), (hi_i, lo_j), (hi_i, hi_j)]
            .iter()
            .any(|&(i, j)| {
                i >= 0.0
                    && j >= 0.0
                    && (i as usize) < self.w
                    && (j as usize) < self.h
                    && !self.blocked[j as usize * self.w + i as usize]
            })
    }

    fn connected(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        let mut seen = vec![false; self.w * self.h];
        let mut queue = VecDeque::from([a]);
        seen[a.1 * self.w + a.0] = true;
        while let Some((i, j)) = queue.pop_front() {
            if (i, j) == b {
                return true;
            }
            let mut next = vec![(i + 1, j), (i, j + 1)];
            if i > 0 {
                next.push((i - 1, j));
            }
            if j > 0 {
                next.push((i, j - 1));
            }
            for (x, y) in next {
                if x < self.w
                    && y < self.h
                    && !self.blocked[y * self.w + x]
                    && !seen[y * self.w + x]
                {
                    seen[y * self.w + x] = true;
                    queue.push_back((x, y));
                }
            }
        }
        false
    }
}

fn grid() -> impl Strategy<Value = Grid> {
    (2usize..9, 2usize..9).prop_flat_map(|(w, h)| {
        (
            Just(w),
            Just(h),
            prop::collection::vec(prop::bool::weighted(0.3), w * h),
            prop::collection::vec(0u8..5, 1..8),
        )
            .prop_map(|(w, h, blocked, stances)| Grid {
                w,
                h,
                blocked,
                stances,
            })
    })
}

/// Plain Dijkstra with the costs documented on `astar`.
fn dijkstra(
    m: &NavMesh,
    opts: &SearchOptions,
    s: u32,
    g: u32,
    sp: DVec3,
    gp: DVec3,
) -> Option<f64> {
    let pos = |v: u32| {
        if v == s {
            sp
        } else if v == g {
            gp
        } else {
            m.nodes[v as usize].position
        }
    };
    let k = |v: u32| opts.stance_multiplier(m.nodes[v as usize].stance);
    if s == g {
        return Some(sp.distance(gp) * k(s));
    }
    let mut dist = vec![f64::INFINITY; m.nodes.len()];
    let mut heap = BinaryHeap::from([MinCost(0.0, s)]);
    dist[s as usize] = 0.0;
    while let Some(MinCost(d, v)) = heap.pop() {
        if v == g {
            return Some(d);
        }
        if d > dist[v as usize] {
            continue;
        }
        for l in m.links.iter().filter(|l| l.from == v) {
            let [a, b] = l.segment().unwrap();
            let mid = (a + b) * 0.5;
            let (da, db) = (pos(v).distance(mid), mid.distance(pos(l.to)));
            let nd = d + da * k(v) + db * k(l.to) + (l.cost - da - db).max(0.0);
            if nd < dist[l.to as usize] {
                dist[l.to as usize] = nd;
                heap.push(MinCost(nd, l.to));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn paths_stay_on_the_mesh_are_short_and_optimal(
        g in grid(),
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        offsets in [0.02f64..0.98, 0.02..0.98, 0.02..0.98, 0.02..0.98],
        radius in prop_oneof![Just(0.0), 0.0f64..0.45],
    ) {
        let open = g.open_cells();
        prop_assume!(!open.is_empty());
        let (ca, cb) = (open[a.index(open.len())], open[b.index(open.len())]);
        let from = DVec3::new(ca.0 as f64 + offsets[0], 0.0, ca.1 as f64 + offsets[1]);
        let to = DVec3::new(cb.0 as f64 + offsets[2], 0.0, cb.1 as f64 + offsets[3]);
        let m = g.mesh();
        let opts = SearchOptions { agent_radius: radius, ..SearchOptions::default() };
        let result = find_path(&m, &Locator::new(&m), from, to, &opts);
        if !g.connected(ca, cb) {
            prop_assert!(matches!(result, Err(PathError::NoConnection { .. })), "{:?}", result);
            return Ok(());
        }
        let r = result.unwrap();
        prop_assert_eq!(r.waypoints.first().unwrap().position, from);
        prop_assert_eq!(r.waypoints.last().unwrap().position, to);
        // Never leaves the union of the polygons.
        for w in r.waypoints.windows(2) {
            let (p, q) = (w[0].position, w[1].position);
            let steps = (p.distance(q) * 50.0).ceil() as usize + 1;
            for s in 0..=steps {
                let x = p.lerp(q, s as f64 / steps as f64);
                prop_assert!(g.covers(x), "{x} off the mesh on leg {p} -> {q}");
            }
        }
        // Never longer than the centre-to-centre path.
        prop_assert!(r.length <= r.centre_length + 1e-9, "{} > {}", r.length, r.centre_length);
        // A* finds what Dijkstra finds.
        let (s, t) = (r.search.nodes.as_ref().unwrap()[0], *r.search.nodes.as_ref().unwrap().last().unwrap());
        let d = dijkstra(&m, &opts, s, t, from, to).unwrap();
        prop_assert!((r.search.cost - d).abs() <= 1e-9 * (1.0 + d), "A* {} vs Dijkstra {}", r.search.cost, d);
        // Stances: every leg is walked in a stance at least as restrictive as
        // each node's it ends in.
        for w in &r.waypoints[1..] {
            let node = m.nodes[w.node as usize].stance;
            prop_assert!(navscope_path::stance::restrictiveness(w.stance) >= navscope_path::stance::restrictiveness(node));
        }
        // Deterministic.
        let again = find_path(&m, &Locator::new(&m), from, to, &opts).unwrap();
        prop_assert_eq!(again, r);
    }

    #[test]
    fn trace_is_consistent(g in grid(), a in any::<prop::sample::Index>(), b in any::<prop::sample::Index>()) {
        let open = g.open_cells();
        prop_assume!(!open.is_empty());
        let (ca, cb) = (open[a.index(open.len())], open[b.index(open.len())]);
        let m = g.mesh();
        let c = |(i, j): (usize, usize)| DVec3::new(i as f64 + 0.5, 0.0, j as f64 + 0.5);
        let loc = Locator::new(&m);
        let (s, t) = (loc.locate(c(ca)).unwrap().node, loc.locate(c(cb)).unwrap().node);
        let search = navscope_path::astar(&m, s, t, c(ca), c(cb), &SearchOptions::default());
        let tr = &search.trace;
        // Every node expanded once; closed = expanded; open and closed disjoint.
        let mut expanded: Vec<u32> = tr.expansions.iter().map(|e| e.node).collect();
        expanded.sort();
        let n = expanded.len();
        expanded.dedup();
        prop_assert_eq!(expanded.len(), n);
        prop_assert_eq!(&expanded, &tr.closed);
        prop_assert!(tr.open.iter().all(|o| tr.closed.binary_search(o).is_err()));
        // Parents were expanded before their children; f never decreases.
        for (k, e) in tr.expansions.iter().enumerate() {
            if let Some(p) = e.parent {
                prop_assert!(tr.expansions[..k].iter().any(|x| x.node == p));
            }
            if k > 0 {
                prop_assert!(e.f >= tr.expansions[k - 1].f - 1e-9);
            }
        }
        if let Some(nodes) = &search.nodes {
            prop_assert_eq!(nodes.len(), search.links.len() + 1);
            for (k, li) in search.links.iter().enumerate() {
                prop_assert_eq!((m.links[*li].from, m.links[*li].to), (nodes[k], nodes[k + 1]));
            }
        }
    }
}
