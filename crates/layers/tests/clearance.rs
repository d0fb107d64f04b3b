//! Paths keep their clearance everywhere, near the start and the goal too:
//! many random queries on every sample level, the clearance measured by
//! brute force at sample points every 5 cm along every path.

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
    let (mut found, mut checked_points) = (0, 0);
    for (name, data) in levels {
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
        for _ in 0..16 {
            let (s, g) = (point(&mut rng), point(&mut rng));
            let Ok(p) = find_path(&c.axis, &la.sites, &c.planes, s, g, clearance) else {
                continue;
            };
            found += 1;
            assert_eq!((p.path[0], *p.path.last().unwrap()), (s, g));
            for w in p.path.windows(2) {
                if w[0].layer != w[1].layer {
                    continue;
                }
                let n = ((w[0].at.distance(w[1].at) / 0.05).ceil() as usize).max(1);
                for k in 0..=n {
                    let x = w[0].at.lerp(w[1].at, k as f64 / n as f64);
                    let d = nearest_obstacle(&la.sites, &opened, w[0].layer, x);
                    checked_points += 1;
                    assert!(
                        d >= clearance - 1e-6,
                        "{name}: path {s:?} -> {g:?} comes {d:.4} m from an obstacle at {x:?} (layer {})",
                        w[0].layer
                    );
                }
            }
        }
    }
    eprintln!("{found} paths found, {checked_points} points checked");
    assert!(
        found >= 40,
        "only {found} of 80 random queries found a path"
    );
}
