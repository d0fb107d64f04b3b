//! Helpers shared by the integration tests: running the pipeline, reading
//! artifacts, locating nodes and searching paths on the NavMesh.

use std::any::Any;
use std::collections::BinaryHeap;
use std::sync::Arc;

use glam::DVec3;
use navscope_core::level::{BrushLevel, Level, LevelData};
use navscope_core::{Artifact, LinkKind, NavMesh, ParamValue, Runner, Stance};

/// Runs every stage of the pipeline on `level` with parameter overrides.
pub fn run(name: &str, level: BrushLevel, overrides: &[(&str, ParamValue)]) -> Runner {
    let level = Level {
        source: name.into(),
        data: LevelData::Brushes(level),
    };
    let mut r = Runner::new(Arc::new(navscope_cspace::pipeline()), Arc::new(level));
    for (k, v) in overrides {
        r.set_param(k, v.clone()).unwrap();
    }
    r.run_all();
    if let Some((i, e)) = r.first_error() {
        panic!("{name}: stage {i} failed: {e}");
    }
    r
}

/// The artifact of stage `id`, downcast.
pub fn artifact<T: Artifact>(r: &Runner, id: &str) -> Arc<dyn Artifact> {
    let i = r.pipeline().stage_index(id).unwrap();
    let a = r.result(i).unwrap().outcome.as_ref().unwrap().clone();
    let any: &dyn Any = a.as_ref();
    assert!(
        any.downcast_ref::<T>().is_some(),
        "stage {id} has another artifact type"
    );
    a
}

/// Downcasts an artifact handle.
pub fn get<T: Artifact>(a: &Arc<dyn Artifact>) -> &T {
    let any: &dyn Any = a.as_ref();
    any.downcast_ref::<T>().unwrap()
}

fn inside_plan(poly: &[DVec3], x: f64, z: f64) -> bool {
    let n = poly.len();
    let s: Vec<f64> = (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            (b.x - a.x) * (z - a.z) - (b.z - a.z) * (x - a.x)
        })
        .collect();
    s.iter().all(|&v| v >= -1e-9) || s.iter().all(|&v| v <= 1e-9)
}

/// The node of `stance` under the world point `p` whose polygon is nearest
/// `p` in height.
pub fn locate(mesh: &NavMesh, p: DVec3, stance: Stance) -> u32 {
    mesh.nodes
        .iter()
        .filter(|n| {
            n.stance == stance
                && n.polygon
                    .as_ref()
                    .is_some_and(|poly| inside_plan(poly, p.x, p.z))
        })
        .min_by(|a, b| {
            (a.position.y - p.y)
                .abs()
                .total_cmp(&(b.position.y - p.y).abs())
        })
        .unwrap_or_else(|| panic!("no {stance:?} node under {p}"))
        .id
}

/// Dijkstra over the links; the kinds of the links on the cheapest path.
pub fn path_kinds(mesh: &NavMesh, from: u32, to: u32) -> Option<Vec<LinkKind>> {
    let adj = mesh.adjacency();
    let mut dist = vec![f64::INFINITY; mesh.nodes.len()];
    let mut via: Vec<Option<usize>> = vec![None; mesh.nodes.len()];
    #[derive(PartialEq)]
    struct Item(f64, u32);
    impl Eq for Item {}
    impl PartialOrd for Item {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Item {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
        }
    }
    let mut heap = BinaryHeap::new();
    dist[from as usize] = 0.0;
    heap.push(Item(0.0, from));
    while let Some(Item(d, n)) = heap.pop() {
        if d > dist[n as usize] {
            continue;
        }
        if n == to {
            break;
        }
        for &li in &adj[n as usize] {
            let l = &mesh.links[li];
            let nd = d + l.cost;
            if nd < dist[l.to as usize] {
                dist[l.to as usize] = nd;
                via[l.to as usize] = Some(li);
                heap.push(Item(nd, l.to));
            }
        }
    }
    if !dist[to as usize].is_finite() {
        return None;
    }
    let mut kinds = Vec::new();
    let mut at = to;
    while let Some(li) = via[at as usize] {
        kinds.push(mesh.links[li].kind);
        at = mesh.links[li].from;
    }
    kinds.reverse();
    Some(kinds)
}
