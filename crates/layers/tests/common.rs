//! Shared builders for the tests.
#![allow(dead_code)]

use glam::DVec2;
use navscope_core::geom::{Polygon, PolygonWithHoles};
use navscope_core::level::{Connection, Layer, LayeredLevel};

pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon::new(vec![DVec2::new(x0, y0), DVec2::new(x1, y0), DVec2::new(x1, y1), DVec2::new(x0, y1)])
}

pub fn layer(name: &str, height: f64, outer: Polygon, holes: Vec<Polygon>) -> Layer {
    let mut area = PolygonWithHoles::new(outer, holes);
    area.normalise();
    Layer { name: name.into(), height, area }
}

pub fn conn(a: (f64, f64), b: (f64, f64), from: usize, to: usize) -> Connection {
    Connection { a: DVec2::new(a.0, a.1), b: DVec2::new(b.0, b.1), from, to }
}

/// Two floors 3 m apart joined by a stair layer: floor 0 is 20 x 10 with a
/// pillar, the stairs run east from x = 6 to x = 14 along the north wall
/// (y 8..10) at mid height, floor 1 has a stairwell hole over most of the
/// flight.
pub fn two_storeys() -> LayeredLevel {
    LayeredLevel {
        layers: vec![
            layer("ground", 0.0, rect(0.0, 0.0, 20.0, 10.0), vec![rect(3.0, 3.0, 4.0, 4.0)]),
            layer("stairs", 1.5, rect(6.0, 8.0, 14.0, 10.0), vec![]),
            layer("upper", 3.0, rect(0.0, 0.0, 20.0, 10.0), vec![rect(6.0, 7.5, 14.0, 9.5)]),
        ],
        connections: vec![
            // Foot of the stairs: from the ground (west of x = 6) onto the stairs.
            conn((6.0, 8.0), (6.0, 10.0), 0, 1),
            // Head: from the stairs onto the upper floor (east of x = 14).
            conn((14.0, 8.0), (14.0, 10.0), 1, 2),
        ],
    }
}
