//! Sample multi-layered environments of the paper's kinds, for tests,
//! benchmarks and the files under `assets/levels/layers-samples/`.
//!
//! | function | environment |
//! |---|---|
//! | [`two_storeys`] | two floors joined by one stair flight (an inclined layer) |
//! | [`bridge`] | a footbridge over a road, inclined ramps at both ends |
//! | [`figure5`] | the paper's Figure 1/5 kind: three floors, four inclined staircases (7 layers, 8 connections, 230 obstacle vertices) |
//! | [`figure6`] | the same with 53 more obstacles (637 obstacle vertices) |
//! | [`figure7`] | the paper's Figure 7: a ring layer around an inner layer, joined by `k` connections |

use glam::DVec2;
use navscope_core::geom::{Polygon, PolygonWithHoles};
use navscope_core::level::{Connection, Layer, LayerPlane, LayeredLevel};

/// An axis-aligned rectangle, counter-clockwise.
pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon::new(vec![
        DVec2::new(x0, y0),
        DVec2::new(x1, y0),
        DVec2::new(x1, y1),
        DVec2::new(x0, y1),
    ])
}

/// A horizontal layer at `height` with a normalised area.
pub fn layer(name: &str, height: f64, outer: Polygon, holes: Vec<Polygon>) -> Layer {
    layer_on(name, LayerPlane::level(height), outer, holes)
}

/// A layer on `plane` (horizontal or inclined) with a normalised area.
pub fn layer_on(name: &str, plane: LayerPlane, outer: Polygon, holes: Vec<Polygon>) -> Layer {
    let mut area = PolygonWithHoles::new(outer, holes);
    area.normalise();
    Layer {
        name: name.into(),
        height: plane.height,
        slope: plane.slope,
        area,
    }
}

/// A stair flight or ramp: the rectangle `x0..x1` by `y0..y1`, rising
/// from height `h0` at plan point `foot` to `h1` at `head` (its two ends),
/// level across.
fn flight(
    name: &str,
    r: (f64, f64, f64, f64),
    foot: DVec2,
    h0: f64,
    head: DVec2,
    h1: f64,
) -> Layer {
    layer_on(
        name,
        LayerPlane::rising(foot, h0, head, h1),
        rect(r.0, r.1, r.2, r.3),
        vec![],
    )
}

/// A connection `a -> b` from layer `from` (on its left) to `to`.
pub fn conn(a: (f64, f64), b: (f64, f64), from: usize, to: usize) -> Connection {
    Connection {
        a: DVec2::new(a.0, a.1),
        b: DVec2::new(b.0, b.1),
        from,
        to,
    }
}

/// Two floors 3 m apart: the ground (20 x 10 m, one pillar) and the upper
/// floor, joined by a stair layer along the north wall rising from x = 6
/// (foot, height 0) to x = 14 (head, height 3); the upper floor has a
/// stairwell over most of the flight.
pub fn two_storeys() -> LayeredLevel {
    LayeredLevel {
        layers: vec![
            layer(
                "ground",
                0.0,
                rect(0.0, 0.0, 20.0, 10.0),
                vec![rect(3.0, 3.0, 4.0, 4.0)],
            ),
            flight(
                "stairs",
                (6.0, 8.0, 14.0, 10.0),
                DVec2::new(6.0, 9.0),
                0.0,
                DVec2::new(14.0, 9.0),
                3.0,
            ),
            layer(
                "upper",
                3.0,
                rect(0.0, 0.0, 20.0, 10.0),
                vec![rect(6.0, 7.5, 14.0, 9.5)],
            ),
        ],
        connections: vec![
            conn((6.0, 8.0), (6.0, 10.0), 0, 1),
            conn((14.0, 8.0), (14.0, 10.0), 1, 2),
        ],
    }
}

