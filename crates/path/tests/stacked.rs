//! Polyanya against A* with the funnel on random stacked meshes: floors of
//! grid cells over each other (shifted by whole cells, so their edges lie
//! on one line running the same way), joined only by jump, drop (a jump one
//! way), swim and ladder links, with or without a segment.
//!
//! * Both methods find a path between the same pairs: the links are the
//!   only way between floors, and both follow them.
//! * Polyanya's cost is never above A*'s path priced by Polyanya's rule
//!   (plan length plus what each link between floors asks above its
//!   walk): both methods cross every link by one rule (the crate's
//!   `crossing` module: a gate anywhere along it, a segment from one
//!   floor to another at its ends, a link without a segment at the two
//!   node positions, a walking link without one across the polygons'
//!   shared stretch), so A*'s path is one Polyanya could take.

use glam::{DVec2, DVec3};
use navscope_core::{Link, LinkKind, NavMesh, Stance};
use navscope_path::polyanya::{PolyMesh, cost_of};
use navscope_path::sample::grid_mesh;
use navscope_path::{Locator, Method, PathError, PathFinder, SearchOptions, find_path};
use proptest::prelude::*;

/// Height between floors.
const STOREY: f64 = 2.5;

fn plan(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}

/// One floor: a grid of cells with some blocked, shifted by `dx` cells.
#[derive(Clone, Debug)]
struct Floor {
    w: usize,
    h: usize,
    dx: usize,
    blocked: Vec<bool>,
    swim: bool,
}

/// A link between two floors: cells picked by index among the open ones.
#[derive(Clone, Debug)]
struct Join {
    from: (usize, usize),
    to: (usize, usize),
    kind: u8,
    /// 0: no segment; 1: the two node positions; 2: two inner points;
    /// 3: a gate, the plan edge between the `from` cell and the cell of
    /// the `to` floor beside it (picked among the four sides by `to`'s
    /// index), at the `from` floor's height; no link without such a cell;
    /// 4: a lip, the same edge of the `from` cell to the cell of the `to`
    /// floor one cell further on, a metre's gap between them.
    segment: u8,
    both_ways: bool,
    /// Cost above the plan distance between the node positions.
    extra: f64,
    inner: (f64, f64, f64, f64),
}

#[derive(Clone, Debug)]
struct Stack {
    floors: Vec<Floor>,
    joins: Vec<Join>,
}

/// The built mesh and, per floor, its node ids.
struct Built {
    mesh: NavMesh,
    nodes: Vec<Vec<u32>>,
    /// Per link (indices into `mesh.links`): added between floors.
    between: Vec<bool>,
}

