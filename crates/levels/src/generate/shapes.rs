//! Obstacle outlines for the generators: convex polygons, rotated boxes,
//! L, U and T shapes and stars, each fitting inside a given disc.

use std::f64::consts::TAU;

use glam::DVec2;

use super::rng::SplitMix64;

/// Obstacle outlines drawn on the unit square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SquareShape {
    Box,
    L,
    U,
    T,
}

/// `k` points on the circle of radius `r` at sorted random angles, each in
/// its own sector: a convex polygon, counter-clockwise.
pub(crate) fn convex(rng: &mut SplitMix64, k: usize, r: f64) -> Vec<DVec2> {
    let sector = TAU / k as f64;
    let start = rng.range(0.0, TAU);
    (0..k)
        .map(|i| {
            let a = start + sector * (i as f64 + rng.range(-0.3, 0.3));
            DVec2::new(a.cos(), a.sin()) * r
        })
        .collect()
}

/// A star-shaped polygon: `k` tips on radius `r` alternating with `k`
/// valleys on radius `r * inner`; with `inner < cos(pi / k)` every valley is
/// a reflex corner of the obstacle. Counter-clockwise.
pub(crate) fn star(k: usize, r: f64, inner: f64, phase: f64) -> Vec<DVec2> {
    (0..2 * k)
        .map(|i| {
            let a = phase + TAU * i as f64 / (2 * k) as f64;
            let rad = if i % 2 == 0 { r } else { r * inner };
            DVec2::new(a.cos(), a.sin()) * rad
        })
        .collect()
}

/// Outline in the unit square `[-1, 1]^2`, counter-clockwise.
fn unit_outline(kind: SquareShape, rng: &mut SplitMix64) -> Vec<DVec2> {
    let p = |x: f64, y: f64| DVec2::new(x, y);
    match kind {
        SquareShape::Box => {
            let h = rng.range(0.25, 1.0);
            vec![p(-1., -h), p(1., -h), p(1., h), p(-1., h)]
        }
        SquareShape::L => {
            let t = rng.range(-0.4, 0.4);
            vec![
                p(-1., -1.),
                p(1., -1.),
                p(1., t),
                p(t, t),
                p(t, 1.),
                p(-1., 1.),
            ]
        }
        SquareShape::U => {
            let w = rng.range(0.3, 0.6);
            let b = rng.range(-0.6, 0.0);
            vec![
                p(-1., -1.),
                p(1., -1.),
                p(1., 1.),
                p(w, 1.),
                p(w, b),
                p(-w, b),
                p(-w, 1.),
                p(-1., 1.),
            ]
        }
        SquareShape::T => {
            let s = rng.range(0.2, 0.5);
            let y = rng.range(0.0, 0.6);
            vec![
                p(-s, -1.),
                p(s, -1.),
                p(s, y),
                p(1., y),
                p(1., 1.),
                p(-1., 1.),
                p(-1., y),
                p(-s, y),
            ]
        }
    }
}

/// A random obstacle inside the disc of radius `r` around `centre`,
/// counter-clockwise, rotated at random.
pub(crate) fn random_obstacle(rng: &mut SplitMix64, centre: DVec2, r: f64) -> Vec<DVec2> {
    let square = |kind, rng: &mut SplitMix64| -> Vec<DVec2> {
        // Corners of [-1, 1]^2 sit at radius sqrt(2).
        let s = r / std::f64::consts::SQRT_2;
        unit_outline(kind, rng).into_iter().map(|q| q * s).collect()
    };
    let local = match rng.int(0, 5) {
        0 => {
            let k = rng.int(3, 8) as usize;
            convex(rng, k, r)
        }
        1 => {
            let k = rng.int(3, 7) as usize;
            let inner = rng.range(0.35, 0.65);
            star(k, r, inner, rng.range(0.0, TAU))
        }
        2 => square(SquareShape::Box, rng),
        3 => square(SquareShape::L, rng),
        4 => square(SquareShape::U, rng),
        _ => square(SquareShape::T, rng),
    };
    let rot = DVec2::from_angle(rng.range(0.0, TAU));
    local.into_iter().map(|q| centre + rot.rotate(q)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::Polygon;

    #[test]
    fn every_shape_fits_its_disc_and_winds_counter_clockwise() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..500 {
            let c = DVec2::new(rng.range(-50., 50.), rng.range(-50., 50.));
            let pts = random_obstacle(&mut rng, c, 2.0);
            assert!(pts.iter().all(|p| p.distance(c) <= 2.0 + 1e-9));
            assert!(Polygon::new(pts).is_ccw());
        }
    }

    #[test]
    fn star_valleys_are_reflex() {
        let s = Polygon::new(star(6, 1.0, 0.5, 0.3));
        let reflex = (0..12).filter(|&i| {
            navscope_core::geom::orient(s.at(i as isize - 1), s.points[i], s.at(i as isize + 1))
                == navscope_core::geom::Orientation::Clockwise
        });
        assert_eq!(reflex.count(), 6);
    }
}