/// A 40 x 20 m ground with a road across it (two cars on it) and a 4 m
/// wide footbridge deck at 3 m height over the road (y = 8 to 12), reached
/// by a ramp at each end rising 3 m over 7 m (23°) from the ground at
/// y = 1 and y = 19.
pub fn bridge() -> LayeredLevel {
    let (west, east) = (18.0, 22.0);
    let at = |y: f64| DVec2::new(20.0, y);
    LayeredLevel {
        layers: vec![
            layer(
                "ground",
                0.0,
                rect(0.0, 0.0, 40.0, 20.0),
                vec![rect(8.0, 9.0, 12.0, 11.0), rect(28.0, 8.5, 31.0, 10.5)],
            ),
            flight(
                "south ramp",
                (west, 1.0, east, 8.0),
                at(1.0),
                0.0,
                at(8.0),
                3.0,
            ),
            layer("deck", 3.0, rect(west, 8.0, east, 12.0), vec![]),
            flight(
                "north ramp",
                (west, 12.0, east, 19.0),
                at(19.0),
                0.0,
                at(12.0),
                3.0,
            ),
        ],
        connections: vec![
            conn((east, 1.0), (west, 1.0), 0, 1),
            conn((east, 8.0), (west, 8.0), 1, 2),
            conn((east, 12.0), (west, 12.0), 2, 3),
            conn((east, 19.0), (west, 19.0), 3, 0),
        ],
    }
}

/// A regular `n`-gon of circumradius `r` around `c`.
fn ngon(c: DVec2, r: f64, n: usize, phase: f64) -> Polygon {
    Polygon::new(
        (0..n)
            .map(|k| c + DVec2::from_angle(phase + k as f64 * std::f64::consts::TAU / n as f64) * r)
            .collect(),
    )
}

fn floors_and_stairs(extra: &[Vec<Polygon>; 3]) -> LayeredLevel {
    let pillars = |f: usize| -> Vec<Polygon> {
        let mut v = vec![
            rect(5.0 + f as f64, 8.0, 7.0 + f as f64, 12.0),
            rect(33.0, 8.0 - f as f64, 35.0, 10.0 - f as f64),
            ngon(DVec2::new(20.0, 10.0), 1.2, 6, 0.0),
        ];
        for (x, y) in [
            (11.0, 7.5),
            (15.0, 7.5),
            (25.0, 7.5),
            (11.0, 12.5),
            (15.0, 12.5),
            (25.0, 12.5),
        ] {
            v.push(ngon(DVec2::new(x, y), 0.5 + 0.1 * f as f64, 8, 0.3));
        }
        v.extend(extra[f].iter().cloned());
        v
    };
    let f0 = pillars(0);
    let mut f1 = pillars(1);
    let mut f2 = pillars(2);
    // Stairwells over the flights arriving from below.
    f1.extend([rect(10.0, 1.0, 18.0, 3.0), rect(22.0, 17.0, 30.0, 19.0)]);
    f2.extend([rect(10.0, 17.0, 18.0, 19.0), rect(22.0, 1.0, 30.0, 3.0)]);
    let out = || rect(0.0, 0.0, 40.0, 20.0);
    let p = DVec2::new;
    LayeredLevel {
        layers: vec![
            layer("floor 0", 0.0, out(), f0),
            layer("floor 1", 3.0, out(), f1),
            layer("floor 2", 6.0, out(), f2),
            // Flights rise 3 m over 8 m (21°) from the foot connection
            // to the head connection.
            flight(
                "stairs A",
                (10.0, 1.0, 18.0, 3.0),
                p(10.0, 2.0),
                0.0,
                p(18.0, 2.0),
                3.0,
            ),
            flight(
                "stairs B",
                (22.0, 17.0, 30.0, 19.0),
                p(30.0, 18.0),
                0.0,
                p(22.0, 18.0),
                3.0,
            ),
            flight(
                "stairs C",
                (10.0, 17.0, 18.0, 19.0),
                p(10.0, 18.0),
                3.0,
                p(18.0, 18.0),
                6.0,
            ),
            flight(
                "stairs D",
                (22.0, 1.0, 30.0, 3.0),
                p(30.0, 2.0),
                3.0,
                p(22.0, 2.0),
                6.0,
            ),
        ],
        connections: vec![
            conn((10.0, 1.0), (10.0, 3.0), 0, 3),
            conn((18.0, 1.0), (18.0, 3.0), 3, 1),
            conn((30.0, 19.0), (30.0, 17.0), 0, 4),
            conn((22.0, 19.0), (22.0, 17.0), 4, 1),
            conn((10.0, 17.0), (10.0, 19.0), 1, 5),
            conn((18.0, 17.0), (18.0, 19.0), 5, 2),
            conn((30.0, 3.0), (30.0, 1.0), 1, 6),
            conn((22.0, 3.0), (22.0, 1.0), 6, 2),
        ],
    }
}