impl Stack {
    fn build(&self) -> Built {
        let mut mesh = NavMesh::new("stacked", "test");
        let mut nodes = Vec::new();
        for (k, f) in self.floors.iter().enumerate() {
            let g = grid_mesh(f.w, f.h, |i, j| f.blocked[j * f.w + i]);
            let shift = DVec3::new(f.dx as f64, k as f64 * STOREY, 0.0);
            let base = mesh.nodes.len() as u32;
            let stance = if f.swim { Stance::Swim } else { Stance::Stand };
            let ids: Vec<u32> = g
                .nodes
                .iter()
                .map(|n| {
                    let poly = n.polygon.as_ref().unwrap().iter().map(|p| *p + shift);
                    mesh.add_node(n.position + shift, Some(poly.collect()), stance, k as u32)
                })
                .collect();
            nodes.push(ids);
            for l in &g.links {
                let seg = l.segment().map(|s| s.map(|p| p + shift));
                mesh.links
                    .push(Link::new(l.from + base, l.to + base, l.kind, l.cost, seg));
            }
        }
        let mut between = vec![false; mesh.links.len()];
        for j in &self.joins {
            let (fa, fb) = (j.from.0 % nodes.len(), j.to.0 % nodes.len());
            if fa == fb || nodes[fa].is_empty() || nodes[fb].is_empty() {
                continue;
            }
            let a = nodes[fa][j.from.1 % nodes[fa].len()];
            let pa = mesh.nodes[a as usize].position;
            let side = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)][j.to.1 % 4];
            let side = DVec2::new(side.0, side.1);
            let b = if j.segment >= 3 {
                // The cell of floor `fb` beside `a` in plan on one side, or
                // the one after it.
                let want = plan(pa) + side * f64::from(j.segment - 2);
                let found = nodes[fb]
                    .iter()
                    .copied()
                    .find(|&n| plan(mesh.nodes[n as usize].position).distance(want) < 1e-9);
                let Some(b) = found else {
                    continue;
                };
                b
            } else {
                nodes[fb][j.to.1 % nodes[fb].len()]
            };
            let (pa, pb) = (
                mesh.nodes[a as usize].position,
                mesh.nodes[b as usize].position,
            );
            // Kind 1 is a drop: a jump one way only.
            let drop = j.kind % 4 == 1;
            let kind = [
                LinkKind::Jump,
                LinkKind::Jump,
                LinkKind::Swim,
                LinkKind::Ladder,
            ][j.kind as usize % 4];
            let inner = |p: DVec3, u: f64, v: f64| p + DVec3::new(u, 0.0, v);
            let segment = match j.segment {
                0 => None,
                1 => Some([pa, pb]),
                3 | 4 => {
                    // The `from` cell's edge on that side, at its height.
                    let mid = pa + DVec3::new(side.x, 0.0, side.y) * 0.5;
                    let across = DVec3::new(-side.y, 0.0, side.x) * 0.5;
                    Some([mid - across, mid + across])
                }
                _ => Some([
                    inner(pa, j.inner.0, j.inner.1),
                    inner(pb, j.inner.2, j.inner.3),
                ]),
            };
            let cost = plan(pa).distance(plan(pb)) + j.extra;
            mesh.links.push(Link::new(a, b, kind, cost, segment));
            between.push(true);
            if j.both_ways && !drop {
                let back = segment.map(|[s, t]| [t, s]);
                mesh.links.push(Link::new(b, a, kind, cost, back));
                between.push(true);
            }
        }
        Built {
            mesh,
            nodes,
            between,
        }
    }
}

fn floor() -> impl Strategy<Value = Floor> {
    (1usize..5, 1usize..5, 0usize..3, prop::bool::weighted(0.25)).prop_flat_map(
        |(w, h, dx, swim)| {
            prop::collection::vec(prop::bool::weighted(0.25), w * h).prop_map(move |mut blocked| {
                unpinch(w, h, &mut blocked);
                Floor {
                    w,
                    h,
                    dx,
                    blocked,
                    swim,
                }
            })
        },
    )
}

/// Opens the blocked cells of every 2 x 2 block whose open cells touch
/// only at their corner: there the free space touches itself at a point,
/// which Polyanya passes and A* (links only) cannot (crate docs), so the
/// two would rightly disagree.
fn unpinch(w: usize, h: usize, blocked: &mut [bool]) {
    // Opening cells may make a pinch in a block already looked at: repeat
    // until none is left (each pass opens at least one cell or stops).
    let mut changed = true;
    while changed {
        changed = false;
        for j in 0..h.saturating_sub(1) {
            for i in 0..w.saturating_sub(1) {
                let c = [
                    j * w + i,
                    j * w + i + 1,
                    (j + 1) * w + i,
                    (j + 1) * w + i + 1,
                ];
                let b = c.map(|k| blocked[k]);
                if b == [false, true, true, false] || b == [true, false, false, true] {
                    for k in c {
                        blocked[k] = false;
                    }
                    changed = true;
                }
            }
        }
    }
}

fn join() -> impl Strategy<Value = Join> {
    let inner = -0.45f64..0.45;
    (
        (0usize..4, any::<usize>()),
        (0usize..4, any::<usize>()),
        0u8..4,
        0u8..5,
        any::<bool>(),
        0.0f64..4.0,
        (inner.clone(), inner.clone(), inner.clone(), inner),
    )
        .prop_map(|(from, to, kind, segment, both_ways, extra, inner)| Join {
            from,
            to,
            kind,
            segment,
            both_ways,
            extra,
            inner,
        })
}

