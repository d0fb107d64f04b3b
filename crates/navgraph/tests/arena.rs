//! The `arena` map (the shared polyanya arena mesh rendered to
//! `assets/levels/navgraph/arena.png`) against its scenarios.

mod common;

use common::{artifact, level, run};
use glam::DVec3;
use navscope_core::ParamValue;
use navscope_core::level::LevelData;
use navscope_navgraph::raster_stages::SuperGraphArtifact;

/// One scenario: start cell, goal cell, optimal 8-connected length.
type Scenario = (u32, u32, u32, u32, f64);

/// Every scenario, or `None` when the shared data is absent.
fn scenarios() -> Option<Vec<Scenario>> {
    let path = common::repo("../shared/data/polyanya-meshes/arena.scen");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} is absent", path.display());
        return None;
    };
    Some(
        text.lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (
                    f[4].parse().unwrap(),
                    f[5].parse().unwrap(),
                    f[6].parse().unwrap(),
                    f[7].parse().unwrap(),
                    f[8].parse().unwrap(),
                )
            })
            .collect(),
    )
}

/// 4-connected component of every free pixel (`u32::MAX` for obstacles).
fn grid_components(w: usize, h: usize, obstacle: &[u8]) -> Vec<u32> {
    let mut label = vec![u32::MAX; w * h];
    let mut next = 0;
    for s in 0..w * h {
        if obstacle[s] != 0 || label[s] != u32::MAX {
            continue;
        }
        let mut stack = vec![s];
        label[s] = next;
        while let Some(p) = stack.pop() {
            let (x, y) = (p % w, p / w);
            let ns = [
                (x > 0).then(|| p - 1),
                (x + 1 < w).then(|| p + 1),
                (y > 0).then(|| p - w),
                (y + 1 < h).then(|| p + w),
            ];
            for q in ns.into_iter().flatten() {
                if obstacle[q] == 0 && label[q] == u32::MAX {
                    label[q] = next;
                    stack.push(q);
                }
            }
        }
        next += 1;
    }
    label
}

fn centre(x: u32, y: u32) -> DVec3 {
    DVec3::new(x as f64 + 0.5, 0.0, y as f64 + 0.5)
}

#[test]
fn arena_paths_exist_when_the_grid_path_does_and_are_short() {
    let Some(scen) = scenarios() else { return };
    let lvl = level("assets/levels/navgraph/arena.png");
    let LevelData::Raster(plan) = &lvl.data else {
        panic!("not a raster")
    };
    let (w, h) = (plan.width as usize, plan.height as usize);
    assert_eq!((w, h), (49, 49));
    let comp = grid_components(w, h, &plan.obstacle);
    // The grid's 8-connected moves may not cut corners, so 4-connected
    // components decide reachability.
    let r = run(
        navscope_navgraph::pipeline(),
        lvl.clone(),
        &[("agent_radius", ParamValue::Float(0.0))],
    );
    let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
    let mut worst: f64 = 0.0;
    for (k, &(sx, sy, gx, gy, optimal)) in scen.iter().enumerate() {
        let (a, b) = (
            comp[sy as usize * w + sx as usize],
            comp[gy as usize * w + gx as usize],
        );
        assert!(
            a != u32::MAX && b != u32::MAX,
            "scenario {k}: start or goal on an obstacle pixel"
        );
        let route = sg
            .route(centre(sx, sy), centre(gx, gy))
            .unwrap_or_else(|e| panic!("scenario {k}: {e}"));
        assert_eq!(route.found, a == b, "scenario {k}");
        // The article's scheme (base search within the super path's regions)
        // finds a path exactly when there is one.
        let within = sg
            .route_within_regions(centre(sx, sy), centre(gx, gy))
            .unwrap();
        assert_eq!(within.found, route.found, "scenario {k}");
        if route.found {
            assert!(
                route.length <= optimal * 1.1 + 1e-9,
                "scenario {k}: length {} vs optimal {optimal}",
                route.length
            );
            worst = worst.max(route.length / optimal.max(1e-9));
        }
    }
    eprintln!(
        "arena: {} scenarios, worst length ratio {worst:.3}",
        scen.len()
    );
    // Pairs of free pixels in different grid components have no path, and
    // the super-graph says so without searching the base graph.
    let reps: Vec<usize> = {
        let mut seen = std::collections::BTreeMap::new();
        for (i, c) in comp.iter().enumerate() {
            if *c != u32::MAX {
                seen.entry(*c).or_insert(i);
            }
        }
        seen.into_values().collect()
    };
    for pair in reps.windows(2) {
        let (p, q) = (pair[0], pair[1]);
        let route = sg.route(
            centre((p % w) as u32, (p / w) as u32),
            centre((q % w) as u32, (q / w) as u32),
        );
        if let Ok(route) = route {
            assert!(!route.found);
            assert_eq!(route.base_expansions, 0);
        }
    }
}