/// Three 40 x 20 m floors 3 m apart with pillars, and four staircases (two
/// from each floor to the next, inclined layers): 7 layers, 8 connections and 230 obstacle
/// vertices, like the paper's Figures 1 and 5.
pub fn figure5() -> LayeredLevel {
    floors_and_stairs(&[Vec::new(), Vec::new(), Vec::new()])
}

/// [`figure5`] with 53 more obstacles (36 octagons and 17 heptagons on a
/// lattice away from the stairs): 637 obstacle vertices, like the paper's
/// Figure 6.
pub fn figure6() -> LayeredLevel {
    let mut extra: [Vec<Polygon>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut count = 0;
    for (f, floor) in extra.iter_mut().enumerate() {
        for y in [5.0, 14.5] {
            for i in 0..15 {
                let x = 2.0 + 2.5 * i as f64;
                let blocked = (4.0..8.5).contains(&x)
                    || (17.5..22.5).contains(&x)
                    || (31.5..36.5).contains(&x);
                if blocked || count == 53 {
                    continue;
                }
                let r = 0.45 + 0.05 * ((i + f) % 3) as f64;
                let sides = if count % 3 == 2 { 7 } else { 8 };
                floor.push(ngon(DVec2::new(x, y), r, sides, 0.2));
                count += 1;
            }
        }
    }
    floors_and_stairs(&extra)
}

/// The paper's Figure 7: layer 0 is the area between a 30 x 20 m rectangle
/// and an inner 10 x 10 m rectangle, layer 1 the inner rectangle (same
/// height); `k` connections (1..=28) are spread evenly around the inner
/// rectangle's boundary, each leading from the ring into the inner layer.
pub fn figure7(k: usize) -> LayeredLevel {
    let k = k.clamp(1, 28);
    let (x0, y0, x1, y1) = (10.0, 5.0, 20.0, 15.0);
    let per = 40.0 / k as f64;
    let len = (0.5 * per).min(2.0);
    let mut connections = Vec::new();
    for i in 0..k {
        let s = (i as f64 + 0.5) * per;
        let side = ((s / 10.0).floor() as usize).min(3);
        let t = (s - 10.0 * side as f64).clamp(0.2 + len / 2.0, 9.8 - len / 2.0);
        let (t0, t1) = (t - len / 2.0, t + len / 2.0);
        // Counter-clockwise around the inner rectangle, the ring (outside)
        // is on the right, so each connection runs clockwise.
        let c = match side {
            0 => conn((x0 + t1, y0), (x0 + t0, y0), 0, 1),
            1 => conn((x1, y0 + t1), (x1, y0 + t0), 0, 1),
            2 => conn((x1 - t1, y1), (x1 - t0, y1), 0, 1),
            _ => conn((x0, y1 - t1), (x0, y1 - t0), 0, 1),
        };
        connections.push(c);
    }
    LayeredLevel {
        layers: vec![
            layer(
                "ring",
                0.0,
                rect(0.0, 0.0, 30.0, 20.0),
                vec![rect(x0, y0, x1, y1)],
            ),
            layer(
                "inner",
                0.0,
                rect(x0, y0, x1, y1),
                vec![rect(14.0, 9.0, 16.0, 11.0)],
            ),
        ],
        connections,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertices(l: &LayeredLevel) -> usize {
        l.layers.iter().map(|x| x.area.vertex_count()).sum()
    }

    #[test]
    fn paper_environments_have_the_papers_sizes() {
        let f5 = figure5();
        assert_eq!(
            (f5.layers.len(), f5.connections.len(), vertices(&f5)),
            (7, 8, 230)
        );
        let f6 = figure6();
        assert_eq!(
            (f6.layers.len(), f6.connections.len(), vertices(&f6)),
            (7, 8, 637)
        );
        for k in [1, 5, 28] {
            assert_eq!(figure7(k).connections.len(), k);
        }
        for l in [two_storeys(), bridge(), f5, f6, figure7(28)] {
            for layer in &l.layers {
                assert_eq!(
                    navscope_core::geom::validate_polygon_with_holes(&layer.area),
                    Ok(()),
                    "{}",
                    layer.name
                );
            }
        }
    }
}
