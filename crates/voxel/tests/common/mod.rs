//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::sync::Arc;

use glam::{DVec2, DVec3};
use navscope_core::level::{Level, LevelData, MeshLevel};
use navscope_core::{NavMesh, ParamValue, ParamValues, Runner, Stance};

/// Path of a sample level under `assets/levels/voxel/`.
pub fn sample_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/levels/voxel")
        .join(name)
}

/// Path of a shared Recast demo mesh, if present; else `None`, after a
/// `SKIPPED: <path> is missing` line on stderr (the repository's
/// convention for a test that cannot run), so a test that returns on
/// `None` never passes silently.
pub fn recast_mesh(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/recast-meshes")
        .join(name);
    if p.exists() {
        Some(p)
    } else {
        // Straight to stderr, past the test harness's capture, so the skip
        // shows in every run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: {} is missing (the shared data, ../shared/data)",
            p.display()
        );
        None
    }
}

/// Loads a level file through navscope-levels.
pub fn load(path: &std::path::Path) -> Level {
    navscope_levels::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A mesh level as a `Level` named `test`.
pub fn level_of(m: MeshLevel) -> Level {
    Level {
        source: "test".into(),
        data: LevelData::Mesh(m),
    }
}

/// The mesh of a level.
pub fn mesh(level: &Level) -> &MeshLevel {
    match &level.data {
        LevelData::Mesh(m) => m,
        _ => panic!("not a mesh level"),
    }
}

/// Parameter values with overrides.
pub fn params(overrides: &[(&str, ParamValue)]) -> ParamValues {
    let specs = navscope_voxel::settings::specs();
    let mut v = ParamValues::defaults(&specs);
    for (k, val) in overrides {
        v.set(&specs, k, val.clone()).unwrap();
    }
    v
}

/// The Recast demo settings (one tile unless overridden).
pub fn recast_params(extra: &[(&str, ParamValue)]) -> ParamValues {
    let mut o: Vec<(&str, ParamValue)> = vec![
        ("cell_size", ParamValue::Float(0.3)),
        ("cell_height", ParamValue::Float(0.2)),
        ("stand.height", ParamValue::Float(2.0)),
        ("stand.radius", ParamValue::Float(0.6)),
        ("stand.max_step", ParamValue::Float(0.9)),
        ("stand.max_slope", ParamValue::Float(45.0)),
        ("tile_size", ParamValue::Int(0)),
    ];
    o.extend(extra.iter().cloned());
    params(&o)
}

/// Runs the whole pipeline and returns the runner.
pub fn run(level: Level, p: ParamValues) -> Runner {
    let mut r = Runner::new(Arc::new(navscope_voxel::pipeline()), Arc::new(level));
    r.set_params(p);
    r.run_all();
    if let Some((i, e)) = r.first_error() {
        panic!("stage {i} failed: {e}");
    }
    r
}

/// The NavMesh of a run.
pub fn navmesh(r: &Runner) -> NavMesh {
    r.navmesh().expect("a navmesh")
}

/// Nodes whose centre lies in the plan box and height band.
pub fn nodes_in(m: &NavMesh, x: (f64, f64), z: (f64, f64), y: (f64, f64)) -> Vec<usize> {
    m.nodes
        .iter()
        .filter(|n| {
            let p = n
                .polygon
                .as_ref()
                .map_or(n.position, |p| p.iter().sum::<DVec3>() / p.len() as f64);
            p.x > x.0 && p.x < x.1 && p.z > z.0 && p.z < z.1 && p.y > y.0 && p.y < y.1
        })
        .map(|n| n.id as usize)
        .collect()
}

/// Node whose convex polygon holds the point (plan), nearest in height.
pub fn node_at(m: &NavMesh, p: DVec3) -> u32 {
    let q = DVec2::new(p.x, p.z);
    m.nodes
        .iter()
        .filter(|n| {
            let t = n.polygon.as_ref().unwrap();
            let s = |a: DVec3, b: DVec3| (b.x - a.x) * (q.y - a.z) - (b.z - a.z) * (q.x - a.x);
            let d: Vec<f64> = (0..t.len())
                .map(|i| s(t[i], t[(i + 1) % t.len()]))
                .collect();
            d.iter().all(|&v| v >= 0.0) || d.iter().all(|&v| v <= 0.0)
        })
        .min_by(|a, b| {
            (a.position.y - p.y)
                .abs()
                .total_cmp(&(b.position.y - p.y).abs())
        })
        .unwrap_or_else(|| panic!("no node at {p}"))
        .id
}

/// Dijkstra over the NavMesh; entering a node costs the link cost times the
/// node's stance cost (§32.5).
pub fn shortest_path(
    m: &NavMesh,
    from: u32,
    to: u32,
    stance_cost: impl Fn(Stance) -> f64,
) -> Option<Vec<u32>> {
    #[derive(PartialEq)]
    struct E(f64, u32);
    impl Eq for E {}
    impl PartialOrd for E {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for E {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
        }
    }
    let adj = m.adjacency();
    let mut dist = vec![f64::INFINITY; m.nodes.len()];
    let mut prev = vec![u32::MAX; m.nodes.len()];
    let mut heap = BinaryHeap::new();
    dist[from as usize] = 0.0;
    heap.push(E(0.0, from));
    while let Some(E(d, n)) = heap.pop() {
        if d > dist[n as usize] {
            continue;
        }
        if n == to {
            let mut path = vec![to];
            while *path.last().unwrap() != from {
                path.push(prev[*path.last().unwrap() as usize]);
            }
            path.reverse();
            return Some(path);
        }
        for &li in &adj[n as usize] {
            let l = &m.links[li];
            let nd = d + l.cost * stance_cost(m.nodes[l.to as usize].stance);
            if nd < dist[l.to as usize] {
                dist[l.to as usize] = nd;
                prev[l.to as usize] = n;
                heap.push(E(nd, l.to));
            }
        }
    }
    None
}

/// Plan (x, z) area of a polygon, m².
pub fn plan_area(p: &[DVec3]) -> f64 {
    let k = p.len();
    (0..k)
        .map(|i| p[i].x * p[(i + 1) % k].z - p[(i + 1) % k].x * p[i].z)
        .sum::<f64>()
        .abs()
        / 2.0
}

/// The artifact of stage `id` of `r`, which must have run, as a `T`.
pub fn artifact<'r, T: navscope_core::Artifact>(r: &'r Runner, id: &str) -> &'r T {
    let at = r.pipeline().stage_index(id).unwrap();
    let a: &dyn std::any::Any = r.result(at).unwrap().outcome.as_ref().unwrap().as_ref();
    a.downcast_ref::<T>().unwrap()
}
