//! Paths keep their clearance everywhere, near the start and the goal too:
//! many random queries on every sample level, the clearance measured by
//! brute force at sample points every 5 cm along every path; lifted onto
//! the layers' planes, their heights follow the surfaces (no jump at a
//! connection, no steeper step than the steepest layer). Run with
//! `--nocapture` for the per-sample figures.

use std::sync::Arc;

use glam::DVec2;
use navscope_core::level::{Level, LevelData};
use navscope_core::{Artifact, Runner};
use navscope_layers::paths::{LayerPoint, find_path};
use navscope_layers::stages::{CorridorMap, LayerAxes};
use navscope_layers::verify::nearest_obstacle;
use navscope_layers::{pipeline, samples};

fn artifact<'a, T: Artifact>(r: &'a Runner, id: &str) -> &'a T {
    let i = r.pipeline().stage_index(id).unwrap();
    let a: &Arc<dyn Artifact> = r.result(i).unwrap().outcome.as_ref().unwrap();
    let any: &dyn std::any::Any = a.as_ref();
    any.downcast_ref::<T>().unwrap()
}

/// A small deterministic generator (64-bit LCG, top bits).
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn random_paths_keep_the_clearance_at_every_point() {
    let levels = [
        ("two_storeys", samples::two_storeys()),
        ("bridge", samples::bridge()),
        ("figure5", samples::figure5()),
        ("figure6", samples::figure6()),
        ("figure7(3)", samples::figure7(3)),
    ];
    let clearance = 0.3;
    let mut rng = Lcg(19);
    const QUERIES: usize = 40;
    let (mut found, mut checked_points) = (0, 0);
    for (name, data) in levels {
        let steepest = data
            .layers
            .iter()
            .map(|l| l.slope.length())
            .fold(0.0, f64::max);
        let mut r = Runner::new(
            Arc::new(pipeline()),
            Arc::new(Level {
                source: name.into(),
                data: LevelData::Layers(data),
            }),
        );
        r.run_to(
            r.pipeline().stage_index("corridor-map").unwrap(),
            &Default::default(),
            &mut |_| {},
        );
        let la = artifact::<LayerAxes>(&r, "layer-axes");
        let c = artifact::<CorridorMap>(&r, "corridor-map");
        let opened: Vec<usize> = (0..la.sites.conns.len()).collect();
        // Random free points of random layers, at least the clearance from
        // every obstacle.
        let point = |rng: &mut Lcg| loop {
            let layer = (rng.unit() * la.sites.areas.len() as f64) as usize;
            let (lo, hi) = la.sites.areas[layer].outer.bounds();
            let at = lo + (hi - lo) * DVec2::new(rng.unit(), rng.unit());
            if la.sites.areas[layer].contains(at)
                && nearest_obstacle(&la.sites, &opened, layer, at) >= clearance
            {
                return LayerPoint { layer, at };
            }
        };
        let (mut here, mut points, mut least, mut step) = (0, 0, f64::INFINITY, 0.0f64);
        for _ in 0..QUERIES {
            let (s, g) = (point(&mut rng), point(&mut rng));
            let Ok(p) = find_path(&c.axis, &la.sites, &c.planes, s, g, clearance) else {
                continue;
            };
            here += 1;
            assert_eq!((p.path[0], *p.path.last().unwrap()), (s, g));
            for w in p.path.windows(2) {
                let (a, b) = (
                    c.planes[w[0].layer].lift(w[0].at),
                    c.planes[w[1].layer].lift(w[1].at),
                );
                if w[0].layer != w[1].layer {
                    assert_eq!(w[0].at, w[1].at, "{name}: layers change on a connection");
                    assert!((a.y - b.y).abs() < 1e-9, "{name}: {a} -> {b} jumps");
                    continue;
                }
                let n = ((w[0].at.distance(w[1].at) / 0.05).ceil() as usize).max(1);
                for k in 0..=n {
                    let x = w[0].at.lerp(w[1].at, k as f64 / n as f64);
                    let d = nearest_obstacle(&la.sites, &opened, w[0].layer, x);
                    checked_points += 1;
                    points += 1;
                    least = least.min(d);
                    if k < n {
                        let dy = (a.lerp(b, k as f64 / n as f64).y
                            - a.lerp(b, (k + 1) as f64 / n as f64).y)
                            .abs();
                        step = step.max(dy);
                        assert!(dy <= steepest * 0.05 + 1e-9, "{name}: {dy} m in 5 cm");
                    }
                    assert!(
                        d >= clearance - 1e-6,
                        "{name}: path {s:?} -> {g:?} comes {d:.4} m from an obstacle at {x:?} (layer {})",
                        w[0].layer
                    );
                }
            }
        }
        found += here;
        eprintln!(
            "{name}: {here} of {QUERIES} random queries found a path; {points} points every 5 cm or less; least clearance {least:.4} m (asked {clearance} m); largest height step between them {step:.4} m"
        );
    }
    eprintln!("{found} paths found, {checked_points} points checked");
    assert!(
        found >= 100,
        "only {found} of {} random queries found a path",
        5 * QUERIES
    );
}
