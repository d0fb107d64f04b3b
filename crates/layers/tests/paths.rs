//! Paths on the corridor map.

use glam::DVec2;
use navscope_core::level::LayerPlane;
use navscope_layers::paths::{LayerPoint, find_path};
use navscope_layers::verify::nearest_obstacle;
use navscope_layers::{build, samples, settings};

#[test]
fn a_path_from_the_ground_floor_to_the_top_floor_climbs_the_stairs_and_keeps_its_clearance() {
    let level = samples::figure5();
    let planes: Vec<LayerPlane> = level.layers.iter().map(|l| l.plane()).collect();
    let b = build(&level, &settings(0.001, 0.01)).unwrap();
    let opened: Vec<usize> = (0..level.connections.len()).collect();
    let start = LayerPoint {
        layer: 0,
        at: DVec2::new(2.0, 2.0),
    };
    let goal = LayerPoint {
        layer: 2,
        at: DVec2::new(38.0, 10.0),
    };
    for clearance in [0.3, 0.8] {
        let p = find_path(&b.merged, &b.sites, &planes, start, goal, clearance).unwrap();
        let layers: Vec<usize> = p.path.iter().map(|q| q.layer).collect();
        assert_eq!(layers.first(), Some(&0));
        assert_eq!(layers.last(), Some(&2));
        // Floor 0 -> a staircase (A or B) -> floor 1 -> a staircase (C or D) -> floor 2.
        let mut visits = layers.clone();
        visits.dedup();
        assert_eq!(visits.len(), 5, "{visits:?}");
        assert!(
            matches!(visits[1], 3 | 4) && visits[2] == 1 && matches!(visits[3], 5 | 6),
            "{visits:?}"
        );
        for w in p.path.windows(2) {
            if w[0].layer != w[1].layer {
                assert!(
                    w[0].at.distance(w[1].at) < 1e-6,
                    "layers change only at connections"
                );
                continue;
            }
            let n = (w[0].at.distance(w[1].at) / 0.05).ceil().max(1.0) as usize;
            for k in 0..=n {
                let x = w[0].at.lerp(w[1].at, k as f64 / n as f64);
                let d = nearest_obstacle(&b.sites, &opened, w[0].layer, x);
                assert!(
                    d >= clearance - 1e-6,
                    "point {x:?} on layer {} is {d} m from an obstacle",
                    w[0].layer
                );
            }
        }
        let lift = |l: usize, q: DVec2| planes[l].lift(q);
        let backbone: f64 = p
            .backbone
            .windows(2)
            .map(|w| lift(w[0].layer, w[0].at).distance(lift(w[1].layer, w[1].at)))
            .sum();
        let leg = |e: LayerPoint, r: LayerPoint| lift(e.layer, e.at).distance(lift(r.layer, r.at));
        assert!(
            p.length <= backbone + leg(start, p.retracted[0]) + leg(goal, p.retracted[1]) + 1e-6
        );
        assert!(
            p.length >= start.at.distance(goal.at),
            "no shorter than the straight line"
        );
    }
}

#[test]
fn too_much_clearance_or_a_bad_start_is_an_error() {
    let level = samples::two_storeys();
    let planes: Vec<LayerPlane> = level.layers.iter().map(|l| l.plane()).collect();
    let b = build(&level, &settings(0.001, 0.01)).unwrap();
    let s = LayerPoint {
        layer: 0,
        at: DVec2::new(15.0, 5.0),
    };
    let g = LayerPoint {
        layer: 2,
        at: DVec2::new(17.0, 5.0),
    };
    // The stairs are 2 m wide: a 1.2 m clearance cannot pass them.
    let e = find_path(&b.merged, &b.sites, &planes, s, g, 1.2).unwrap_err();
    assert!(e.contains("no path keeps a clearance"), "{e}");
    let e = find_path(
        &b.merged,
        &b.sites,
        &planes,
        LayerPoint {
            layer: 0,
            at: DVec2::new(30.0, 5.0),
        },
        g,
        0.1,
    )
    .unwrap_err();
    assert!(e.contains("not in the free space"), "{e}");
    let ok = find_path(&b.merged, &b.sites, &planes, s, g, 0.5).unwrap();
    assert!(ok.path.iter().any(|q| q.layer == 1), "climbs the stairs");
}