fn stack() -> impl Strategy<Value = Stack> {
    (
        prop::collection::vec(floor(), 2..5),
        prop::collection::vec(join(), 0..7),
    )
        .prop_map(|(floors, joins)| Stack { floors, joins })
}

/// A point in a floor's open cell: its centre moved by `(u, v)` in
/// `[-0.5, 0.5]`, so on its edge or corner at the extremes.
fn point_on(b: &Built, floor: usize, pick: usize, u: f64, v: f64) -> Option<DVec3> {
    let ids = &b.nodes[floor % b.nodes.len()];
    let id = *ids.get(pick % ids.len().max(1))?;
    Some(b.mesh.nodes[id as usize].position + DVec3::new(u, 0.0, v))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn polyanya_finds_a_path_where_astar_does_and_is_not_dearer(
        stack in stack(),
        ends in ((0usize..4, any::<usize>()), (0usize..4, any::<usize>())),
        at in (-0.5f64..=0.5, -0.5f64..=0.5, -0.5f64..=0.5, -0.5f64..=0.5),
    ) {
        let built = stack.build();
        let s = point_on(&built, ends.0.0, ends.0.1, at.0, at.1);
        let t = point_on(&built, ends.1.0, ends.1.1, at.2, at.3);
        let (Some(s), Some(t)) = (s, t) else {
            return Err(TestCaseError::reject("a floor without open cells"));
        };
        let mesh = &built.mesh;
        prop_assert!(mesh.validate().is_ok(), "{:?}", mesh.validate());
        let opts = SearchOptions::default();
        let locator = Locator::new(mesh);
        let astar = find_path(mesh, &locator, s, t, &opts);
        let mut finder = PathFinder::new(mesh);
        let searched = PolyMesh::new(mesh);
        let poly = finder.polyanya(mesh, s, t, &opts, false);
        match (&poly, &astar) {
            (Ok(p), Ok(a)) => {
                prop_assert_eq!(p.waypoints[0].position, s);
                prop_assert_eq!(p.waypoints[p.waypoints.len() - 1].position, t);
                let plan_len = |w: &[navscope_path::Waypoint]| -> f64 {
                    w.windows(2).map(|q| plan(q[0].position).distance(plan(q[1].position))).sum()
                };
                prop_assert!(plan_len(p.waypoints) >= plan(s).distance(plan(t)) - 1e-9);
                let links = &a.search.links;
                // Without links between floors A* walks on one floor:
                // Polyanya's path is at most as long in plan (it may swim
                // across an edge two floors share), and where it stays on
                // that floor, in 3D too.
                if p.links.is_empty() && links.iter().all(|&l| !built.between[l]) {
                    let (pl, al) = (plan_len(p.waypoints), plan_len(&a.waypoints));
                    prop_assert!(pl <= al + 1e-9, "plan {} > {}", pl, al);
                    if p.waypoints.iter().all(|w| w.position.y == s.y) {
                        prop_assert!(p.length <= a.length + 1e-9, "{} > {}", p.length, a.length);
                    }
                }
                let priced = cost_of(mesh, &searched, &a.waypoints, links);
                prop_assert!(
                    p.cost <= priced + 1e-9 * (1.0 + priced),
                    "polyanya cost {} (links {:?}), A*'s path priced {} (links {:?}, {:?})",
                    p.cost,
                    p.links,
                    priced,
                    links,
                    a.waypoints
                );
                let again = finder.find(mesh, Method::AStar, s, t, &opts).unwrap();
                prop_assert_eq!(again.length, a.length);
            }
            (Err(pe), Err(ae)) => {
                prop_assert!(matches!(pe, PathError::NoConnection { .. }), "{}", pe);
                prop_assert!(matches!(ae, PathError::NoConnection { .. }), "{}", ae);
            }
            (p, a) => {
                let p = p.as_ref().map(|p| p.waypoints);
                let a = a.as_ref().map(|a| &a.waypoints);
                prop_assert!(false, "polyanya {:?} but A* {:?}", p, a);
            }
        }
    }
}
